package dev.cloakgate.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cloakgate.crypto.Checkpoint;
import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.NoteSigner;
import dev.cloakgate.crypto.NoteVerification;
import dev.cloakgate.crypto.SignedNote;

/**
 * Issue 15: each deployment's log has its own origin, each log and purpose its own key, auditors pin the log they
 * expect, and a rotation endorsed by the old key is followed by an auditor who pinned only the old key. Real
 * ledgers (SQLite, the writer, the checkpointer) exported and verified as an auditor would.
 */
class LogIdentityBundleTest {
    private static final ObjectMapper M = new ObjectMapper();
    private static final Ledger.Settings EVERY_10 = Ledger.Settings.defaults().withCheckpointEvery(10)
            .withCheckpointInterval(Duration.ofHours(1));
    private static final String ID = "gw.example";
    private static final String ACME = ID + "/ledger/acme";
    private static final Ed25519SigningKey MASTER_1 = master(1);
    private static final Ed25519SigningKey MASTER_2 = master(2);

    @TempDir
    Path dir;

    private static Ed25519SigningKey master(int b) {
        byte[] s = new byte[32];
        Arrays.fill(s, (byte) b);
        return Ed25519SigningKey.fromSeed(s);
    }

    private static LedgerKeyring ring(Ed25519SigningKey master, Ed25519SigningKey previous, String identity) {
        return new LedgerKeyring(master, Optional.ofNullable(previous), LogIdentity.configured(identity));
    }

    private Path data() {
        return dir.resolve("data");
    }

    private void write(String tenant, LedgerKeyring ring, int from, int n) {
        try (Ledger ledger = Ledger.open(data(), tenant, ring, EVERY_10)) {
            for (int i = from; i < from + n; i++) {
                ledger.submit(LedgerStoreTest.body(i)).join();
            }
        }
    }

    private Path export(String tenant, LogKeys keys, String name) throws IOException {
        Path out = dir.resolve(name);
        try (LedgerStore store = LedgerStore.openReadOnly(data(), tenant); OutputStream os = Files.newOutputStream(out)) {
            new BundleWriter().write(store, 0, store.lastSeq(), keys, BundleKit.CLOCK, os);
        }
        return out;
    }

    /** The keys of tenant acme's log before and after a rotation from MASTER_1 to MASTER_2. */
    private record Rotated(LogKeys before, LogKeys after) {
        List<String> both() {
            List<String> out = new java.util.ArrayList<>(vkeys(before));
            out.addAll(vkeys(after));
            return out;
        }
    }

    /** 12 entries under MASTER_1, then 3 under MASTER_2 (the rotation entry is seq 12), with or without the previous key. */
    private Rotated rotate(boolean previousConfigured) {
        write("acme", ring(MASTER_1, null, ID), 0, 12);
        write("acme", ring(MASTER_2, previousConfigured ? MASTER_1 : null, ID), 100, 3);
        return new Rotated(ring(MASTER_1, null, ID).keys(ACME), ring(MASTER_2, null, ID).keys(ACME));
    }

    /** The bundle's checkpoint part at {@code size}, its text signed again by {@code signer} alone. */
    private static byte[] resigned(Path bundle, long size, NoteSigner signer) throws IOException {
        String whole = new String(BundleKit.parts(bundle).get(BundleLayout.checkpointPart(size)), StandardCharsets.UTF_8);
        return SignedNote.sign(whole.substring(0, whole.lastIndexOf("\n\n") + 1), List.of(signer)).getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> vkeys(LogKeys keys) {
        return List.of(keys.checkpoint().verifier().encoded(), keys.manifest().verifier().encoded());
    }

    private static VerifyReport verify(Path bundle, LogPins pins, List<String> trusted) throws IOException {
        return new BundleVerifier(TrustedKeys.parse(trusted), pins).verify(bundle);
    }

    private static JsonNode entry(Path data, String tenant, long seq) throws IOException {
        try (LedgerStore store = LedgerStore.openReadOnly(data, tenant)) {
            return M.readTree(store.read(seq, seq).get(0));
        }
    }

    @Test
    void aNewLedgerHasTheDeploymentsOriginStoredAndVerifiesUnderItsVerifierKeys() throws Exception {
        LedgerKeyring ring = ring(MASTER_1, null, ID);
        write("acme", ring, 0, 12);
        try (LedgerStore store = LedgerStore.openReadOnly(data(), "acme")) {
            assertEquals(ACME, store.storedOrigin());
            String note = new String(store.latestCheckpoint().note(), StandardCharsets.UTF_8);
            assertTrue(note.startsWith(ACME + "\n12\n"), note);
            assertTrue(note.contains("\n\u2014 " + ACME + " "), "the key name is the origin: " + note);
        }
        LogKeys keys = ring.keys(ACME);
        Path bundle = export("acme", keys, "acme.zip");
        VerifyReport r = verify(bundle, new LogPins("acme", ACME), vkeys(keys));
        assertTrue(r.valid(), r::toJson);
        JsonNode json = M.readTree(r.toJson());
        assertEquals(ACME, json.get("origin").asText());
        assertTrue(json.get("pinned").asBoolean());
        // KEYID=HEX still works, and without pins the report says so
        VerifyReport hex = verify(bundle, LogPins.NONE, List.of(TrustedKeys.spec(keys.checkpoint()), TrustedKeys.spec(keys.manifest())));
        assertTrue(hex.valid(), hex::toJson);
        assertFalse(M.readTree(hex.toJson()).get("pinned").asBoolean());
    }

    @Test
    void aLogIdentityThatContradictsTheLedgersOriginRefusesTheStartAndSaysWhatToSet() {
        write("acme", ring(MASTER_1, null, ID), 0, 3);
        LedgerStoreException e = assertThrows(LedgerStoreException.class,
                () -> Ledger.open(data(), "acme", ring(MASTER_1, null, "other.example"), EVERY_10));
        assertTrue(e.getMessage().startsWith("ledger_origin_mismatch: the ledger of tenant 'acme' has origin " + ACME), e.getMessage());
        assertTrue(e.getMessage().contains("cloakgate.ledger.log-identity=" + ID), e.getMessage());
        LedgerStore.open(data(), "acme").close(); // the lock is free again
        write("acme", ring(MASTER_1, null, ID), 3, 1); // and the right identity continues it
    }

    @Test
    void pinsMakeAGenuineExportOfAnotherTenantOrLogInvalid() throws Exception {
        LedgerKeyring ring = ring(MASTER_1, null, ID);
        write("beta", ring, 0, 5);
        LogKeys beta = ring.keys(ID + "/ledger/beta");
        Path bundle = export("beta", beta, "beta.zip");
        VerifyReport unpinned = verify(bundle, LogPins.NONE, vkeys(beta));
        assertTrue(unpinned.valid(), unpinned::toJson);
        assertEquals(ID + "/ledger/beta", unpinned.origin());
        assertFalse(unpinned.pinned());

        VerifyReport asAcme = verify(bundle, new LogPins("acme", null), vkeys(beta));
        assertFalse(asAcme.valid());
        assertEquals(List.of("pinned_tenant_mismatch"), asAcme.checks(), asAcme::toJson);
        VerifyReport otherLog = verify(bundle, new LogPins(null, "prod.example/ledger/beta"), vkeys(beta));
        assertEquals(List.of("pinned_origin_mismatch"), otherLog.checks(), otherLog::toJson);
    }

    /** A's bundle with B's genuine, B-signed checkpoint of the same size, the manifest re-signed by A's key. */
    @Test
    void aGenuineCheckpointOfAnotherTenantNeverCountsForThisOne() throws Exception {
        LedgerKeyring ring = ring(MASTER_1, null, ID);
        write("acme", ring, 0, 10);
        write("beta", ring, 0, 10);
        LogKeys acme = ring.keys(ACME);
        LogKeys beta = ring.keys(ID + "/ledger/beta");
        byte[] betaCheckpoint;
        try (LedgerStore store = LedgerStore.openReadOnly(data(), "beta")) {
            betaCheckpoint = store.checkpoints(10, 10).get(0).note();
        }
        Path bad = BundleKit.rewrite(export("acme", acme, "acme.zip"), dir.resolve("bad.zip"),
                parts -> parts.put(BundleLayout.checkpointPart(10), betaCheckpoint), acme.manifest());
        VerifyReport r = verify(bad, LogPins.NONE, vkeys(acme));
        assertFalse(r.valid());
        assertTrue(r.checks().contains("untrusted_key") && r.checks().contains("checkpoint_origin_mismatch"), r::toJson);
        // an auditor of both tenants trusts B's key too: B's checkpoint still is not A's
        VerifyReport both = verify(bad, LogPins.NONE, List.of(vkeys(acme).get(0), vkeys(acme).get(1), vkeys(beta).get(0)));
        assertFalse(both.valid());
        assertTrue(both.checks().contains("checkpoint_origin_mismatch"), both::toJson);
    }

    @Test
    void aSignatureByTheManifestKeyIsNeverACheckpointSignatureNorTheOtherWay() throws Exception {
        LedgerKeyring ring = ring(MASTER_1, null, ID);
        write("acme", ring, 0, 10);
        LogKeys acme = ring.keys(ACME);
        Path good = export("acme", acme, "acme.zip");
        byte[] byManifestKey = resigned(good, 10, acme.manifest());
        Path bad = BundleKit.rewrite(good, dir.resolve("bad.zip"),
                parts -> parts.put(BundleLayout.checkpointPart(10), byManifestKey), acme.manifest());
        VerifyReport r = verify(bad, LogPins.NONE, vkeys(acme));
        assertFalse(r.valid());
        assertTrue(r.checks().contains("key_purpose_mismatch"), r::toJson);
        assertTrue(r.failures().stream().anyMatch(f -> f.check().equals("key_purpose_mismatch")
                && f.part().equals(BundleLayout.checkpointPart(10))), r::toJson);

        Path manifestByCheckpointKey = BundleKit.rewrite(good, dir.resolve("bad2.zip"), parts -> {
        }, acme.checkpoint());
        VerifyReport m = verify(manifestByCheckpointKey, LogPins.NONE, vkeys(acme));
        assertFalse(m.valid());
        assertTrue(m.failures().stream().anyMatch(f -> f.check().equals("key_purpose_mismatch")
                && f.part().equals(BundleLayout.MANIFEST)), m::toJson);
    }

    /** A ledger of the single-key scheme: origin cloakgate/ledger/acme, checkpoints by the master under "cloakgate". */
    @Test
    void aLegacyLedgerKeepsItsOriginAndItsOldKeyEndorsesTheNewKeysForAuditorsWhoPinnedIt() throws Exception {
        NoteSigner legacy = LogKeys.legacy(MASTER_1);
        BundleKit.ledger(data(), 20, 10, legacy);
        LedgerKeyring ring = ring(MASTER_1, null, ID);
        String origin = "cloakgate/ledger/acme";
        try (Ledger ledger = Ledger.open(data(), "acme", ring, EVERY_10)) {
            assertEquals(origin, ledger.origin(), "a legacy ledger keeps its origin");
            assertEquals(21, ledger.size());
            ledger.submit(LedgerStoreTest.body(21)).join();
        }
        LogKeys keys = ring.keys(origin);
        JsonNode rotated = entry(data(), "acme", 20);
        assertEquals("key_rotated", rotated.get("kind").asText());
        assertEquals(legacy.keyId().hex(), rotated.get("from_key").asText());
        assertEquals("cloakgate", rotated.get("from_key_name").asText());
        assertEquals(keys.checkpoint().verifier().encoded(), rotated.get("checkpoint_key").asText());
        assertEquals(keys.manifest().verifier().encoded(), rotated.get("manifest_key").asText());
        assertTrue(rotated.get("endorsement").isTextual(), rotated::toString);
        try (LedgerStore store = LedgerStore.openReadOnly(data(), "acme")) {
            byte[] first = store.checkpoints(21, 21).get(0).note(); // the first after the rotation: co-signed
            assertEquals(2, assertInstanceOf(NoteVerification.Verified.class, SignedNote.open(first,
                    List.of(legacy.verifier(), keys.checkpoint().verifier()))).signedBy().size());
            assertEquals(origin, store.storedOrigin(), "the legacy origin is stored with the ledger now");
        }
        try (Ledger again = Ledger.open(data(), "acme", ring, EVERY_10)) { // replay accepts the old checkpoints
            assertEquals(22, again.size(), "no second rotation");
        }

        Path bundle = export("acme", keys, "acme.zip");
        VerifyReport oldPin = verify(bundle, new LogPins("acme", origin), List.of(TrustedKeys.spec(legacy)));
        assertTrue(oldPin.valid(), oldPin::toJson);
        assertEquals(List.of(new VerifyReport.Rotation(20, legacy.keyId().hex(), keys.checkpoint().keyId().hex())),
                oldPin.rotations());
        VerifyReport newOnly = verify(bundle, LogPins.NONE, vkeys(keys));
        assertFalse(newOnly.valid(), "the checkpoints before the rotation are the old key's alone");
        assertEquals(List.of("untrusted_key"), newOnly.checks(), newOnly::toJson);
    }

    @Test
    void theConfiguredPreviousKeyEndorsesTheRotationAndCoSignsTheNextCheckpoint() throws Exception {
        Rotated keys = rotate(true);
        LogKeys before = keys.before();
        LogKeys after = keys.after();
        JsonNode rotated = entry(data(), "acme", 12);
        assertEquals(before.checkpoint().keyId().hex(), rotated.get("from_key").asText());
        assertEquals(after.checkpoint().keyId().hex(), rotated.get("to_key").asText());
        assertTrue(rotated.has("endorsement"), rotated::toString);
        try (LedgerStore store = LedgerStore.openReadOnly(data(), "acme")) {
            assertEquals(2, assertInstanceOf(NoteVerification.Verified.class, SignedNote.open(store.checkpoints(13, 13).get(0).note(),
                    List.of(before.checkpoint().verifier(), after.checkpoint().verifier()))).signedBy().size());
        }
        Path bundle = export("acme", after, "acme.zip");
        VerifyReport r = verify(bundle, new LogPins("acme", ACME), vkeys(before));
        assertTrue(r.valid(), r::toJson);
        assertEquals(1, r.rotations().size());
        assertTrue(M.readTree(r.toJson()).has("rotations_followed"));
    }

    /** The new key holder re-signs a checkpoint from before the rotation (its genuine root): not trusted there. */
    @Test
    void aKeyARotationEndorsedCountsOnlyOnCheckpointsThatCoverTheRotation() throws Exception {
        Rotated keys = rotate(true);
        Path good = export("acme", keys.after(), "acme.zip");
        byte[] early = resigned(good, 10, keys.after().checkpoint());
        Path bad = BundleKit.rewrite(good, dir.resolve("bad.zip"),
                parts -> parts.put(BundleLayout.checkpointPart(10), early), keys.after().manifest());
        VerifyReport r = verify(bad, LogPins.NONE, vkeys(keys.before()));
        assertFalse(r.valid());
        assertEquals(List.of("untrusted_key"), r.checks(), r::toJson);
        assertEquals(BundleLayout.checkpointPart(10), r.failures().get(0).part(), r::toJson);
        // pinned directly, the new key is trusted at any size
        assertTrue(verify(bad, LogPins.NONE, keys.both()).valid());
    }

    @Test
    void withoutThePreviousKeyTheRotationIsRecordedWithoutEndorsementAndAuditorsPinBoth() throws Exception {
        Rotated keys = rotate(false);
        JsonNode rotated = entry(data(), "acme", 12);
        assertEquals("key_rotated", rotated.get("kind").asText());
        assertFalse(rotated.has("endorsement"), rotated::toString);
        Path bundle = export("acme", keys.after(), "acme.zip");
        VerifyReport oldOnly = verify(bundle, LogPins.NONE, vkeys(keys.before()));
        assertFalse(oldOnly.valid(), "an unendorsed rotation extends no trust");
        assertTrue(oldOnly.checks().contains("untrusted_key"), oldOnly::toJson);
        assertFalse(oldOnly.checks().contains("key_rotation_invalid"), oldOnly::toJson);
        VerifyReport pinnedBoth = verify(bundle, LogPins.NONE, keys.both());
        assertTrue(pinnedBoth.valid(), pinnedBoth::toJson);
    }

    /** Someone holding only the new key writes a rotation whose endorsement the old key never made. */
    @Test
    void aForgedEndorsementExtendsNoTrustAndIsNamed() throws Exception {
        write("acme", ring(MASTER_1, null, ID), 0, 12);
        LogKeys before = ring(MASTER_1, null, ID).keys(ACME);
        LogKeys after = ring(MASTER_2, null, ID).keys(ACME);
        NoteSigner impostor = new NoteSigner(ACME, master(3)); // same name as the old key, another key
        try (LedgerStore store = LedgerStore.open(data(), "acme")) {
            var forged = KeyRotation.entry(before.checkpoint().keyId(), ACME, after, impostor);
            store.append(List.of(forged));
        }
        write("acme", ring(MASTER_2, null, ID), 100, 2);
        Path bundle = export("acme", after, "acme.zip");
        VerifyReport r = verify(bundle, LogPins.NONE, vkeys(before));
        assertFalse(r.valid());
        assertTrue(r.checks().contains("key_rotation_invalid") && r.checks().contains("untrusted_key"), r::toJson);
        assertEquals(List.of(), r.rotations());
    }

    @Test
    void theRotationStatementCanNeverReadAsACheckpoint() {
        LogKeys keys = ring(MASTER_1, null, ID).keys(ACME);
        String statement = KeyRotation.statement(ACME, keys.checkpoint().verifier(), keys.checkpoint().verifier(),
                keys.manifest().verifier());
        assertInstanceOf(Checkpoint.Parse.Malformed.class, Checkpoint.parse(statement));
    }
}
