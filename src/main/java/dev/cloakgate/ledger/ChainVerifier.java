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

    /**
     * A chain being checked entry by entry; lines count from 1. Not thread-safe.
     *
     * <p>A line whose seq cannot be read (not strict JSON, or no valid {@code seq}) still stands for one entry: the
     * next readable seq is compared with the last readable one plus the unreadable lines between, so a malformed
     * entry is reported once, as itself, and not again as a gap after it. Whatever else of an entry's envelope
     * reads is checked even when another field is missing. {@code prev} is always compared with the hash of the
     * bytes on the line before, whatever they are: the chain is over bytes, and the gateway writes only canonical
     * entries, so the entry after a malformed one reports that it does not chain to those bytes.
     */
    public static final class Stream {
        private final String tenant;
        private final HexFormat hex = HexFormat.of();
        private byte[] prevHash;
        private long prevSeq = Long.MIN_VALUE;
        private long first = -1;
        private int firstLine;
        private int unreadSince; // lines since the last readable seq (or since the start) whose seq could not be read
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
                return unread(hash, failures);
            }
            JsonNode e = ((StrictJson.Parsed) read).value();
            // Jcs.isCanonical(bytes) would parse the bytes a second time: canonicalising the value just read from
            // them is the same test (a strict read has no defects, so the value is exactly what the bytes say)
            if (!Arrays.equals(Jcs.canonicalize(e), bytes)) {
                failures.add(new ChainFailure(ChainFailure.Kind.NOT_CANONICAL, line, "bytes are not the entry's RFC 8785 form"));
            }
            Envelope env = envelope(e, line, failures);
            if (env.version() != null && env.version() != VERSION) {
                failures.add(new ChainFailure(ChainFailure.Kind.UNKNOWN_VERSION, line, "v " + env.version()));
            }
            if (env.tenant() != null && !env.tenant().equals(tenant)) {
                failures.add(new ChainFailure(ChainFailure.Kind.TENANT_MISMATCH, line, "entry of another tenant"));
            }
            if (env.seq() == null) {
                prev(env, "line " + line, failures);
                return unread(hash, failures);
            }
            long seq = env.seq();
            if (first < 0) {
                first = seq;
                firstLine = line;
            }
            if (prevSeq != Long.MIN_VALUE) {
                String after = "seq " + seq + " after " + prevSeq
                        + (unreadSince > 0 ? " and " + unreadSince + " entries whose seq cannot be read" : "");
                if (seq > prevSeq + 1 + unreadSince) {
                    failures.add(new ChainFailure(ChainFailure.Kind.SEQ_GAP, line, after));
                } else if (seq <= prevSeq) {
                    failures.add(new ChainFailure(ChainFailure.Kind.SEQ_REORDER, line, after));
                }
                // between the two: some unreadable lines were extra lines, each already reported as itself
            }
            prevSeq = seq;
            unreadSince = 0;
            prev(env, "seq " + seq, failures);
            prevHash = hash;
            return new Step(hash, seq, failures);
        }

        private void prev(Envelope env, String which, List<ChainFailure> failures) {
            if (env.prev() != null && prevHash != null && !env.prev().equals(hex.formatHex(prevHash))) {
                failures.add(new ChainFailure(ChainFailure.Kind.PREV_MISMATCH, line, which + ": prev is not the hash of the entry before"));
            }
        }

        private Step unread(byte[] hash, List<ChainFailure> failures) {
            unreadSince++;
            prevHash = hash;
            return new Step(hash, -1, failures);
        }

        /** Seq of the first readable entry, -1 when none. */
        public long firstSeq() {
            return first;
        }

        /** Seq of the last readable entry, -1 when none. */
        public long lastSeq() {
            return prevSeq == Long.MIN_VALUE ? -1 : prevSeq;
        }

        /**
         * The seq the first line stands for: the first readable seq less the unreadable lines before it (-1 when no
         * seq was readable). What a range check compares, so an unreadable first entry is not also a range failure.
         */
        public long impliedFirstSeq() {
            return first < 0 ? -1 : first - (firstLine - 1);
        }

        /** The seq the last line stands for: the last readable seq plus the unreadable lines after it (-1 as above). */
        public long impliedLastSeq() {
            return prevSeq == Long.MIN_VALUE ? -1 : prevSeq + unreadSince;
        }
    }

    /** The envelope fields that read; null for each one missing or mistyped (and reported). */
    private record Envelope(Integer version, String tenant, Long seq, String prev) {
    }

    private static Envelope envelope(JsonNode e, int line, List<ChainFailure> failures) {
        boolean v = field(e, "v", e.path("v").isIntegralNumber() && e.path("v").canConvertToInt(), line, failures);
        boolean t = field(e, "tenant", e.path("tenant").isTextual(), line, failures);
        boolean s = field(e, "seq", e.path("seq").isIntegralNumber() && e.path("seq").canConvertToLong()
                && e.path("seq").asLong() >= 0, line, failures);
        field(e, "ts", e.path("ts").isTextual(), line, failures);
        field(e, "kind", e.path("kind").isTextual(), line, failures);
        boolean p = field(e, "prev", e.path("prev").isTextual() && HASH_HEX.matcher(e.path("prev").asText()).matches(), line, failures);
        return new Envelope(v ? e.get("v").asInt() : null, t ? e.get("tenant").asText() : null, s ? e.get("seq").asLong() : null,
                p ? e.get("prev").asText() : null);
    }

    private static boolean field(JsonNode e, String name, boolean ok, int line, List<ChainFailure> failures) {
        if (!ok) {
            failures.add(new ChainFailure(ChainFailure.Kind.MISSING_FIELD, line, name + " missing or mistyped"));
        }
        return ok;
    }
}
