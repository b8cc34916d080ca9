package dev.cloakgate.ledger;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Checkpoint;
import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.NoteSigner;
import dev.cloakgate.crypto.SignedNote;

/** Builds real ledgers and bundles for the bundle tests, and rewrites a bundle's parts as an attacker would. */
public final class BundleKit {
    public static final String TENANT = "acme";
    public static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-01T12:00:00Z"), ZoneOffset.UTC);
    private static final ObjectMapper M = new ObjectMapper();

    private BundleKit() {
    }

    /** A deterministic signer; the legacy single ledger key was named "cloakgate". */
    public static NoteSigner signer(String name, int seed) {
        byte[] s = new byte[32];
        Arrays.fill(s, (byte) seed);
        return new NoteSigner(name, Ed25519SigningKey.fromSeed(s));
    }

    public static NoteSigner ledgerSigner() {
        return signer("cloakgate", 7);
    }

    /** The --trust-key form of a signer's key: KEYID=HEX. */
    public static String trustKey(NoteSigner signer) {
        return signer.keyId().hex() + "=" + HexFormat.of().formatHex(signer.verifier().publicKey().bytes());
    }

    /**
     * The verifier keys ({@code ledger key --tenant T}'s two lines) of tenant T's ledger under {@code dataDir}, signed
     * from {@code master}: the origin is the one stored with the ledger.
     */
    public static List<String> vkeys(Path dataDir, String tenant, Ed25519SigningKey master) {
        try (LedgerStore store = LedgerStore.openReadOnly(dataDir, tenant)) {
            LogKeys keys = LogKeys.derive(master, store.storedOrigin());
            return List.of(keys.checkpoint().verifier().encoded(), keys.manifest().verifier().encoded());
        }
    }

    public static TrustedKeys trusted(NoteSigner... signers) {
        return TrustedKeys.parse(Arrays.stream(signers).map(BundleKit::trustKey).toList());
    }

    static ObjectNode body(long i) {
        return M.createObjectNode().put("kind", "tool_call").put("tool", "search").put("action", i % 2 == 0 ? "allow" : "block")
                .put("i", i).put("note", "caf\u00e9 \u2603");
    }

    /**
     * A ledger of {@code n} entries for {@link #TENANT} under {@code dataDir}, with a checkpoint signed over the
     * real Merkle root after every {@code every} entries (appended in batches of that size).
     */
    public static void ledger(Path dataDir, long n, int every, NoteSigner signer) {
        ledger(dataDir, n, every, LogIdentity.legacyOrigin(TENANT), signer);
    }

    /** {@link #ledger(Path, long, int, NoteSigner)} under another origin (a ledger of the per-log keys). */
    public static void ledger(Path dataDir, long n, int every, String origin, NoteSigner signer) {
        try (LedgerStore store = LedgerStore.open(dataDir, TENANT, CLOCK)) {
            MerkleTree tree = new MerkleTree();
            for (long from = 0; from < n; from += every) {
                List<ObjectNode> batch = new ArrayList<>();
                for (long i = from; i < Math.min(n, from + every); i++) {
                    batch.add(body(i));
                }
                for (LedgerStore.Appended a : store.append(batch)) {
                    tree.append(a.hash());
                }
                if (tree.size() % every == 0) {
                    store.putCheckpoint(tree.size(), checkpointNote(origin, tree.size(), tree.root(), signer));
                }
            }
        }
    }

    static byte[] checkpointNote(long size, byte[] root, NoteSigner signer) {
        return checkpointNote(LogIdentity.legacyOrigin(TENANT), size, root, signer);
    }

    static byte[] checkpointNote(String origin, long size, byte[] root, NoteSigner signer) {
        String text = new Checkpoint(origin, size, root).text();
        return SignedNote.sign(text, List.of(signer)).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Exports from a read-only store opened beside whatever else has the ledger, as a ledger of the legacy scheme
     * (origin cloakgate/ledger/acme, one key for checkpoints and manifest) is exported.
     */
    public static Path export(Path dataDir, long from, long to, NoteSigner signer, Path out) throws IOException {
        return export(dataDir, from, to, new LogKeys(LogIdentity.legacyOrigin(TENANT), signer, signer), out);
    }

    /** Exports under a log's own keys. */
    public static Path export(Path dataDir, long from, long to, LogKeys keys, Path out) throws IOException {
        try (LedgerStore store = LedgerStore.openReadOnly(dataDir, TENANT); OutputStream os = Files.newOutputStream(out)) {
            new BundleWriter().write(store, from, to, keys, CLOCK, os);
        }
        return out;
    }

    /** The bundle's parts in zip order. */
    public static LinkedHashMap<String, byte[]> parts(Path bundle) throws IOException {
        LinkedHashMap<String, byte[]> out = new LinkedHashMap<>();
        try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(bundle))) {
            for (ZipEntry e; (e = zip.getNextEntry()) != null;) {
                out.put(e.getName(), zip.readAllBytes());
            }
        }
        return out;
    }

    public static Path writeZip(Path out, Map<String, byte[]> parts) throws IOException {
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(out))) {
            for (Map.Entry<String, byte[]> p : parts.entrySet()) {
                zip.putNextEntry(new ZipEntry(p.getKey()));
                zip.write(p.getValue());
                zip.closeEntry();
            }
        }
        return out;
    }

    /**
     * Rewrites a bundle: {@code edit} changes the parts (all but the manifest); when {@code resign} is given,
     * the manifest is rebuilt with the new parts' sizes and digests, passed through {@code manifestEdit}, and
     * signed by it, as someone holding that key would.
     */
    public static Path rewrite(Path in, Path out, Consumer<LinkedHashMap<String, byte[]>> edit, NoteSigner resign,
            UnaryOperator<BundleManifest> manifestEdit) throws IOException {
        LinkedHashMap<String, byte[]> parts = parts(in);
        byte[] oldManifest = parts.remove(BundleLayout.MANIFEST);
        edit.accept(parts);
        byte[] manifest = oldManifest;
        if (resign != null) {
            String whole = new String(oldManifest, StandardCharsets.UTF_8);
            BundleManifest m = BundleManifest.parse(whole.substring(0, whole.lastIndexOf("\n\n") + 1));
            List<BundleManifest.Part> listed = new ArrayList<>();
            for (Map.Entry<String, byte[]> p : parts.entrySet()) {
                listed.add(new BundleManifest.Part(p.getKey(), p.getValue().length, sha256(p.getValue())));
            }
            m = manifestEdit.apply(new BundleManifest(m.format(), m.tenant(), m.origin(), m.fromSeq(), m.toSeq(), m.created(), listed));
            manifest = SignedNote.sign(m.text(), List.of(resign)).getBytes(StandardCharsets.UTF_8);
        }
        parts.put(BundleLayout.MANIFEST, manifest);
        return writeZip(out, parts);
    }

    public static Path rewrite(Path in, Path out, Consumer<LinkedHashMap<String, byte[]>> edit, NoteSigner resign)
            throws IOException {
        return rewrite(in, out, edit, resign, m -> m);
    }

    /** entries.jsonl as a list of lines (without their newlines). */
    public static List<byte[]> lines(byte[] jsonl) {
        List<byte[]> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < jsonl.length; i++) {
            if (jsonl[i] == '\n') {
                out.add(Arrays.copyOfRange(jsonl, start, i));
                start = i + 1;
            }
        }
        return out;
    }

    public static byte[] jsonl(List<byte[]> lines) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] l : lines) {
            out.writeBytes(l);
            out.write('\n');
        }
        return out.toByteArray();
    }

    /** Applies {@code edit} to the list of entry lines. */
    public static Consumer<LinkedHashMap<String, byte[]>> entries(Consumer<List<byte[]>> edit) {
        return parts -> {
            List<byte[]> lines = lines(parts.get(BundleLayout.ENTRIES));
            edit.accept(lines);
            parts.put(BundleLayout.ENTRIES, jsonl(lines));
        };
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
