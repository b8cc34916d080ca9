package dev.cloakgate.ledger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cloakgate.crypto.Checkpoint;
import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.NoteSigner;
import dev.cloakgate.crypto.NoteVerification;
import dev.cloakgate.crypto.SignedNote;

class LedgerTest {
    private static final String T = "acme";
    private static final ObjectMapper M = new ObjectMapper();
    // an hour: only the count, flush and close make checkpoints, unless a test asks for the interval
    private static final Ledger.Settings EVERY_10 = Ledger.Settings.defaults().withCheckpointEvery(10)
            .withCheckpointInterval(Duration.ofHours(1));

    private static final String ORIGIN = "gw.example/ledger/acme";
    private final LedgerKeyring ringA = ring(1);
    private final LedgerKeyring ringB = ring(2);
    private final NoteSigner keyA = ringA.keys(ORIGIN).checkpoint();
    private final NoteSigner keyB = ringB.keys(ORIGIN).checkpoint();

    private static LedgerKeyring ring(int seed) {
        return new LedgerKeyring(Ed25519SigningKey.fromSeed(filled(seed)), java.util.Optional.empty(),
                LogIdentity.configured("gw.example"));
    }

    @TempDir
    Path dir;

    private static byte[] filled(int b) {
        byte[] seed = new byte[32];
        Arrays.fill(seed, (byte) b);
        return seed;
    }

    /** One entry a batch, so checkpoints fall exactly on multiples of the count. */
    private static void appendOneByOne(Ledger ledger, int from, int n) {
        for (int i = from; i < from + n; i++) {
            ledger.submit(LedgerStoreTest.body(i)).join();
        }
    }

    private static List<Long> checkpointSizes(LedgerStore store) {
        return store.checkpoints(0, Long.MAX_VALUE).stream().map(LedgerStore.StoredCheckpoint::size).toList();
    }

    /** Every stored checkpoint verifies under {@code signer} and holds this ledger's origin, its size and root. */
    private static void assertCheckpointsVerify(LedgerStore store, NoteSigner signer) {
        assertCheckpointsVerify(store, signer, ORIGIN);
    }

    private static void assertCheckpointsVerify(LedgerStore store, NoteSigner signer, String origin) {
        MerkleProofs proofs = new MerkleProofs(store.leaves());
        for (LedgerStore.StoredCheckpoint c : store.checkpoints(0, Long.MAX_VALUE)) {
            Checkpoint cp = checkpointOf(c.note(), signer);
            assertEquals(origin, cp.origin());
            assertEquals(c.size(), cp.size());
            assertArrayEquals(proofs.root(c.size()), cp.rootHash(), "root of checkpoint " + c.size());
        }
    }

    private static Checkpoint checkpointOf(byte[] note, NoteSigner signer) {
        NoteVerification v = SignedNote.open(note, List.of(signer.verifier()));
        NoteVerification.Verified ok = assertInstanceOf(NoteVerification.Verified.class, v, v::toString);
        return assertInstanceOf(Checkpoint.Parse.Ok.class, Checkpoint.parse(ok.text())).checkpoint();
    }

    private static JsonNode entry(LedgerStore store, long seq) throws Exception {
        return M.readTree(store.read(seq, seq).get(0));
    }

    @Test
    void checkpointsEveryNEntriesAndAtCloseAndReopenContinuesTheChain() throws Exception {
        try (Ledger ledger = Ledger.open(dir, T, ringA, EVERY_10)) {
            assertEquals(ORIGIN, ledger.origin());
            assertEquals(T, ledger.tenant());
            appendOneByOne(ledger, 0, 25);
            assertEquals(List.of(10L, 20L), checkpointSizes(ledger.store()));
        }
        try (LedgerStore store = LedgerStore.open(dir, T)) {
            assertEquals(List.of(10L, 20L, 25L), checkpointSizes(store));
            assertCheckpointsVerify(store, keyA);
        }
        try (Ledger ledger = Ledger.open(dir, T, ringA, EVERY_10)) {
            assertEquals(25, ledger.size());
            assertEquals(List.of(10L, 20L, 25L), checkpointSizes(ledger.store()), "nothing to checkpoint on open");
            assertEquals(25L, ledger.submit(LedgerStoreTest.body(25)).join());
            appendOneByOne(ledger, 26, 4);
        }
        try (LedgerStore store = LedgerStore.open(dir, T)) {
            assertEquals(30, store.size());
            LedgerStoreTest.assertChainValid(store);
            assertEquals(List.of(10L, 20L, 25L, 30L), checkpointSizes(store));
            assertCheckpointsVerify(store, keyA);
            for (long seq = 0; seq < 30; seq++) {
                assertEquals("tool_call", entry(store, seq).get("kind").asText(), "no entry but the submitted ones");
            }
        }
    }

    @Test
    void checkpointsOnceTheIntervalPassesWithUncoveredEntries() throws InterruptedException {
        Ledger.Settings settings = Ledger.Settings.defaults().withCheckpointInterval(Duration.ofMillis(100));
        try (Ledger ledger = Ledger.open(dir, T, ringA, settings)) {
            for (int i = 0; i < 3; i++) {
                ledger.submit(LedgerStoreTest.body(i));
            }
            ledger.flush();
            assertEquals(3, ledger.size());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            LedgerStore.StoredCheckpoint latest = ledger.store().latestCheckpoint();
            while ((latest == null || latest.size() < 3) && System.nanoTime() < deadline) {
                Thread.sleep(10);
                latest = ledger.store().latestCheckpoint();
            }
            assertTrue(latest != null && latest.size() == 3, "no checkpoint of the 3 entries while open: " + latest);
            assertEquals(3, checkpointOf(latest.note(), keyA).size());
        }
    }

    @Test
    void aNewKeyIsRecordedAsKeyRotatedAndSignsTheNextCheckpoint() throws Exception {
        try (Ledger ledger = Ledger.open(dir, T, ringA, EVERY_10)) {
            appendOneByOne(ledger, 0, 3);
        }
        try (Ledger ledger = Ledger.open(dir, T, ringB, EVERY_10)) {
            assertEquals(4, ledger.size());
            JsonNode rotated = entry(ledger.store(), 3);
            assertEquals("key_rotated", rotated.get("kind").asText());
            assertEquals(keyA.keyId().hex(), rotated.get("from_key").asText());
            assertEquals(keyB.keyId().hex(), rotated.get("to_key").asText());
            assertEquals(ORIGIN, rotated.get("key_name").asText());
            LedgerStore.StoredCheckpoint latest = ledger.store().latestCheckpoint();
            assertEquals(4, latest.size());
            assertEquals(4, checkpointOf(latest.note(), keyB).size());
            assertInstanceOf(NoteVerification.Rejected.class, SignedNote.open(latest.note(), List.of(keyA.verifier())));
            appendOneByOne(ledger, 3, 2);
        }
        // the old key's checkpoint is still checked (by its root) and the same key opens without another rotation
        try (Ledger ledger = Ledger.open(dir, T, ringB, EVERY_10)) {
            assertEquals(6, ledger.size());
            assertEquals(List.of(3L, 4L, 6L), checkpointSizes(ledger.store()));
            assertEquals(3, checkpointOf(ledger.store().checkpoints(3, 3).get(0).note(), keyA).size());
            assertEquals(6, checkpointOf(ledger.store().latestCheckpoint().note(), keyB).size());
        }
    }

    @Test
    void entriesPastTheLatestCheckpointAreCheckpointedOnOpen() {
        try (Ledger ledger = Ledger.open(dir, T, ringA, EVERY_10)) {
            appendOneByOne(ledger, 0, 10);
        }
        try (LedgerStore store = LedgerStore.open(dir, T)) { // a crash: committed, never checkpointed
            store.append(LedgerStoreTest.bodies(10, 3));
            assertEquals(10, store.latestCheckpoint().size());
        }
        try (Ledger ledger = Ledger.open(dir, T, ringA, EVERY_10)) {
            assertEquals(13, ledger.store().latestCheckpoint().size());
            assertCheckpointsVerify(ledger.store(), keyA);
        }
        Path fresh = dir.resolve("never-checkpointed");
        try (LedgerStore store = LedgerStore.open(fresh, T)) {
            store.append(LedgerStoreTest.bodies(0, 7));
        }
        // entries but no stored origin: a ledger from before log identities, which keeps the legacy origin
        try (Ledger ledger = Ledger.open(fresh, T, ringA, EVERY_10)) {
            assertEquals(List.of(7L), checkpointSizes(ledger.store()));
            assertEquals("cloakgate/ledger/acme", ledger.origin());
            assertCheckpointsVerify(ledger.store(), ringA.keys("cloakgate/ledger/acme").checkpoint(), "cloakgate/ledger/acme");
        }
    }

    @Test
    void checkpointNowAndFlushWhileManyThreadsSubmit() throws Exception {
        try (Ledger ledger = Ledger.open(dir, T, ringA, EVERY_10)) {
            Checkpoint empty = ledger.checkpointNow();
            assertEquals(0, empty.size());
            assertNull(ledger.store().latestCheckpoint(), "the empty tree's checkpoint is not stored");
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int base = t * 1000;
                Thread th = new Thread(() -> {
                    for (int i = 0; i < 200; i++) {
                        ledger.submit(LedgerStoreTest.body(base + i));
                        if (i % 50 == 0) {
                            ledger.checkpointNow();
                        }
                    }
                });
                th.start();
                threads.add(th);
            }
            for (Thread th : threads) {
                th.join();
            }
            ledger.flush();
            assertEquals(800, ledger.size());
            Checkpoint now = ledger.checkpointNow();
            assertEquals(800, now.size());
            assertEquals(now, ledger.checkpointNow(), "nothing new: the latest again");
            assertEquals(800, ledger.store().latestCheckpoint().size());
            assertCheckpointsVerify(ledger.store(), keyA);
        }
    }

    @Test
    void offerAndSubmitAfterCloseAreRefused() {
        Ledger ledger = Ledger.open(dir, T, ringA, EVERY_10);
        assertTrue(ledger.offer(LedgerStoreTest.body(0)));
        ledger.close();
        ledger.close();
        assertTrue(!ledger.offer(LedgerStoreTest.body(1)));
        CompletableFuture<Long> late = ledger.submit(LedgerStoreTest.body(2));
        assertTrue(late.isCompletedExceptionally());
        try (LedgerStore store = LedgerStore.open(dir, T)) {
            assertEquals(1, store.size());
            assertEquals(List.of(1L), checkpointSizes(store));
        }
    }

    private Path db() {
        return dir.resolve("ledger").resolve(T + ".db");
    }

    private void sql(String statement, Object... args) throws Exception {
        try (Connection c = org.sqlite.JDBC.createConnection("jdbc:sqlite:" + db(), new java.util.Properties()); PreparedStatement p = c.prepareStatement(statement)) {
            for (int i = 0; i < args.length; i++) {
                p.setObject(i + 1, args[i]);
            }
            assertEquals(1, p.executeUpdate(), statement);
        }
    }

    private byte[] storedBytes(long seq) throws Exception {
        try (Connection c = org.sqlite.JDBC.createConnection("jdbc:sqlite:" + db(), new java.util.Properties());
                PreparedStatement p = c.prepareStatement("SELECT bytes FROM entries WHERE seq = ?")) {
            p.setLong(1, seq);
            try (ResultSet rs = p.executeQuery()) {
                assertTrue(rs.next());
                return rs.getBytes(1);
            }
        }
    }

    private void write20() {
        try (Ledger ledger = Ledger.open(dir, T, ringA, EVERY_10)) {
            appendOneByOne(ledger, 0, 20);
        }
    }

    /** The refusal names tenant, seq and kind, and the lock is released so that an operator can act. */
    private LedgerStoreException refused() {
        LedgerStoreException e = assertThrows(LedgerStoreException.class, () -> Ledger.open(dir, T, ringA, EVERY_10));
        try {
            LedgerStore.open(dir, T).close();
        } catch (LedgerLockedException stillHeld) {
            fail("the refused ledger is still locked: " + stillHeld.getMessage());
        } catch (LedgerStoreException damagedForTheStoreToo) {
            // the store's own tail check may refuse it as well; what matters is that the lock is free
        }
        return e;
    }

    @Test
    void aFlippedByteInAMiddleEntryIsRefusedNamingItsSeq() throws Exception {
        write20();
        byte[] bytes = storedBytes(12);
        bytes[bytes.length / 2] ^= 0x01;
        sql("UPDATE entries SET bytes = ? WHERE seq = 12", bytes);
        LedgerStoreException e = refused();
        assertTrue(e.getMessage().contains("tenant 'acme'") && e.getMessage().contains("at seq 12 ")
                && e.getMessage().contains("damaged") && e.getMessage().contains("refuses"), e.getMessage());
    }

    @Test
    void anEntryWhoseHashWasRecomputedToMatchIsStillRefusedByTheChain() throws Exception {
        write20();
        String text = new String(storedBytes(12), StandardCharsets.UTF_8).replace("\"action\":\"allow\"", "\"action\":\"block\"");
        byte[] forged = text.getBytes(StandardCharsets.UTF_8);
        sql("UPDATE entries SET bytes = ?, hash = ? WHERE seq = 12", forged, EntryHash.of(forged));
        LedgerStoreException e = refused();
        assertTrue(e.getMessage().contains("at seq 13 ") && e.getMessage().contains("PREV_MISMATCH"), e.getMessage());
    }

    @Test
    void replayInChunksCarriesTheChainAndTreeAcrossChunkBoundaries() throws Exception {
        try (Ledger ledger = Ledger.open(dir, T, ringA, EVERY_10)) {
            appendOneByOne(ledger, 0, 25);
        }
        try (LedgerStore store = LedgerStore.open(dir, T)) {
            byte[] root = new MerkleProofs(store.leaves()).root(25);
            for (int chunk : new int[] {1, 7, 10, 24, 25, 10_000}) {
                LedgerReplay.Outcome o = LedgerReplay.replay(store, ORIGIN, keyA.verifier(), List.of(), chunk);
                assertEquals(25, o.tree().size());
                assertArrayEquals(root, o.tree().root(), "chunk " + chunk);
                assertEquals(3, o.checkpoints());
                assertEquals(25, o.latest().checkpoint().size());
                assertEquals(keyA.keyId(), o.latest().signedBy());
            }
        }
        // seq 13 ends the second chunk of 7: only the prev carried into the next chunk can catch it
        String text = new String(storedBytes(13), StandardCharsets.UTF_8).replace("\"action\":\"block\"", "\"action\":\"allow\"");
        byte[] forged = text.getBytes(StandardCharsets.UTF_8);
        sql("UPDATE entries SET bytes = ?, hash = ? WHERE seq = 13", forged, EntryHash.of(forged));
        try (LedgerStore store = LedgerStore.open(dir, T)) {
            LedgerStoreException e = assertThrows(LedgerStoreException.class,
                    () -> LedgerReplay.replay(store, ORIGIN, keyA.verifier(), List.of(), 7));
            assertTrue(e.getMessage().contains("at seq 14 (PREV_MISMATCH"), e.getMessage());
        }
    }

    @Test
    void aDeletedMiddleEntryIsRefused() throws Exception {
        write20();
        sql("DELETE FROM entries WHERE seq = 7");
        LedgerStoreException e = refused();
        assertTrue(e.getMessage().contains("missing"), e.getMessage());
    }

    @Test
    void aTruncatedTailBehindACheckpointIsRefused() throws Exception {
        write20();
        sql("DELETE FROM entries WHERE seq = 19");
        LedgerStoreException e = refused();
        assertTrue(e.getMessage().contains("checkpoint of size 20") && e.getMessage().contains("CHECKPOINT_SIZE"), e.getMessage());
    }

    @Test
    void aCheckpointSignedForAnotherRootIsRefused() throws Exception {
        write20();
        byte[] wrongRoot = new byte[32];
        byte[] forged = SignedNote.sign(new Checkpoint(ORIGIN, 10, wrongRoot).text(), List.of(keyA))
                .getBytes(StandardCharsets.UTF_8);
        sql("UPDATE checkpoints SET note = ? WHERE size = 10", forged);
        LedgerStoreException e = refused();
        assertTrue(e.getMessage().contains("checkpoint of size 10") && e.getMessage().contains("CHECKPOINT_ROOT"), e.getMessage());
    }

    @Test
    void aCheckpointWhoseTextWasEditedUnderTheCurrentKeyIsRefused() throws Exception {
        write20();
        String note;
        try (LedgerStore store = LedgerStore.open(dir, T)) {
            note = new String(store.checkpoints(20, 20).get(0).note(), StandardCharsets.UTF_8);
        }
        sql("UPDATE checkpoints SET note = ? WHERE size = 20", note.replaceFirst("/ledger/acme\n", "/ledger/acmf\n")
                .getBytes(StandardCharsets.UTF_8));
        LedgerStoreException e = refused();
        assertTrue(e.getMessage().contains("checkpoint of size 20") && e.getMessage().contains("CHECKPOINT_SIGNATURE"), e.getMessage());
    }

    @Test
    void anOldKeysCheckpointWithAWrongRootIsRefusedToo() throws Exception {
        write20();
        byte[] forged = SignedNote.sign(new Checkpoint(ORIGIN, 10, new byte[32]).text(), List.of(keyB))
                .getBytes(StandardCharsets.UTF_8);
        sql("UPDATE checkpoints SET note = ? WHERE size = 10", forged);
        LedgerStoreException e = refused();
        assertTrue(e.getMessage().contains("CHECKPOINT_ROOT"), e.getMessage());
    }

    // --- issue 10, metrics: append latency and checkpoint age ---

    /** A clock a test moves by hand. */
    private static final class HandClock extends java.time.Clock {
        private volatile java.time.Instant now = java.time.Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public java.time.ZoneId getZone() {
            return java.time.ZoneOffset.UTC;
        }

        @Override
        public java.time.Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public java.time.Instant instant() {
            return now;
        }
    }

    @Test
    void checkpointAgeIsHowLongTheOldestUncoveredEntryWaitedAndEachCommitIsTimed() {
        HandClock clock = new HandClock();
        List<Long> appended = java.util.Collections.synchronizedList(new ArrayList<>());
        Ledger.Settings settings = EVERY_10.withClock(clock).withAppendObserver(appended::add);
        try (Ledger ledger = Ledger.open(dir, T, ringA, settings)) {
            assertEquals(Duration.ZERO, ledger.checkpointAge(), "nothing uncovered");
            clock.advance(Duration.ofMinutes(5));
            appendOneByOne(ledger, 0, 3);
            assertEquals(Duration.ZERO, ledger.checkpointAge(), "an idle spell before the entries is not their wait");
            clock.advance(Duration.ofSeconds(42));
            appendOneByOne(ledger, 3, 2);
            assertEquals(Duration.ofSeconds(42), ledger.checkpointAge(), "the oldest uncovered entry's wait");
            ledger.checkpointNow();
            assertEquals(Duration.ZERO, ledger.checkpointAge(), "all covered again");
            appendOneByOne(ledger, 5, 5);
            assertEquals(Duration.ZERO, ledger.checkpointAge(), "the 10th entry made a checkpoint");
            assertEquals(10, appended.size(), "one timing per committed entry: " + appended);
            assertTrue(appended.stream().allMatch(n -> n >= 0), appended::toString);
        }
    }
}
