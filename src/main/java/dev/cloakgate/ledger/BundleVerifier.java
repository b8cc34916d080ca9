package dev.cloakgate.ledger;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

import dev.cloakgate.crypto.Checkpoint;
import dev.cloakgate.crypto.Jcs;
import dev.cloakgate.crypto.JsonDefect;
import dev.cloakgate.crypto.NoteVerification;
import dev.cloakgate.crypto.SignedNote;
import dev.cloakgate.crypto.StrictJson;

/**
 * Checks an export bundle ({@link BundleWriter}) offline, with nothing but the file and the trusted keys: the
 * manifest's signature and digests, the hash chain of every entry, each checkpoint's signature, origin and root
 * (recomputed from the bundled prefix frontier and entries), that the last entry is under a valid checkpoint,
 * and the consistency proofs that link successive checkpoints (the anchor to an earlier export included).
 *
 * <p>Every failure is reported, not only the first: an auditor needs the whole picture. Entries are streamed;
 * only the roots at checkpoint sizes are kept, so a million-entry bundle verifies in a small heap.
 */
public final class BundleVerifier {
    // caps on what is read into memory from parts other than the entries: a bundle comes from outside
    private static final long MAX_NOTE_BYTES = 1 << 20;
    private static final long MAX_PROOFS_BYTES = 256L << 20;
    private static final int MAX_ENTRY_BYTES = 16 << 20;
    private static final HexFormat HEX = HexFormat.of();

    private final TrustedKeys trusted;
    private final LogPins pins;

    public BundleVerifier(TrustedKeys trusted) {
        this(trusted, LogPins.NONE, null);
    }

    /** Issue 15: with the tenant and origin the auditor expects (a genuine export of another log is invalid). */
    public BundleVerifier(TrustedKeys trusted, LogPins pins) {
        this(trusted, pins, null);
    }

    // ---- issue 15, witness cosignatures ----
    private final WitnessCosignatures witnesses;

    /** @param witnesses the pinned witnesses and how many must cosign the last checkpoint; null for no requirement */
    public BundleVerifier(TrustedKeys trusted, WitnessCosignatures witnesses) {
        this(trusted, LogPins.NONE, witnesses);
    }

    /** Issue 15: the log pinned ({@link LogPins#NONE} for none) and the witnesses required (null for none). */
    public BundleVerifier(TrustedKeys trusted, LogPins pins, WitnessCosignatures witnesses) {
        this.trusted = trusted;
        this.pins = pins;
        this.witnesses = witnesses;
    }
    // ---- end issue 15 ----

    /**
     * Verifies the bundle at {@code file}. Throws {@link IOException} only when the file cannot be read at all
     * (missing, no permission); a file that is not a valid bundle is a report with failures.
     */
    public VerifyReport verify(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new NoSuchFileException(file.toString(), null, "no such bundle file");
        }
        if (!Files.isReadable(file)) {
            throw new IOException(file + ": not readable");
        }
        Run run = new Run();
        ZipFile zip;
        try {
            zip = new ZipFile(file.toFile());
        } catch (ZipException e) {
            run.fail("unreadable_bundle", null, "not a zip archive: " + e.getMessage());
            return run.report();
        }
        try (zip) {
            run.verify(zip);
        }
        return run.report();
    }

    // ---- issue 15, ledger-checks: ledger verify NEW --previous OLD ----
    /**
     * Verifies {@code file} and that it extends {@code previous}, the auditor's earlier export of the same log
     * ({@link PreviousExport}): the previous export must verify on its own, and the link is checked when both do.
     * Throws {@link IOException} when either file cannot be read at all.
     */
    public VerifyReport verify(Path file, Path previous) throws IOException {
        return new PreviousExport(trusted).verify(this, file, previous);
    }
    // ---- end of issue 15, ledger-checks ----

    /** A checkpoint as read from its part; {@code valid} when trusted-signed, well formed and of this origin. */
    private record ReadCheckpoint(String part, long size, byte[] root, boolean valid) {
    }

    private record Measured(long bytes, String sha256) {
    }

    /** One verification's state: what has been read so far and every failure found. */
    private final class Run {
        private final List<VerifyReport.Failure> failures = new ArrayList<>();
        private final Map<String, ZipEntry> parts = new LinkedHashMap<>();
        private final Map<String, Measured> measured = new HashMap<>();
        private final TreeMap<Long, ReadCheckpoint> checkpoints = new TreeMap<>();
        private final Map<Long, byte[]> roots = new HashMap<>();
        private BundleManifest manifest;
        private BundleProofs proofs;
        private String tenant;
        // ---- issue 15, log identity: the log verified, and the keys trusted after followed rotations ----
        private String origin;
        private TrustedKeys trust = trusted;
        private RotationTrust.Outcome followed;
        private List<RotationTrust.Followed> rotations = List.of();
        // ---- end issue 15 ----
        private long entries;
        private long endSize = -1; // tree size after the last bundled entry, -1 when unknown

        void verify(ZipFile zip) {
            inventory(zip);
            // ---- issue 15: rotations endorsed by a trusted key extend trust before any signature is checked ----
            followed = RotationTrust.scan(zip, parts.get(BundleLayout.ENTRIES), trusted);
            trust = followed.trusted();
            rotations = followed.followed();
            failures.addAll(followed.failures());
            // ---- end issue 15 ----
            manifest(zip);
            proofs(zip);
            checkpoints(zip);
            entries(zip);
            roots();
            coverage();
            consistency();
            digests();
            // ---- issue 15, witness cosignatures ----
            if (witnesses != null) {
                List<WitnessCosignatures.Note> notes = new ArrayList<>();
                for (ReadCheckpoint c : checkpoints.values()) {
                    byte[] note = read(zip, c.part(), MAX_NOTE_BYTES);
                    if (note != null) {
                        notes.add(new WitnessCosignatures.Note(c.part(), c.size(), note));
                    }
                }
                witnessSummary = witnesses.check(notes, failures);
            }
            // ---- end issue 15 ----
            failures.addAll(pins.check(tenant, origin)); // issue 15: the log the auditor pinned
        }

        private WitnessCosignatures.Summary witnessSummary; // issue 15

        VerifyReport report() {
            return new VerifyReport(manifest == null ? null : manifest.tenant(), manifest == null ? null : manifest.fromSeq(),
                    manifest == null ? null : manifest.toSeq(), entries, checkpoints.size(), trust.ids(), failures,
                    origin, pins.pinned(), rotations.stream().map(r -> new VerifyReport.Rotation(r.seq(), r.fromKey(),
                            r.toKey())).toList(), witnessSummary);
        }

        void fail(String check, String part, String detail) {
            failures.add(new VerifyReport.Failure(check, part, null, null, null, detail));
        }

        void failAtSize(String check, String part, long size, String detail) {
            failures.add(new VerifyReport.Failure(check, part, null, null, size, detail));
        }

        // the parts: exactly the known names, once each
        private void inventory(ZipFile zip) {
            Set<String> seen = new HashSet<>();
            zip.stream().forEach(e -> {
                String name = e.getName();
                if (!seen.add(name)) {
                    fail("unreadable_bundle", name, "part appears more than once");
                } else if (e.isDirectory() || !known(name)) {
                    fail("unreadable_bundle", name, "unknown part");
                } else {
                    parts.put(name, e);
                }
            });
            for (String required : List.of(BundleLayout.ENTRIES, BundleLayout.PROOFS, BundleLayout.MANIFEST)) {
                if (!parts.containsKey(required)) {
                    fail("unreadable_bundle", required, "required part is missing");
                }
            }
        }

        private boolean known(String name) {
            return name.equals(BundleLayout.ENTRIES) || name.equals(BundleLayout.PROOFS) || name.equals(BundleLayout.MANIFEST)
                    || BundleLayout.checkpointSize(name) >= 0;
        }

        private void manifest(ZipFile zip) {
            byte[] note = read(zip, BundleLayout.MANIFEST, MAX_NOTE_BYTES);
            if (note == null) {
                return;
            }
            String text = open(BundleLayout.MANIFEST, note, "manifest_malformed", "manifest_signature_invalid");
            if (text == null) {
                return;
            }
            try {
                manifest = BundleManifest.parse(text);
                tenant = manifest.tenant();
                origin = manifest.origin();
                CanonicalParts.manifest(text).ifPresent(failures::add); // issue 15, ledger-checks: the one byte form
            } catch (IllegalArgumentException e) {
                fail("manifest_malformed", BundleLayout.MANIFEST, e.getMessage());
            }
        }

        private void proofs(ZipFile zip) {
            byte[] bytes = read(zip, BundleLayout.PROOFS, MAX_PROOFS_BYTES);
            if (bytes == null) {
                return;
            }
            try {
                proofs = BundleProofs.parse(bytes);
            } catch (IllegalArgumentException e) {
                fail("proofs_malformed", BundleLayout.PROOFS, e.getMessage());
                return;
            }
            CanonicalParts.proofs(bytes).ifPresent(failures::add); // issue 15, ledger-checks: the one byte form
            if (manifest != null && proofs.prefixSize() != manifest.fromSeq()) {
                fail("range_mismatch", BundleLayout.PROOFS, "the prefix covers " + proofs.prefixSize()
                        + " entries but the manifest's from_seq is " + manifest.fromSeq());
            }
        }

        private void checkpoints(ZipFile zip) {
            for (String part : parts.keySet()) {
                long named = BundleLayout.checkpointSize(part);
                if (named < 0) {
                    continue;
                }
                byte[] note = read(zip, part, MAX_NOTE_BYTES);
                if (note == null) {
                    continue;
                }
                int before = failures.size();
                String text = open(part, note, "checkpoint_malformed", "checkpoint_signature_invalid");
                if (text == null) {
                    continue;
                }
                Checkpoint.Parse parsed = Checkpoint.parse(text);
                if (parsed instanceof Checkpoint.Parse.Malformed m) {
                    fail("checkpoint_malformed", part, String.join("; ", m.reasons()));
                    continue;
                }
                Checkpoint c = ((Checkpoint.Parse.Ok) parsed).checkpoint();
                if (c.size() != named) {
                    failAtSize("checkpoint_malformed", part, c.size(), "the part's name says tree size " + named);
                    continue;
                }
                if (origin == null) { // the manifest did not say: the first checkpoint names the log
                    origin = c.origin();
                    tenant = tenant != null ? tenant : BundleLayout.tenantOf(origin);
                }
                if (!c.origin().equals(origin) || tenant != null && !BundleLayout.isOriginOf(origin, tenant)) {
                    failAtSize("checkpoint_origin_mismatch", part, c.size(), "origin is not " + origin);
                }
                if (c.size() == 0 || manifest != null && c.size() > manifest.toSeq() + 1) {
                    failAtSize("checkpoint_out_of_range", part, c.size(), manifest == null ? "a checkpoint of the empty tree"
                            : "covers more than the entries up to to_seq " + manifest.toSeq());
                }
                checkpoints.put(c.size(), new ReadCheckpoint(part, c.size(), c.rootHash(), failures.size() == before));
            }
        }

        /**
         * Opens a signed note against the trusted keys and maps what is wrong with it to this part's checks. Returns
         * the text even when the signature fails (for the checks that follow, which stay useful), null when there is
         * no text to read.
         */
        private String open(String part, byte[] note, String malformed, String badSignature) {
            // ---- issue 15: only a key for this part's purpose and log counts (KeyPurpose) ----
            List<dev.cloakgate.crypto.NoteVerifier> any = trust.verifiersFor(note);
            long named = BundleLayout.checkpointSize(part);
            if (named >= 0 && followed != null) {
                any = followed.inForce(any, named); // a key a rotation endorsed signs only what covers the rotation
            }
            List<dev.cloakgate.crypto.NoteVerifier> inForce = any;
            List<dev.cloakgate.crypto.NoteVerifier> fit = part.equals(BundleLayout.MANIFEST)
                    ? KeyPurpose.forManifest(any, note) : KeyPurpose.forCheckpoint(any, note);
            if (fit.size() < any.size()) {
                fail("key_purpose_mismatch", part, "signed by trusted key " + inForce.stream().filter(k -> !fit.contains(k))
                        .map(k -> k.name() + " " + k.keyId()).toList() + ", which does not sign this part of this log");
            }
            // ---- end issue 15 ----
            NoteVerification v = SignedNote.open(note, fit);
            if (v instanceof NoteVerification.Verified ok) {
                return ok.text();
            }
            List<String> unknown = new ArrayList<>();
            boolean unreadable = false;
            for (NoteVerification.Problem p : ((NoteVerification.Rejected) v).problems()) {
                switch (p.kind()) {
                    case MALFORMED, TOO_MANY_SIGNATURES -> {
                        fail(malformed, part, p.detail());
                        unreadable = true;
                    }
                    case BAD_SIGNATURE -> fail(badSignature, part, "a trusted key's signature does not verify: " + p.detail());
                    case UNKNOWN_KEY -> unknown.add(p.detail());
                    case NO_TRUSTED_SIGNATURE -> fail("untrusted_key", part, unknown.isEmpty()
                            ? "no trusted key signed it" : "signed only by keys not trusted here: " + String.join(", ", unknown));
                }
            }
            if (unreadable) {
                return null;
            }
            String whole = new String(note, StandardCharsets.UTF_8);
            int split = whole.lastIndexOf("\n\n");
            return split < 0 ? null : whole.substring(0, split + 1);
        }

        // streams entries.jsonl through the chain checks and the tree, keeping only the roots checkpoints need
        private void entries(ZipFile zip) {
            ZipEntry part = parts.get(BundleLayout.ENTRIES);
            if (part == null) {
                return;
            }
            long from = manifest != null ? manifest.fromSeq() : proofs != null ? proofs.prefixSize() : -1;
            MerkleTree tree = proofs == null ? null : MerkleTree.fromFrontier(proofs.prefixSize(), proofs.prefixHashes());
            ChainVerifier.Stream chain = null;
            if (tree != null && checkpoints.containsKey(tree.size())) {
                roots.put(tree.size(), tree.root()); // an anchor at exactly from_seq checks the prefix itself
            }
            MessageDigest sha = sha256();
            long bytes = 0;
            try (InputStream in = new DigestInputStream(zip.getInputStream(part), sha)) {
                ByteArrayOutputStream line = new ByteArrayOutputStream();
                boolean tooLong = false;
                byte[] buf = new byte[1 << 16];
                int n;
                while ((n = in.read(buf)) > 0) {
                    bytes += n;
                    int start = 0;
                    for (int i = 0; i <= n; i++) {
                        if (i < n && buf[i] != '\n') {
                            continue;
                        }
                        int len = Math.min(i - start, MAX_ENTRY_BYTES - line.size());
                        line.write(buf, start, len);
                        tooLong |= len < i - start;
                        if (i < n) {
                            chain = entry(line.toByteArray(), tooLong, chain, from, tree);
                            line.reset();
                            tooLong = false;
                        }
                        start = i + 1;
                    }
                }
                if (line.size() > 0) {
                    chain = entry(line.toByteArray(), tooLong, chain, from, tree);
                    failures.add(new VerifyReport.Failure("entry_malformed", BundleLayout.ENTRIES, entries, null, null,
                            "the last line does not end in a newline"));
                }
            } catch (IOException e) {
                fail("unreadable_bundle", BundleLayout.ENTRIES, "cannot read: " + e.getMessage());
                return;
            }
            measured.put(BundleLayout.ENTRIES, new Measured(bytes, HEX.formatHex(sha.digest())));
            endSize = tree != null ? tree.size() : from >= 0 ? from + entries : -1;
            ranges(chain);
        }

        private ChainVerifier.Stream entry(byte[] bytes, boolean tooLong, ChainVerifier.Stream chain, long from, MerkleTree tree) {
            entries++;
            if (tooLong) {
                failures.add(new VerifyReport.Failure("entry_malformed", BundleLayout.ENTRIES, entries, null, null,
                        "line longer than " + MAX_ENTRY_BYTES + " bytes"));
            }
            if (chain == null) {
                chain = new ChainVerifier().start(tenant != null ? tenant : tenantOf(bytes), from == 0 ? EntryHash.GENESIS : null);
            }
            ChainVerifier.Step step = chain.add(bytes);
            boolean defectsReported = false;
            for (ChainFailure f : step.failures()) {
                if (f.kind() == ChainFailure.Kind.MALFORMED_ENTRY) {
                    if (!defectsReported) {
                        defects(bytes);
                        defectsReported = true;
                    }
                } else {
                    failures.add(new VerifyReport.Failure(check(f.kind()), BundleLayout.ENTRIES, entries,
                            step.seq() < 0 ? null : step.seq(), null, f.detail()));
                }
            }
            if (tree != null) {
                tree.append(step.hash());
                if (checkpoints.containsKey(tree.size())) {
                    roots.put(tree.size(), tree.root());
                }
            }
            return chain;
        }

        // the JSON defects by kind only: a defect's pointer would quote member names from the entry
        private void defects(byte[] bytes) {
            if (Jcs.parseStrict(bytes) instanceof StrictJson.Rejected r) {
                for (JsonDefect d : r.defects()) {
                    String where = d.where().startsWith("char ") || d.where().startsWith("byte ") ? " at " + d.where() : "";
                    failures.add(new VerifyReport.Failure("entry_malformed", BundleLayout.ENTRIES, entries, null, null,
                            d.kind().name().toLowerCase(java.util.Locale.ROOT) + where));
                }
            }
        }

        private static String check(ChainFailure.Kind kind) {
            return switch (kind) {
                case MALFORMED_ENTRY -> "entry_malformed";
                case NOT_CANONICAL -> "entry_not_canonical";
                case MISSING_FIELD -> "entry_missing_field";
                case UNKNOWN_VERSION -> "entry_unknown_version";
                case TENANT_MISMATCH -> "tenant_mismatch";
                case SEQ_GAP -> "seq_gap";
                case SEQ_REORDER -> "seq_reorder";
                case PREV_MISMATCH -> "prev_mismatch";
            };
        }

        // with no manifest to say whose entries these are, the first entry names the tenant the rest must match
        private String tenantOf(byte[] first) {
            if (Jcs.parseStrict(first) instanceof StrictJson.Parsed p && p.value().path("tenant").isTextual()) {
                tenant = p.value().get("tenant").asText();
                return tenant;
            }
            return "";
        }

        private void ranges(ChainVerifier.Stream chain) {
            if (entries == 0) {
                fail("range_mismatch", BundleLayout.ENTRIES, "holds no entries");
                return;
            }
            if (manifest == null || chain == null || chain.firstSeq() < 0) {
                return;
            }
            long want = manifest.toSeq() - manifest.fromSeq() + 1;
            // an unreadable first or last line stands for its seq (issue 15): it is reported as itself, not as a range
            if (chain.impliedFirstSeq() != manifest.fromSeq()) {
                fail("range_mismatch", BundleLayout.ENTRIES, "the first entry has seq " + chain.impliedFirstSeq()
                        + ", the manifest's from_seq is " + manifest.fromSeq());
            }
            if (chain.impliedLastSeq() != manifest.toSeq()) {
                fail("range_mismatch", BundleLayout.ENTRIES, "the last entry has seq " + chain.impliedLastSeq()
                        + ", the manifest's to_seq is " + manifest.toSeq());
            }
            if (entries != want) {
                fail("range_mismatch", BundleLayout.ENTRIES, entries + " entries for the manifest's " + want);
            }
        }

        // each checkpoint past the prefix against the root recomputed from prefix + entries
        private void roots() {
            long prefix = proofs == null ? -1 : proofs.prefixSize();
            for (ReadCheckpoint c : checkpoints.values()) {
                if (prefix >= 0 && c.size() < prefix) {
                    continue; // an anchor before the bundled entries: tied in by its consistency proof
                }
                byte[] root = roots.get(c.size());
                if (root != null) {
                    if (!MessageDigest.isEqual(root, c.root())) {
                        failAtSize("checkpoint_root_mismatch", c.part(), c.size(),
                                "the signed root is not the root of the prefix and the bundled entries at this size");
                    }
                } else if (manifest == null || c.size() <= manifest.toSeq() + 1) {
                    failAtSize("checkpoint_unverifiable", c.part(), c.size(), proofs == null
                            ? "no usable prefix in proofs.json to recompute the root from"
                            : "the bundled entries end at tree size " + endSize + ", before this checkpoint");
                }
            }
        }

        // the last entry must be under a valid checkpoint whose root was recomputed and matched
        private void coverage() {
            if (endSize <= 0 || entries == 0) {
                return;
            }
            ReadCheckpoint last = checkpoints.get(endSize);
            byte[] root = roots.get(endSize);
            if (last == null || !last.valid() || root == null || !MessageDigest.isEqual(root, last.root())) {
                failAtSize("uncovered_entries", BundleLayout.ENTRIES, endSize, last == null
                        ? "no checkpoint at tree size " + endSize + " covers the last entry"
                        : "the checkpoint at tree size " + endSize + " that would cover the last entry is not valid");
            }
        }

        private void consistency() {
            if (proofs == null) {
                return;
            }
            Map<String, BundleProofs.Consistency> byPair = new HashMap<>();
            for (BundleProofs.Consistency c : proofs.consistency()) {
                byPair.put(c.from() + ".." + c.to(), c);
            }
            ReadCheckpoint prev = null;
            ConsistencyVerifier verifier = new ConsistencyVerifier();
            for (ReadCheckpoint c : checkpoints.values()) {
                if (prev != null) {
                    BundleProofs.Consistency proof = byPair.remove(prev.size() + ".." + c.size());
                    if (proof == null) {
                        failAtSize("consistency_proof_missing", BundleLayout.PROOFS, c.size(),
                                "no consistency proof from tree size " + prev.size() + " to " + c.size());
                    } else {
                        ProofCheck r = verifier.verify(prev.size(), c.size(), prev.root(), c.root(), proof.proof());
                        if (!r.verified()) {
                            failAtSize("consistency_proof_failed", BundleLayout.PROOFS, c.size(),
                                    "tree size " + prev.size() + " to " + c.size() + ": " + r);
                        }
                    }
                }
                prev = c;
            }
            for (String pair : byPair.keySet()) {
                fail("consistency_proof_unexpected", BundleLayout.PROOFS, "proof " + pair + " joins no two successive checkpoints");
            }
        }

        // every part but the manifest, byte for byte as the signed manifest lists it
        private void digests() {
            if (manifest == null) {
                return;
            }
            Map<String, BundleManifest.Part> listed = new LinkedHashMap<>();
            for (BundleManifest.Part p : manifest.parts()) {
                if (listed.put(p.name(), p) != null) {
                    fail("manifest_malformed", BundleLayout.MANIFEST, "part " + p.name() + " is listed twice");
                }
            }
            for (String name : parts.keySet()) {
                if (!name.equals(BundleLayout.MANIFEST) && !listed.containsKey(name)) {
                    fail("manifest_digest_mismatch", name, "part is not listed in the manifest");
                }
            }
            for (BundleManifest.Part p : listed.values()) {
                Measured m = measured.get(p.name());
                if (!parts.containsKey(p.name())) {
                    fail("manifest_digest_mismatch", p.name(), "the manifest lists a part the bundle does not hold");
                } else if (m != null && (m.bytes() != p.bytes() || !m.sha256().equals(p.sha256()))) {
                    fail("manifest_digest_mismatch", p.name(), m.bytes() != p.bytes()
                            ? m.bytes() + " bytes, the manifest says " + p.bytes()
                            : "sha256 differs from the manifest's");
                }
            }
        }

        /** A part's bytes (recording its digest), or null with the failure recorded when absent or unreadable. */
        private byte[] read(ZipFile zip, String name, long max) {
            ZipEntry e = parts.get(name);
            if (e == null) {
                return null;
            }
            try (InputStream in = zip.getInputStream(e)) {
                byte[] bytes = in.readNBytes((int) Math.min(max + 1, Integer.MAX_VALUE - 8));
                if (bytes.length > max) {
                    fail("unreadable_bundle", name, "part is larger than " + max + " bytes");
                    return null;
                }
                measured.put(name, new Measured(bytes.length, HEX.formatHex(sha256().digest(bytes))));
                return bytes;
            } catch (IOException ex) {
                fail("unreadable_bundle", name, "cannot read: " + ex.getMessage());
                return null;
            }
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
