package dev.cloakgate.ledger;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import dev.cloakgate.crypto.Checkpoint;
import dev.cloakgate.crypto.Jcs;
import dev.cloakgate.crypto.StrictJson;

/**
 * Issue 15, {@code ledger verify NEW --previous OLD}: that an export extends the auditor's previous export of the same
 * log. Both must verify on their own first. Then, with M the previous export's end (its {@code to_seq + 1}, where it
 * holds a signed checkpoint):
 * <ul>
 * <li>every tree size both exports hold a checkpoint of has one root in both ({@code previous_fork} otherwise: two
 * signed, different trees of one size are a split view);</li>
 * <li>the new export's tree at size M is the previous one's signed root ({@code previous_not_prefix}). The new export
 * holds the Merkle frontier of the entries before its {@code from_seq} and its entries, from which its own
 * verification recomputed its signed roots; the root at M is computed from the same frontier and entries (when
 * {@code from_seq} is M, it is the frontier's own root). That frontier and those entries are the consistency proof
 * from the old signed size to every later signed size: nothing beyond a {@code from_seq} export is needed;</li>
 * <li>where the ranges abut, the new first entry's {@code prev} is the hash of the previous last entry
 * ({@code previous_prev_mismatch}); where they overlap, the entries both hold are the same bytes
 * ({@code previous_entry_mismatch});</li>
 * <li>no entry is in neither ({@code previous_gap}: the new export starts after M) and the new export reaches at least
 * as far ({@code previous_not_extended}); both are of one log ({@code previous_log_mismatch}: tenant or origin).</li>
 * </ul>
 * Entries are streamed, as in {@link BundleVerifier}; the two exports are read once more each, after their own
 * verification, and hashed before and after it.
 */
final class PreviousExport {
    private static final HexFormat HEX = HexFormat.of();

    private final TrustedKeys trusted;

    PreviousExport(TrustedKeys trusted) {
        this.trusted = trusted;
    }

    /**
     * Verifies {@code file} with {@code verifier}, and that it extends {@code previous}. The previous export must verify
     * on its own; the link is checked when both do (a link from an invalid export proves nothing, and its failures are
     * reported already). The link reads the two verified files again, so each is hashed before and after: a file
     * that changed on disk meanwhile is a failure, never a link proved from bytes that were not verified.
     *
     * @throws IOException when either file cannot be read at all (missing, no permission)
     */
    VerifyReport verify(BundleVerifier verifier, Path file, Path previous) throws IOException {
        byte[] fileBefore = digest(file);
        byte[] previousBefore = digest(previous);
        VerifyReport report = verifier.verify(file);
        List<VerifyReport.Failure> found = new ArrayList<>(link(file, report.valid(), previous));
        if (!MessageDigest.isEqual(previousBefore, digest(previous))) {
            found.add(failure("previous_invalid", null, null, null, "the previous export changed on disk while it was verified"));
        }
        if (!MessageDigest.isEqual(fileBefore, digest(file))) {
            found.add(failure("unreadable_bundle", null, null, null, "the export changed on disk while it was verified"));
        }
        return report.withFailures(found);
    }

    private List<VerifyReport.Failure> link(Path current, boolean currentValid, Path previous) throws IOException {
        VerifyReport old = new BundleVerifier(trusted).verify(previous);
        if (!old.valid()) {
            return List.of(failure("previous_invalid", null, null, null, "the previous export does not verify on its own ("
                    + String.join(", ", old.checks()) + "): ledger verify it alone to see why"));
        }
        if (!currentValid) {
            return List.of();
        }
        try (Read o = new Read(previous); Read n = new Read(current)) {
            return new Link(o, n).check();
        } catch (IllegalStateException | IllegalArgumentException e) {
            // both verified a moment ago: a part that no longer reads changed on disk since (reported by the caller)
            return List.of();
        }
    }

    private static byte[] digest(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new java.nio.file.NoSuchFileException(file.toString(), null, "no such bundle file");
        }
        MessageDigest sha = sha256();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0;) {
                sha.update(buf, 0, n);
            }
        }
        return sha.digest();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private static VerifyReport.Failure failure(String check, String part, Long seq, Long size, String detail) {
        return new VerifyReport.Failure(check, part, null, seq, size, detail);
    }

    /** The comparison of one verified pair. */
    private static final class Link {
        private final Read old;
        private final Read cur;
        private final List<VerifyReport.Failure> failures = new ArrayList<>();

        Link(Read old, Read cur) {
            this.old = old;
            this.cur = cur;
        }

        List<VerifyReport.Failure> check() throws IOException {
            BundleManifest o = old.manifest;
            BundleManifest n = cur.manifest;
            if (!o.tenant().equals(n.tenant()) || !o.origin().equals(n.origin())) {
                failures.add(failure("previous_log_mismatch", BundleLayout.MANIFEST, null, null, "the previous export is of log "
                        + o.origin() + " (tenant " + o.tenant() + "), this one of " + n.origin() + " (tenant " + n.tenant() + ")"));
                return failures;
            }
            for (Map.Entry<Long, byte[]> c : old.roots.entrySet()) {
                byte[] root = cur.roots.get(c.getKey());
                if (root != null && !MessageDigest.isEqual(root, c.getValue())) {
                    failures.add(failure("previous_fork", BundleLayout.checkpointPart(c.getKey()), null, c.getKey(),
                            "both exports hold a signed checkpoint at this tree size, with different roots: the log was"
                                    + " shown two different histories"));
                }
            }
            long end = o.toSeq() + 1; // the previous export's last checkpoint, which a valid export always holds
            if (n.toSeq() < o.toSeq()) {
                failures.add(failure("previous_not_extended", BundleLayout.MANIFEST, n.toSeq(), null, "this export ends at seq "
                        + n.toSeq() + ", before the previous one's last seq " + o.toSeq() + " (are the two given the right way round?)"));
            }
            if (n.fromSeq() > end) {
                failures.add(failure("previous_gap", BundleLayout.MANIFEST, n.fromSeq(), null, "entries " + end + ".."
                        + (n.fromSeq() - 1) + " are in neither export: export from_seq=" + end + " to link them"));
                return failures;
            }
            entries(end);
            return failures;
        }

        // one pass over the new entries: the overlap against the previous ones, the new tree up to the old end
        private void entries(long end) throws IOException {
            BundleManifest o = old.manifest;
            BundleManifest n = cur.manifest;
            MerkleTree tree = MerkleTree.fromFrontier(cur.proofs.prefixSize(), cur.proofs.prefixHashes());
            byte[] rootAtEnd = tree.size() == end ? tree.root() : null;
            long overlapTo = Math.min(o.toSeq(), n.toSeq());
            long differing = 0;
            long firstDiffering = -1;
            byte[] first = null;
            try (Lines newLines = cur.lines(); Lines oldLines = old.lines()) {
                long oldSeq = o.fromSeq() - 1;
                byte[] oldLine = null;
                long seq = n.fromSeq();
                for (byte[] line; (line = newLines.next()) != null; seq++) {
                    if (first == null) {
                        first = line;
                    }
                    if (seq >= o.fromSeq() && seq <= o.toSeq()) {
                        while (oldSeq < seq) {
                            oldLine = oldLines.next();
                            oldSeq++;
                        }
                        if (!Arrays.equals(line, oldLine)) {
                            differing++;
                            firstDiffering = firstDiffering < 0 ? seq : firstDiffering;
                        }
                    }
                    if (tree.size() < end) {
                        tree.append(EntryHash.of(line));
                        if (tree.size() == end) {
                            rootAtEnd = tree.root();
                        }
                    }
                    if (tree.size() >= end && seq >= overlapTo) {
                        break; // nothing further is compared
                    }
                }
                if (n.fromSeq() == end) {
                    abut(first, oldLines, oldSeq, oldLine);
                }
            }
            if (differing > 0) {
                failures.add(failure("previous_entry_mismatch", BundleLayout.ENTRIES, firstDiffering, null, differing
                        + " of the entries both exports hold differ, the first at seq " + firstDiffering));
            }
            if (rootAtEnd != null && !MessageDigest.isEqual(rootAtEnd, old.roots.get(end))) {
                failures.add(failure("previous_not_prefix", BundleLayout.PROOFS, null, end, "this export's tree at size " + end
                        + " (from its prefix and entries) is not the previous export's signed tree of that size: the"
                        + " previous entries are not the start of this log"));
            }
        }

        // ranges that abut: the new first entry chains to the previous last one
        private void abut(byte[] first, Lines oldLines, long oldSeq, byte[] oldLine) throws IOException {
            byte[] last = oldLine;
            for (byte[] l; oldSeq < old.manifest.toSeq() && (l = oldLines.next()) != null; oldSeq++) {
                last = l;
            }
            String prev = first == null || !(Jcs.parseStrict(first) instanceof StrictJson.Parsed p) ? null
                    : p.value().path("prev").asText(null);
            if (last == null || prev == null || !prev.equals(HEX.formatHex(EntryHash.of(last)))) {
                failures.add(failure("previous_prev_mismatch", BundleLayout.ENTRIES, cur.manifest.fromSeq(), null, "seq "
                        + cur.manifest.fromSeq() + ": prev is not the hash of the previous export's last entry, seq "
                        + old.manifest.toSeq()));
            }
        }
    }

    /**
     * What a verified export says: its manifest, proofs and checkpoint roots by tree size, and its entry lines. Its
     * signatures were checked by its verification (under whatever trust that followed) and the file is the same
     * bytes (hashed before and after), so the notes' texts are read without checking them again.
     */
    private static final class Read implements Closeable {
        final ZipFile zip;
        final BundleManifest manifest;
        final BundleProofs proofs;
        final TreeMap<Long, byte[]> roots = new TreeMap<>();

        Read(Path file) throws IOException {
            zip = new ZipFile(file.toFile());
            try {
                manifest = BundleManifest.parse(text(BundleLayout.MANIFEST));
                proofs = BundleProofs.parse(bytes(BundleLayout.PROOFS));
                for (ZipEntry e : zip.stream().toList()) {
                    if (BundleLayout.checkpointSize(e.getName()) >= 0
                            && Checkpoint.parse(text(e.getName())) instanceof Checkpoint.Parse.Ok ok) {
                        roots.put(ok.checkpoint().size(), ok.checkpoint().rootHash());
                    }
                }
            } catch (IOException | RuntimeException e) {
                zip.close();
                throw e;
            }
        }

        private byte[] bytes(String part) throws IOException {
            ZipEntry e = zip.getEntry(part);
            if (e == null) {
                throw new IllegalStateException(part + " is gone");
            }
            try (InputStream in = zip.getInputStream(e)) {
                return in.readAllBytes();
            }
        }

        // a signed note's text: everything up to the blank line before the signatures
        private String text(String part) throws IOException {
            String whole = new String(bytes(part), StandardCharsets.UTF_8);
            int split = whole.lastIndexOf("\n\n");
            if (split < 0) {
                throw new IllegalStateException(part + " is no longer a signed note");
            }
            return whole.substring(0, split + 1);
        }

        Lines lines() throws IOException {
            ZipEntry e = zip.getEntry(BundleLayout.ENTRIES);
            if (e == null) {
                throw new IllegalStateException(BundleLayout.ENTRIES + " is gone");
            }
            return new Lines(zip.getInputStream(e));
        }

        @Override
        public void close() throws IOException {
            zip.close();
        }
    }

    /** entries.jsonl line by line, without the newlines (a verified part: every line ends in one). */
    private static final class Lines implements Closeable {
        private final InputStream in;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        Lines(InputStream in) {
            this.in = new BufferedInputStream(in, 1 << 16);
        }

        byte[] next() throws IOException {
            line.reset();
            for (int b; (b = in.read()) >= 0;) {
                if (b == '\n') {
                    return line.toByteArray();
                }
                line.write(b);
            }
            return null;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
