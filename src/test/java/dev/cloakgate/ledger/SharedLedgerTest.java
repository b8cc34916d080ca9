package dev.cloakgate.ledger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.agroal.api.AgroalDataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Checkpoint;
import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.NoteVerification;
import dev.cloakgate.crypto.SignedNote;
import dev.cloakgate.testing.PooledDataSource;
import dev.cloakgate.testing.TestPostgres;

/**
 * Issue 17: one tenant's log in PostgreSQL, shared by two {@link Ledger}s on one database (two replicas). Their
 * entries form ONE chain, their checkpoints are of one tree, an export from either is the whole log, and a key
 * rotation every replica starts under is recorded once.
 */
class SharedLedgerTest {
    private static final String T = "acme";
    private static final ObjectMapper M = new ObjectMapper();
    private static final Ledger.Settings SETTINGS = Ledger.Settings.defaults().withCheckpointEvery(50)
            .withCheckpointInterval(Duration.ofHours(1));

    private final LedgerKeyring ringA = ring(1);
    private final LedgerKeyring ringB = ring(2);
    private AgroalDataSource db;

    @TempDir
    Path dir;

    private static LedgerKeyring ring(int seed) {
        byte[] s = new byte[32];
        Arrays.fill(s, (byte) seed);
        return new LedgerKeyring(Ed25519SigningKey.fromSeed(s), Optional.empty(), LogIdentity.configured("gw.example"));
    }

    @AfterEach
    void closePool() {
        db.close();
    }

    @BeforeEach
    void database() {
        db = PooledDataSource.of(TestPostgres.server().database("shared_ledger").migrated(), 8);
    }

    private Ledger replica(LedgerKeyring ring) {
        return replica(ring, SETTINGS);
    }

    private Ledger replica(LedgerKeyring ring, Ledger.Settings settings) {
        return Ledger.open(PostgresLedgerStore.open(db, T, settings.clock()), ring, settings);
    }

    private static ObjectNode body(String writer, int i) {
        return M.createObjectNode().put("kind", "tool_call").put("tool", "search").put("writer", writer).put("i", i);
    }

    private static List<JsonNode> entries(LedgerStore store) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (byte[] e : store.read(0, store.lastSeq())) {
            out.add(M.readTree(e));
        }
        return out;
    }

    private static Checkpoint checkpointOf(byte[] note, Ledger ledger) {
        NoteVerification v = SignedNote.open(note, List.of(ledger.keys().checkpoint().verifier()));
        NoteVerification.Verified ok = assertInstanceOf(NoteVerification.Verified.class, v, v::toString);
        return assertInstanceOf(Checkpoint.Parse.Ok.class, Checkpoint.parse(ok.text())).checkpoint();
    }

    @Test
    void twoReplicasAppendingConcurrentlyFormOneChainThatExportsFromEither() throws Exception {
        int threads = 3;
        int perThread = 400;
        try (Ledger r0 = replica(ringA); Ledger r1 = replica(ringA)) {
            ExecutorService pool = Executors.newFixedThreadPool(2 * threads);
            List<Future<List<CompletableFuture<Long>>>> work = new ArrayList<>();
            Checkpoint[] middle = new Checkpoint[1];
            for (int t = 0; t < threads; t++) {
                for (Ledger r : List.of(r0, r1)) {
                    String writer = (r == r0 ? "r0" : "r1") + "-t" + t;
                    work.add(pool.submit(() -> {
                        List<CompletableFuture<Long>> mine = new ArrayList<>();
                        for (int i = 0; i < perThread; i++) {
                            mine.add(r.submit(body(writer, i)));
                            if (writer.equals("r0-t0") && i == perThread / 2) {
                                middle[0] = r.checkpointNow(); // signed by r0 while both replicas append
                            }
                        }
                        return mine;
                    }));
                }
            }
            List<Long> seqs = new ArrayList<>();
            for (Future<List<CompletableFuture<Long>>> f : work) {
                for (CompletableFuture<Long> c : f.get()) {
                    seqs.add(c.join());
                }
            }
            pool.shutdown();
            int total = 2 * threads * perThread;
            assertEquals(total, new HashSet<>(seqs).size(), "every submit got a seq of its own");
            Checkpoint end = r1.checkpointNow(); // signed by r1: its tree caught up with r0's entries

            // one chain, every entry exactly once
            LedgerStore store = r0.store();
            assertEquals(total, store.size());
            assertEquals(total, r1.size());
            ChainVerifier.Result chain = new ChainVerifier().verify(T, store.read(0, total - 1), EntryHash.GENESIS);
            assertTrue(chain.failures().isEmpty(), chain.failures().toString());
            Set<String> seen = new HashSet<>();
            for (JsonNode e : entries(store)) {
                assertTrue(seen.add(e.get("writer").asText() + "/" + e.get("i").asInt()), "twice: " + e);
            }
            assertEquals(total, seen.size());

            // checkpoints by either replica are of one tree: each root is the log's, and r0's extends to r1's
            assertEquals(total, end.size());
            MerkleProofs merkle = new MerkleProofs(store.leaves());
            List<LedgerStore.StoredCheckpoint> stored = store.checkpoints(1, Long.MAX_VALUE);
            assertTrue(stored.size() >= 3, "checkpoints stored: " + stored.size());
            for (LedgerStore.StoredCheckpoint c : stored) {
                assertArrayEquals(merkle.root(c.size()), checkpointOf(c.note(), r0).rootHash(), "checkpoint " + c.size());
            }
            ProofCheck consistent = new ConsistencyVerifier().verify(middle[0].size(), end.size(), middle[0].rootHash(),
                    end.rootHash(), merkle.consistencyProof(middle[0].size(), end.size()));
            assertTrue(consistent.verified(), consistent.toString());

            // an export from either replica verifies and holds both writers' entries
            for (Ledger r : List.of(r0, r1)) {
                Path bundle = dir.resolve("export-" + (r == r0 ? "r0" : "r1") + ".zip");
                try (LedgerStore reader = r.store().reader(); OutputStream out = Files.newOutputStream(bundle)) {
                    new BundleWriter().write(reader, 0, total - 1, r.keys(), Clock.systemUTC(), out);
                }
                VerifyReport report = new BundleVerifier(TrustedKeys.parse(List.of(r.keys().checkpoint().verifier().encoded(),
                        r.keys().manifest().verifier().encoded())), LogPins.NONE, null).verify(bundle);
                assertTrue(report.valid(), report.toJson());
                assertEquals(total, report.entries());
                String jsonl = new String(BundleKit.parts(bundle).get(BundleLayout.ENTRIES), StandardCharsets.UTF_8);
                assertTrue(jsonl.contains("\"writer\":\"r0-t0\"") && jsonl.contains("\"writer\":\"r1-t0\""));
            }
        }
        // a third replica starting now replays the shared log and continues it
        try (Ledger again = replica(ringA)) {
            assertEquals(2 * threads * perThread, again.size());
            long seq = again.submit(body("r2", 0)).join();
            assertEquals(2 * threads * perThread, seq);
        }
    }

    @Test
    void aKeyRotationIsRecordedOnceWhenEveryReplicaStartsUnderTheNewKey() throws Exception {
        try (Ledger old = replica(ringA)) {
            old.submit(body("r0", 0)).join();
        }
        // a rolling restart: r0 still runs under the old key, r1 starts under the new one and records the rotation
        try (Ledger r0 = replica(ringA)) {
            try (Ledger r1 = replica(ringB)) {
                assertEquals(1, count(r1.store(), "key_rotated"));
            }
            // r0 (old key) appends and checkpoints after the rotation entry: the latest checkpoint is the old key's again
            r0.submit(body("r0", 1)).join();
            r0.checkpointNow();
            assertInstanceOf(NoteVerification.Verified.class,
                    SignedNote.open(r0.store().latestCheckpoint().note(), List.of(r0.keys().checkpoint().verifier())));
        }
        // every replica now starts under the new key: the log already names it, so nothing more is recorded
        try (Ledger r0 = replica(ringB); Ledger r1 = replica(ringB)) {
            assertEquals(1, count(r0.store(), "key_rotated"), "the rotation is recorded once");
            ChainVerifier.Result chain = new ChainVerifier().verify(T, r0.store().read(0, r0.store().lastSeq()), EntryHash.GENESIS);
            assertTrue(chain.failures().isEmpty(), chain.failures().toString());
            assertEquals(r0.store().size(), r1.checkpointNow().size());
        }
    }

    @Test
    void replicasStartingTogetherUnderANewKeyRecordItOnce() throws Exception {
        try (Ledger old = replica(ringA)) {
            old.submit(body("r0", 0)).join();
        }
        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<Future<Ledger>> opened = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            opened.add(pool.submit(() -> replica(ringB)));
        }
        List<Ledger> replicas = new ArrayList<>();
        for (Future<Ledger> f : opened) {
            replicas.add(f.get());
        }
        pool.shutdown();
        try {
            assertEquals(1, count(replicas.get(0).store(), "key_rotated"));
        } finally {
            replicas.forEach(Ledger::close);
        }
    }

    @Test
    void aDevelopmentKeyOfItsOwnIsRefusedOnALogAnotherKeySigns() {
        try (Ledger first = replica(ringA, SETTINGS.withDevKey(true))) {
            first.submit(body("r0", 0)).join();
        }
        LedgerStoreException e = assertThrows(LedgerStoreException.class, () -> replica(ringB, SETTINGS.withDevKey(true)));
        assertTrue(e.getMessage().startsWith("ledger_key_not_shared: "), e.getMessage());
        assertTrue(e.getMessage().contains("Mount the same signing key on every replica"), e.getMessage());
        try (Ledger same = replica(ringA, SETTINGS.withDevKey(true))) {
            assertEquals(1, same.size(), "the same key (mounted on every replica) continues the log");
        }
    }

    @Test
    void aFailedBatchStoresNothingAndCheckpointsOfOneSizeKeepEverySignature() throws Exception {
        try (PostgresLedgerStore store = PostgresLedgerStore.open(db, T, Clock.systemUTC())) {
            store.append(List.of(body("r0", 0)));
            ObjectNode bad = body("r0", 1).put("n", Double.NaN); // no JSON form: the whole batch fails
            assertThrows(RuntimeException.class, () -> store.append(List.of(body("r0", 2), bad)));
            assertEquals(1, store.size(), "nothing of the failed batch is stored");
            assertEquals(1, store.read(0, 5).size());

            byte[] root = new MerkleProofs(store.leaves()).root(1);
            String text = new Checkpoint(ringA.identity().origin(T), 1, root).text();
            byte[] byA = SignedNote.sign(text, List.of(ringA.keys(ringA.identity().origin(T)).checkpoint())).getBytes(StandardCharsets.UTF_8);
            byte[] byB = SignedNote.sign(text, List.of(ringB.keys(ringA.identity().origin(T)).checkpoint())).getBytes(StandardCharsets.UTF_8);
            store.putCheckpoint(1, byA);
            assertTrue(store.addSignatureLine(1, "\u2014 witness.example/w1 AAAA", l -> false));
            store.putCheckpoint(1, byA); // another replica signing the same size: nothing lost
            store.putCheckpoint(1, byB); // a co-signature: added
            String note = new String(store.latestCheckpoint().note(), StandardCharsets.UTF_8);
            assertTrue(note.contains("witness.example/w1 AAAA"), note);
            assertEquals(3, note.split("\n\u2014 ").length - 1, note);
            String other = new Checkpoint(ringA.identity().origin(T), 1, new byte[32]).text();
            assertThrows(LedgerStoreException.class, () -> store.putCheckpoint(1, SignedNote.sign(other,
                    List.of(ringA.keys(ringA.identity().origin(T)).checkpoint())).getBytes(StandardCharsets.UTF_8)));
        }
    }

    @Test
    void aReplicaSignsNoCheckpointOverEntriesThatDoNotChain() throws Exception {
        Ledger r0 = replica(ringA);
        try {
            r0.submit(body("r0", 0)).join();
            r0.checkpointNow();
            // "another replica" (anyone with the database's credentials) appends an entry that does not chain
            byte[] forged = EntryEnvelope.canonical(T, body("forger", 0), 1, "2026-12-02T00:00:00.000000Z", new byte[32]);
            try (java.sql.Connection c = db.getConnection()) {
                try (java.sql.PreparedStatement p = c.prepareStatement(
                        "INSERT INTO ledger_entries (tenant, seq, hash, bytes) VALUES (?, 1, ?, ?)")) {
                    p.setString(1, T);
                    p.setBytes(2, EntryHash.of(forged));
                    p.setBytes(3, forged);
                    p.executeUpdate();
                }
                try (java.sql.PreparedStatement p = c.prepareStatement(
                        "UPDATE ledger_heads SET next_seq = 2, last_hash = ? WHERE tenant = ?")) {
                    p.setBytes(1, EntryHash.of(forged));
                    p.setString(2, T);
                    p.executeUpdate();
                }
            }
            LedgerStoreException e = assertThrows(LedgerStoreException.class, r0::checkpointNow);
            assertTrue(e.getMessage().contains("do not chain on from entry 0"), e.getMessage());
            assertEquals(1, r0.store().latestCheckpoint().size(), "nothing signed over the forged entry");
        } finally {
            assertThrows(LedgerStoreException.class, r0::close, "nor as it closes");
        }
    }

    private static long count(LedgerStore store, String kind) throws Exception {
        return entries(store).stream().filter(e -> kind.equals(e.get("kind").asText())).count();
    }
}
