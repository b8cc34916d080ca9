package dev.cloakgate.ledger;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import dev.cloakgate.crypto.Checkpoint;
import dev.cloakgate.crypto.NoteSigner;
import dev.cloakgate.crypto.SignedNote;
import dev.cloakgate.ledger.LedgerStore.StoredCheckpoint;

/**
 * Exports entries {@code fromSeq..toSeq} of one tenant's ledger as a self-contained zip that
 * {@link BundleVerifier} checks offline with nothing but the trusted keys. Parts, in this order:
 * {@code entries.jsonl} (each entry's exact stored bytes and a newline), {@code checkpoints/<size>.note} (the
 * signed checkpoints in the range, the latest one before it as an anchor to an earlier export, and a fresh one
 * for the last entry when none is stored), {@code proofs.json} ({@link BundleProofs}) and last
 * {@code manifest.note} ({@link BundleManifest}, signed).
 *
 * <p>Works on a read-only store beside the running gateway. Entries are streamed in batches; the one thing held
 * for the whole range is the leaf hashes of entries 0..toSeq (32 bytes each, 32 MB for a million) for the
 * proofs.
 */
public final class BundleWriter {
    // entries per read: bounds the memory an export takes whatever the range
    private static final int READ_BATCH = 4096;
    private static final int HASH_BATCH = 1 << 16;
    private static final HexFormat HEX = HexFormat.of();

    @FunctionalInterface
    private interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Writes the bundle to {@code out}, which is left open: a checkpoint made here is signed by the log's checkpoint
     * key, the manifest by its manifest key. Throws {@link IllegalArgumentException}, saying the valid range, when
     * the range is not {@code 0 <= fromSeq <= toSeq <= lastSeq}.
     */
    public void write(LedgerStore store, long fromSeq, long toSeq, LogKeys keys, Clock clock, OutputStream out)
            throws IOException {
        store.refresh();
        long last = store.lastSeq();
        if (last < 0) {
            throw new IllegalArgumentException("the ledger of tenant '" + store.tenant() + "' is empty; there is nothing to export");
        }
        if (fromSeq < 0 || fromSeq > toSeq || toSeq > last) {
            throw new IllegalArgumentException("cannot export entries " + fromSeq + ".." + toSeq + " of tenant '"
                    + store.tenant() + "': the range must satisfy 0 <= from <= to <= " + last);
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        String origin = keys.origin();

        InMemoryLeafSource leaves = leaves(store, toSeq);
        MerkleProofs merkle = new MerkleProofs(leaves);
        List<StoredCheckpoint> checkpoints = checkpoints(store, fromSeq, toSeq, keys.checkpoint(), origin, merkle);
        BundleProofs proofs = new BundleProofs(fromSeq, prefix(leaves, fromSeq), consistency(checkpoints, merkle));

        ZipOutputStream zip = new ZipOutputStream(out, StandardCharsets.UTF_8);
        List<BundleManifest.Part> parts = new ArrayList<>();
        parts.add(part(zip, BundleLayout.ENTRIES, now, s -> entries(store, fromSeq, toSeq, s)));
        for (StoredCheckpoint c : checkpoints) {
            parts.add(part(zip, BundleLayout.checkpointPart(c.size()), now, s -> s.write(c.note())));
        }
        byte[] proofsJson = proofs.json();
        parts.add(part(zip, BundleLayout.PROOFS, now, s -> s.write(proofsJson)));
        BundleManifest manifest = new BundleManifest(BundleManifest.FORMAT, store.tenant(), origin, fromSeq, toSeq,
                DateTimeFormatter.ISO_INSTANT.format(now), parts);
        byte[] note = SignedNote.sign(manifest.text(), List.of(keys.manifest())).getBytes(StandardCharsets.UTF_8);
        part(zip, BundleLayout.MANIFEST, now, s -> s.write(note));
        zip.finish();
        out.flush();
    }

    // every leaf hash up to toSeq, in bulk reads: the proofs need the tree from entry 0
    private static InMemoryLeafSource leaves(LedgerStore store, long toSeq) {
        TreeHasher hasher = new TreeHasher();
        InMemoryLeafSource leaves = new InMemoryLeafSource();
        for (long from = 0; from <= toSeq; from += HASH_BATCH) {
            for (byte[] entryHash : store.hashes(from, Math.min(toSeq, from + HASH_BATCH - 1))) {
                leaves.add(hasher.leaf(entryHash));
            }
        }
        return leaves;
    }

    /**
     * The anchor (latest stored checkpoint at or below fromSeq), every stored one covering an entry of the range,
     * and a new one at toSeq + 1 when none is stored there, so the last entry is always under a signature.
     */
    private static List<StoredCheckpoint> checkpoints(LedgerStore store, long fromSeq, long toSeq, NoteSigner signer,
            String origin, MerkleProofs merkle) {
        List<StoredCheckpoint> out = new ArrayList<>();
        if (fromSeq > 0) {
            List<StoredCheckpoint> before = store.checkpoints(1, fromSeq);
            if (!before.isEmpty()) {
                out.add(before.get(before.size() - 1));
            }
        }
        List<StoredCheckpoint> in = store.checkpoints(fromSeq + 1, toSeq + 1);
        out.addAll(in);
        if (in.isEmpty() || in.get(in.size() - 1).size() != toSeq + 1) {
            String text = new Checkpoint(origin, toSeq + 1, merkle.root(toSeq + 1)).text();
            out.add(new StoredCheckpoint(toSeq + 1, SignedNote.sign(text, List.of(signer)).getBytes(StandardCharsets.UTF_8)));
        }
        return out;
    }

    private static List<byte[]> prefix(InMemoryLeafSource leaves, long fromSeq) {
        MerkleTree tree = new MerkleTree();
        for (long i = 0; i < fromSeq; i++) {
            tree.appendLeafHash(leaves.leafHash(i));
        }
        return tree.frontier();
    }

    private static List<BundleProofs.Consistency> consistency(List<StoredCheckpoint> checkpoints, MerkleProofs merkle) {
        List<BundleProofs.Consistency> out = new ArrayList<>();
        for (int i = 1; i < checkpoints.size(); i++) {
            long m = checkpoints.get(i - 1).size();
            long n = checkpoints.get(i).size();
            out.add(new BundleProofs.Consistency(m, n, merkle.consistencyProof(m, n)));
        }
        return out;
    }

    private static void entries(LedgerStore store, long fromSeq, long toSeq, OutputStream part) throws IOException {
        // buffered: a newline a write would go to the deflater one byte at a time
        BufferedOutputStream out = new BufferedOutputStream(part, 1 << 16);
        for (long from = fromSeq; from <= toSeq; from += READ_BATCH) {
            for (byte[] entry : store.read(from, Math.min(toSeq, from + READ_BATCH - 1))) {
                out.write(entry);
                out.write('\n');
            }
        }
        out.flush();
    }

    private static BundleManifest.Part part(ZipOutputStream zip, String name, Instant time, Body body) throws IOException {
        ZipEntry entry = new ZipEntry(name);
        entry.setTime(time.toEpochMilli()); // the same instant as the manifest's, so a bundle's bytes are reproducible
        zip.putNextEntry(entry);
        Measured m = new Measured(zip);
        body.writeTo(m);
        m.flush();
        zip.closeEntry();
        return new BundleManifest.Part(name, m.count, HEX.formatHex(m.digest.digest()));
    }

    /** Counts and hashes what passes through to the zip, without closing it. */
    private static final class Measured extends FilterOutputStream {
        private final MessageDigest digest;
        private long count;

        Measured(OutputStream out) {
            super(out);
            try {
                digest = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java platform has SHA-256", e);
            }
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            digest.update((byte) b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            digest.update(b, off, len);
            count += len;
        }
    }
}
