package dev.cloakgate.ledger;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Jcs;

/**
 * The envelope every store puts around an entry body ({@code v}, {@code tenant}, {@code seq}, {@code ts},
 * {@code prev}) and the tenant names a ledger accepts: one definition, so a SQLite and a PostgreSQL ledger write the
 * same bytes for the same history.
 */
final class EntryEnvelope {
    private static final Pattern TENANT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Set<String> ENVELOPE = Set.of("v", "tenant", "seq", "ts", "prev");
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final ObjectMapper M = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();

    private EntryEnvelope() {
    }

    static void requireTenant(String tenant) {
        if (tenant == null || !TENANT.matcher(tenant).matches()) {
            throw new IllegalArgumentException("a tenant id for the ledger is 1-64 of [A-Za-z0-9._-], starting alphanumeric");
        }
    }

    /** The time of a group commit, as entries carry it (UTC, microseconds). */
    static String ts(Instant at) {
        return TS.format(at);
    }

    /** An entry ready to store: its seq, hash and exact bytes. */
    record Sealed(long seq, byte[] hash, byte[] bytes) {
        LedgerStore.Appended appended() {
            return new LedgerStore.Appended(seq, hash);
        }
    }

    /**
     * The bodies as consecutive entries from {@code seq}, the first chained to {@code prev}, all stamped {@code ts}
     * (one group commit). Throws {@link IllegalArgumentException} for a body with no entry form, before anything is
     * stored.
     */
    static java.util.List<Sealed> chain(String tenant, java.util.List<ObjectNode> bodies, long seq, String ts, byte[] prev) {
        java.util.List<Sealed> out = new java.util.ArrayList<>(bodies.size());
        for (ObjectNode body : bodies) {
            byte[] bytes = canonical(tenant, body, seq, ts, prev);
            byte[] hash = EntryHash.of(bytes);
            out.add(new Sealed(seq, hash, bytes));
            prev = hash;
            seq++;
        }
        return out;
    }

    /** The entry's exact stored bytes: the envelope around {@code body}, in RFC 8785 form. */
    static byte[] canonical(String tenant, ObjectNode body, long seq, String ts, byte[] prev) {
        if (body == null || !body.path("kind").isTextual() || body.path("kind").asText().isEmpty()) {
            throw new IllegalArgumentException("a ledger entry body needs a non-empty text field 'kind'");
        }
        for (String f : ENVELOPE) {
            if (body.has(f)) {
                throw new IllegalArgumentException("a ledger entry body may not set the envelope field '" + f + "'");
            }
        }
        ObjectNode e = M.createObjectNode();
        e.put("v", ChainVerifier.VERSION).put("tenant", tenant).put("seq", seq).put("ts", ts).put("prev", HEX.formatHex(prev));
        e.setAll(body);
        return Jcs.canonicalize(e);
    }
}
