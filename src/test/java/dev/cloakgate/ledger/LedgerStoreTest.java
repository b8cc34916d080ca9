package dev.cloakgate.ledger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Jcs;

class LedgerStoreTest {
    private static final ObjectMapper M = new ObjectMapper();
    private static final String T = "acme";
    private final ChainVerifier verifier = new ChainVerifier();

    @TempDir
    Path dir;

    static ObjectNode body(int i) {
        return M.createObjectNode().put("kind", "tool_call").put("tool", "search").put("action", i % 2 == 0 ? "allow" : "block")
                .put("i", i).put("note", "caf\u00e9 \u2603");
    }

    static List<ObjectNode> bodies(int from, int n) {
        List<ObjectNode> out = new ArrayList<>();
        for (int i = from; i < from + n; i++) {
            out.add(body(i));
        }
        return out;
    }

    static void assertChainValid(LedgerStore store) {
        List<byte[]> all = store.read(0, store.lastSeq());
        assertEquals(store.size(), all.size());
        ChainVerifier.Result r = new ChainVerifier().verify(store.tenant(), all, EntryHash.GENESIS);
        assertTrue(r.valid(), () -> "chain fails: " + r.failures());
        if (!all.isEmpty()) {
            assertEquals(store.lastSeq(), r.lastSeq());
            assertArrayEquals(r.hashes().get(all.size() - 1), store.lastHash());
        }
    }

    @Test
    void theLedgerIsOwnerOnlyWithItsWalAndSharedMemoryFiles() throws Exception {
        try (LedgerStore store = LedgerStore.open(dir, T)) {
            store.append(bodies(0, 2));
            Path ledger = dir.resolve("ledger");
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(ledger)));
            for (String f : List.of(T + ".db", T + ".db-wal", T + ".db-shm")) {
                assertTrue(Files.exists(ledger.resolve(f)), f);
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(ledger.resolve(f))), f);
            }
        }
    }

    @Test
    void appendAndReadRoundTrip() {
        try (LedgerStore store = LedgerStore.open(dir, T)) {
            assertEquals(-1, store.lastSeq());
            List<LedgerStore.Appended> a = store.append(bodies(0, 3));
            List<LedgerStore.Appended> b = store.append(bodies(3, 2));
            assertEquals(List.of(0L, 1L, 2L), a.stream().map(LedgerStore.Appended::seq).toList());
            assertEquals(List.of(3L, 4L), b.stream().map(LedgerStore.Appended::seq).toList());
            List<byte[]> read = store.read(0, 4);
            assertEquals(5, read.size());
            for (int i = 0; i < 5; i++) {
                byte[] bytes = read.get(i);
                assertTrue(Jcs.isCanonical(bytes));
                assertArrayEquals(EntryHash.of(bytes), (i < 3 ? a.get(i) : b.get(i - 3)).hash());
                JsonNode e = Jcs.parseStrict(bytes) instanceof dev.cloakgate.crypto.StrictJson.Parsed p ? p.value() : null;
                assertEquals(1, e.get("v").asInt());
                assertEquals(T, e.get("tenant").asText());
                assertEquals(i, e.get("seq").asLong());
                assertEquals("tool_call", e.get("kind").asText());
                assertEquals(i, e.get("i").asInt());
                assertTrue(e.get("ts").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z"));
            }
            assertEquals("0".repeat(64), Jcs.parseStrict(read.get(0)) instanceof dev.cloakgate.crypto.StrictJson.Parsed p
                    ? p.value().get("prev").asText() : null);
            assertEquals(2, store.read(2, 3).size());
            assertEquals(0, store.read(2, 1).size());
            assertThrows(IndexOutOfBoundsException.class, () -> store.read(0, 5));
            assertChainValid(store);
        }
    }

    @Test
    void leafSourceMatchesTheMerkleTreeOfTheEntryHashes() {
        try (LedgerStore store = LedgerStore.open(dir, T)) {
            store.append(bodies(0, 7));
            ChainVerifier.Result r = verifier.verify(T, store.read(0, 6), EntryHash.GENESIS);
            MerkleTree expected = new MerkleTree();
            for (byte[] h : r.hashes()) {
                expected.append(h);
            }
            LeafSource leaves = store.leaves();
            assertEquals(7, leaves.size());
            assertArrayEquals(new TreeHasher().leaf(r.hashes().get(3)), leaves.leafHash(3));
            assertArrayEquals(expected.root(), MerkleTree.restore(leaves).root());
        }
    }

    @Test
    void reopenContinuesSeqAndPrev() {
        byte[] last;
        try (LedgerStore store = LedgerStore.open(dir, T)) {
            store.append(bodies(0, 10));
            last = store.lastHash();
        }
        try (LedgerStore store = LedgerStore.open(dir, T)) {
            assertEquals(9, store.lastSeq());
            assertArrayEquals(last, store.lastHash());
            assertEquals(10, store.append(bodies(10, 1)).get(0).seq());
            JsonNode e = M.valueToTree(parse(store.read(10, 10).get(0)));
            assertEquals(HexFormat.of().formatHex(last), e.get("prev").asText());
            assertChainValid(store);
        }
    }

    private static JsonNode parse(byte[] bytes) {
        try {
            return M.readTree(bytes);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void secondStoreOnTheSameDirIsRefused() {
        try (LedgerStore store = LedgerStore.open(dir, T)) {
            store.append(bodies(0, 1));
            LedgerLockedException e = assertThrows(LedgerLockedException.class, () -> LedgerStore.open(dir, T));
            assertTrue(e.getMessage().contains(dir.resolve("ledger").resolve(T + ".lock").toString()), e.getMessage());
            assertTrue(e.getMessage().contains("another gateway holds"), e.getMessage());
            // the refused attempt must not have broken the first store's lock or connection
            store.append(bodies(1, 1));
            assertThrows(LedgerLockedException.class, () -> LedgerStore.open(dir, T));
            try (LedgerStore other = LedgerStore.open(dir, "other-tenant")) {
                assertEquals(0, other.size());
            }
        }
        try (LedgerStore again = LedgerStore.open(dir, T)) {
            assertEquals(2, again.size());
        }
    }

    @Test
    void aBatchIsAllOrNothing() {
        try (LedgerStore store = LedgerStore.open(dir, T)) {
            store.append(bodies(0, 3));
            byte[] last = store.lastHash();
            List<ObjectNode> batch = bodies(3, 5);
            batch.get(3).put("micros", Double.NaN); // no JSON form: canonicalisation throws after 3 rows were inserted
            assertThrows(IllegalArgumentException.class, () -> store.append(batch));
            assertEquals(3, store.size());
            assertArrayEquals(last, store.lastHash());
            List<ObjectNode> envelope = bodies(3, 2);
            envelope.get(1).put("seq", 99);
            assertThrows(IllegalArgumentException.class, () -> store.append(envelope));
            assertEquals(3, store.size());
            assertEquals(3, store.append(bodies(3, 1)).get(0).seq());
            assertChainValid(store);
        }
        try (SqliteLedgerStore store = LedgerStore.open(dir, T)) {
            assertEquals(4, store.size());
            assertEquals(4, rowCount(store.dbFile()));
            assertChainValid(store);
        }
    }

    @Test
    void refusesToOpenWhenTheTailEntryIsDamaged() throws Exception {
        try (LedgerStore store = LedgerStore.open(dir, T)) {
            store.append(bodies(0, 3));
        }
        Path db = dir.resolve("ledger").resolve(T + ".db");
        try (Connection c = org.sqlite.JDBC.createConnection("jdbc:sqlite:" + db, new java.util.Properties()); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE entries SET bytes = replace(bytes, 'search', 'delete') WHERE seq = 2");
        }
        LedgerStoreException e = assertThrows(LedgerStoreException.class, () -> LedgerStore.open(dir, T));
        assertTrue(e.getMessage().contains("seq 2") && e.getMessage().contains("not the hash of its bytes"), e.getMessage());
        // the refused open released the lock
        try (Connection c = org.sqlite.JDBC.createConnection("jdbc:sqlite:" + db, new java.util.Properties()); Statement s = c.createStatement()) {
            s.executeUpdate("DELETE FROM entries WHERE seq = 2");
        }
        try (LedgerStore store = LedgerStore.open(dir, T)) {
            assertEquals(1, store.lastSeq());
        }
    }

    @Test
    void writerGroupCommitsAndFlushesOnClose() throws Exception {
        try (LedgerStore store = LedgerStore.open(dir, T)) {
            List<CompletableFuture<Long>> fs = new ArrayList<>();
            try (LedgerWriter w = new LedgerWriter(store)) {
                for (int i = 0; i < 1000; i++) {
                    fs.add(w.submit(body(i)));
                }
                ObjectNode bad = body(1000).put("x", Double.NaN);
                CompletableFuture<Long> badF = w.submit(bad);
                fs.add(w.submit(body(1001)));
                assertThrows(Exception.class, () -> badF.get(10, TimeUnit.SECONDS));
            }
            for (int i = 0; i < fs.size(); i++) {
                assertEquals(i, fs.get(i).getNow(-1L));
            }
            assertEquals(1001, store.size());
            assertChainValid(store);
        }
    }

    @Test
    void writerFailsSubmitsWhenTheQueueIsFullOrClosed() throws Exception {
        try (LedgerStore store = LedgerStore.open(dir, T)) {
            LedgerWriter w;
            CompletableFuture<Long> overflow;
            synchronized (store) { // holds the writer thread inside append, so the queue fills
                w = new LedgerWriter(store, 1, 2, 10);
                List<CompletableFuture<Long>> fs = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    fs.add(w.submit(body(i)));
                }
                overflow = fs.get(9);
            }
            assertThrows(Exception.class, () -> overflow.get(10, TimeUnit.SECONDS));
            w.close();
            assertThrows(Exception.class, () -> w.submit(body(99)).get(1, TimeUnit.SECONDS));
            assertChainValid(store);
        }
    }

    static long rowCount(Path db) {
        try (Connection c = org.sqlite.JDBC.createConnection("jdbc:sqlite:" + db, new java.util.Properties()); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM entries")) {
            return rs.next() ? rs.getLong(1) : 0;
        } catch (java.sql.SQLException e) {
            return -1; // not there yet, or busy: the caller polls
        }
    }

    @Test
    void checkpointsAreStoredAndListedBySize() {
        try (LedgerStore store = LedgerStore.open(dir, T)) {
            store.append(bodies(0, 5));
            assertEquals(null, store.latestCheckpoint());
            store.putCheckpoint(2, "two".getBytes());
            store.putCheckpoint(5, "five".getBytes());
            assertThrows(IllegalArgumentException.class, () -> store.putCheckpoint(6, "six".getBytes()), "beyond the log");
            assertThrows(IllegalArgumentException.class, () -> store.putCheckpoint(0, "zero".getBytes()), "empty tree");
            assertEquals(5, store.latestCheckpoint().size());
            assertEquals("five", new String(store.latestCheckpoint().note()));
            assertEquals(List.of(2L), store.checkpoints(1, 4).stream().map(LedgerStore.StoredCheckpoint::size).toList());
            store.putCheckpoint(5, "five again".getBytes());
            assertEquals("five again", new String(store.latestCheckpoint().note()), "re-signing replaces");
            List<byte[]> hashes = store.hashes(1, 3);
            assertEquals(3, hashes.size());
            assertArrayEquals(store.hash(2), hashes.get(1));
        }
    }

    @Test
    void aReadOnlyStoreReadsBesideTheWriterAndCannotAppend() {
        try (LedgerStore writer = LedgerStore.open(dir, T)) {
            writer.append(bodies(0, 3));
            writer.putCheckpoint(3, "cp".getBytes());
            try (LedgerStore reader = LedgerStore.openReadOnly(dir, T)) {
                assertEquals(3, reader.size());
                assertEquals(1, reader.checkpoints(1, 3).size());
                writer.append(bodies(3, 2));
                assertEquals(3, reader.size(), "a snapshot until refreshed");
                reader.refresh();
                assertEquals(5, reader.size());
                assertArrayEquals(writer.read(4, 4).get(0), reader.read(4, 4).get(0));
                assertThrows(IllegalStateException.class, () -> reader.append(bodies(5, 1)));
                assertThrows(IllegalStateException.class, () -> reader.putCheckpoint(5, "x".getBytes()));
            }
        }
        assertThrows(LedgerStoreException.class, () -> LedgerStore.openReadOnly(dir, "nobody"), "no ledger, no reader");
    }
}
