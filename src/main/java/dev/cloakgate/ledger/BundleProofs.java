package dev.cloakgate.ledger;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Jcs;
import dev.cloakgate.crypto.StrictJson;

/**
 * An export bundle's {@code proofs.json}: the Merkle frontier of the entries before the export (so a verifier can
 * recompute every later root from the bundled entries alone) and a consistency proof between each successive
 * pair of bundled checkpoints (so each signed tree is shown to extend the one before, the anchor included).
 */
record BundleProofs(long prefixSize, List<byte[]> prefixHashes, List<Consistency> consistency) {
    private static final ObjectMapper M = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();

    record Consistency(long from, long to, List<byte[]> proof) {
        Consistency {
            proof = List.copyOf(proof);
        }
    }

    BundleProofs {
        prefixHashes = List.copyOf(prefixHashes);
        consistency = List.copyOf(consistency);
    }

    /** RFC 8785 bytes. */
    byte[] json() {
        ObjectNode o = M.createObjectNode();
        ObjectNode prefix = o.putObject("prefix");
        prefix.put("size", prefixSize);
        hexes(prefix.putArray("hashes"), prefixHashes);
        ArrayNode list = o.putArray("consistency");
        for (Consistency c : consistency) {
            ObjectNode p = list.addObject().put("from", c.from()).put("to", c.to());
            hexes(p.putArray("proof"), c.proof());
        }
        return Jcs.canonicalize(o);
    }

    /** Reads proofs.json; the exception's message says what is wrong with it. */
    static BundleProofs parse(byte[] bytes) {
        StrictJson read = Jcs.parseStrict(bytes);
        if (read instanceof StrictJson.Rejected r) {
            throw new IllegalArgumentException("not strict JSON: " + CanonicalParts.defects(r.defects()));
        }
        if (!(read instanceof StrictJson.Parsed parsed) || !parsed.value().isObject()) {
            throw new IllegalArgumentException("not one strict JSON object");
        }
        JsonNode o = parsed.value();
        JsonNode prefix = o.path("prefix");
        // the members of the format, no more (issue 15: the documented form, CanonicalParts)
        if (CanonicalParts.unknownMembers(o, Set.of("prefix", "consistency")) > 0
                || CanonicalParts.unknownMembers(prefix, Set.of("size", "hashes")) > 0) {
            throw new IllegalArgumentException("a member the format does not have");
        }
        long size = count(prefix.path("size"), "prefix.size");
        List<byte[]> hashes = hashes(prefix.path("hashes"), "prefix.hashes");
        if (hashes.size() != Long.bitCount(size)) {
            throw new IllegalArgumentException("prefix of size " + size + " has " + Long.bitCount(size)
                    + " frontier hashes, not " + hashes.size());
        }
        if (!o.path("consistency").isArray()) {
            throw new IllegalArgumentException("consistency missing or not an array");
        }
        List<Consistency> proofs = new ArrayList<>();
        for (JsonNode c : o.get("consistency")) {
            String where = "consistency[" + proofs.size() + "]";
            if (CanonicalParts.unknownMembers(c, Set.of("from", "to", "proof")) > 0) {
                throw new IllegalArgumentException(where + " has a member the format does not have");
            }
            proofs.add(new Consistency(count(c.path("from"), where + ".from"), count(c.path("to"), where + ".to"),
                    hashes(c.path("proof"), where + ".proof")));
        }
        return new BundleProofs(size, hashes, proofs);
    }

    private static void hexes(ArrayNode into, List<byte[]> hashes) {
        for (byte[] h : hashes) {
            into.add(HEX.formatHex(h));
        }
    }

    private static long count(JsonNode n, String where) {
        if (!n.isIntegralNumber() || !n.canConvertToLong() || n.asLong() < 0) {
            throw new IllegalArgumentException(where + " missing or not a non-negative integer");
        }
        return n.asLong();
    }

    private static List<byte[]> hashes(JsonNode a, String where) {
        if (!a.isArray()) {
            throw new IllegalArgumentException(where + " missing or not an array");
        }
        List<byte[]> out = new ArrayList<>(a.size());
        for (JsonNode h : a) {
            if (!h.isTextual() || !h.asText().matches("[0-9a-f]{64}")) {
                throw new IllegalArgumentException(where + "[" + out.size() + "] is not 64 lower-case hex digits");
            }
            out.add(HEX.parseHex(h.asText()));
        }
        return out;
    }
}
