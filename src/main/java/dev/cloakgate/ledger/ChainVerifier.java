package dev.cloakgate.ledger;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.crypto.Jcs;
import dev.cloakgate.crypto.JsonDefect;
import dev.cloakgate.crypto.StrictJson;

/**
 * Checks that entries, each given as its exact bytes, form one tenant's hash chain: every entry strict and
 * canonical JSON with its envelope, {@code seq} consecutive, {@code prev} the hash of the entry before (hex).
 * Every failure is reported, not only the first: an auditor needs the whole picture, and one altered entry
 * must not hide a second one further on. The hashes it computes are returned for the Merkle tree.
 */
public final class ChainVerifier {
    public static final int VERSION = 1;
    private static final Pattern HASH_HEX = Pattern.compile("[0-9a-f]{64}");

    /** What a verification found; {@code hashes} are the entry hashes in order (for the Merkle tree). */
    public record Result(List<ChainFailure> failures, List<byte[]> hashes, long firstSeq, long lastSeq) {
        public boolean valid() {
            return failures.isEmpty();
        }
    }

    /**
     * @param expectedPrev the hash the first entry must chain to: {@link EntryHash#GENESIS} when the entries
     *        start at seq 0, else the hash of the entry before them (from a trusted checkpoint or earlier export);
     *        null when it is not known here, and the first entry's {@code prev} goes unchecked
     */
    public Result verify(String tenant, List<byte[]> entries, byte[] expectedPrev) {
        Stream chain = start(tenant, expectedPrev);
        List<ChainFailure> failures = new ArrayList<>();
        List<byte[]> hashes = new ArrayList<>(entries.size());
        for (byte[] bytes : entries) {
            Step step = chain.add(bytes);
            failures.addAll(step.failures());
            hashes.add(step.hash());
        }
        return new Result(List.copyOf(failures), List.copyOf(hashes), chain.firstSeq(), chain.lastSeq());
    }

    /** The same checks one entry at a time, holding only the last hash and seq: for exports too big to hold. */
    public Stream start(String tenant, byte[] expectedPrev) {
        return new Stream(tenant, expectedPrev);
    }

    /** What checking one entry found: its hash, its seq (-1 when unreadable) and its failures. */
    public record Step(byte[] hash, long seq, List<ChainFailure> failures) {
    }

    /** A chain being checked entry by entry; lines count from 1. Not thread-safe. */
    public static final class Stream {
        private final String tenant;
        private final HexFormat hex = HexFormat.of();
        private byte[] prevHash;
        private long prevSeq = Long.MIN_VALUE;
        private long first = -1;
        private int line;

        private Stream(String tenant, byte[] expectedPrev) {
            this.tenant = tenant;
            this.prevHash = expectedPrev;
        }

        public Step add(byte[] bytes) {
            line++;
            List<ChainFailure> failures = new ArrayList<>(0);
            byte[] hash = EntryHash.of(bytes);
            StrictJson read = Jcs.parseStrict(bytes);
            if (read instanceof StrictJson.Rejected r) {
                for (JsonDefect d : r.defects()) {
                    failures.add(new ChainFailure(ChainFailure.Kind.MALFORMED_ENTRY, line, d.kind() + " at " + d.where()));
                }
                prevHash = hash;
                return new Step(hash, -1, failures);
            }
            JsonNode e = ((StrictJson.Parsed) read).value();
            // Jcs.isCanonical(bytes) would parse the bytes a second time: canonicalising the value just read from
            // them is the same test (a strict read has no defects, so the value is exactly what the bytes say)
            if (!Arrays.equals(Jcs.canonicalize(e), bytes)) {
                failures.add(new ChainFailure(ChainFailure.Kind.NOT_CANONICAL, line, "bytes are not the entry's RFC 8785 form"));
            }
            if (!envelope(e, line, failures)) {
                prevHash = hash;
                return new Step(hash, -1, failures);
            }
            if (e.get("v").asInt() != VERSION) {
                failures.add(new ChainFailure(ChainFailure.Kind.UNKNOWN_VERSION, line, "v " + e.get("v").asInt()));
            }
            if (!e.get("tenant").asText().equals(tenant)) {
                failures.add(new ChainFailure(ChainFailure.Kind.TENANT_MISMATCH, line, "entry of another tenant"));
            }
            long seq = e.get("seq").asLong();
            if (first < 0) {
                first = seq;
            }
            if (prevSeq != Long.MIN_VALUE) {
                if (seq > prevSeq + 1) {
                    failures.add(new ChainFailure(ChainFailure.Kind.SEQ_GAP, line, "seq " + seq + " after " + prevSeq));
                } else if (seq <= prevSeq) {
                    failures.add(new ChainFailure(ChainFailure.Kind.SEQ_REORDER, line, "seq " + seq + " after " + prevSeq));
                }
            }
            prevSeq = seq;
            String prev = e.get("prev").asText();
            if (prevHash != null && !prev.equals(hex.formatHex(prevHash))) {
                failures.add(new ChainFailure(ChainFailure.Kind.PREV_MISMATCH, line, "seq " + seq
                        + ": prev is not the hash of the entry before"));
            }
            prevHash = hash;
            return new Step(hash, seq, failures);
        }

        /** Seq of the first readable entry, -1 when none. */
        public long firstSeq() {
            return first;
        }

        /** Seq of the last readable entry, -1 when none. */
        public long lastSeq() {
            return prevSeq == Long.MIN_VALUE ? -1 : prevSeq;
        }
    }

    private static boolean envelope(JsonNode e, int line, List<ChainFailure> failures) {
        boolean ok = e.isObject();
        ok &= field(e, "v", e.path("v").isIntegralNumber(), line, failures);
        ok &= field(e, "tenant", e.path("tenant").isTextual(), line, failures);
        ok &= field(e, "seq", e.path("seq").isIntegralNumber() && e.path("seq").asLong() >= 0, line, failures);
        ok &= field(e, "ts", e.path("ts").isTextual(), line, failures);
        ok &= field(e, "kind", e.path("kind").isTextual(), line, failures);
        ok &= field(e, "prev", e.path("prev").isTextual() && HASH_HEX.matcher(e.path("prev").asText()).matches(), line, failures);
        return ok;
    }

    private static boolean field(JsonNode e, String name, boolean ok, int line, List<ChainFailure> failures) {
        if (!ok) {
            failures.add(new ChainFailure(ChainFailure.Kind.MISSING_FIELD, line, name + " missing or mistyped"));
        }
        return ok;
    }
}
