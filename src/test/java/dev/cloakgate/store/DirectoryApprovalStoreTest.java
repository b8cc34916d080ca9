package dev.cloakgate.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Receipts in a directory: names, size, atomic put, and waits released by put, by another writer, or by time. */
class DirectoryApprovalStoreTest {
    private static final Duration LONG = Duration.ofHours(1);

    @TempDir
    Path data;

    private final List<DirectoryApprovalStore> opened = new ArrayList<>();

    @AfterEach
    void close() {
        opened.forEach(DirectoryApprovalStore::close);
    }

    private DirectoryApprovalStore store() {
        DirectoryApprovalStore s = new DirectoryApprovalStore(DirectoryApprovalStore.defaultDir(data, "acme"));
        opened.add(s);
        return s;
    }

    static String fp(int i) {
        byte[] b = new byte[32];
        Arrays.fill(b, (byte) i);
        return HexFormat.of().formatHex(b);
    }

    static byte[] receipt(String text) {
        return ("{\"payloadType\":\"application/vnd.in-toto+json\",\"payload\":\"" + text + "\",\"signatures\":[]}")
                .getBytes(StandardCharsets.UTF_8);
    }

    static void eventually(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what);
            Thread.sleep(10);
        }
    }

    @Test
    void putStoresTheReceiptOwnerOnlyUnderItsFingerprintAndFindReadsIt() throws Exception {
        DirectoryApprovalStore s = store();
        assertEquals(data.resolve("approvals").resolve("acme"), s.dir());
        assertEquals(Optional.empty(), s.find(fp(1)), "no directory yet: no receipt");
        s.put(fp(1), receipt("one"));
        Path file = s.dir().resolve(fp(1) + ".approval.json");
        assertArrayEquals(receipt("one"), Files.readAllBytes(file));
        assertArrayEquals(receipt("one"), s.find(fp(1)).orElseThrow());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(s.dir())));
        assertEquals(Optional.empty(), s.find(fp(2)));

        s.put(fp(1), receipt("two"));
        assertArrayEquals(receipt("two"), s.find(fp(1)).orElseThrow());
        try (var names = Files.list(s.dir())) {
            assertEquals(List.of(fp(1) + ".approval.json"), names.map(p -> p.getFileName().toString()).toList(),
                    "no temporary file is left behind");
        }
    }

    @Test
    void onlySixtyFourLowerCaseHexDigitsNameAReceipt() {
        DirectoryApprovalStore s = store();
        String[] bad = {"", fp(0xab).toUpperCase(), fp(1).substring(1), fp(1) + "0", "../" + fp(1).substring(3),
                fp(1) + ".approval.json", fp(1).substring(1) + "g", fp(1).substring(2) + "\n", null};
        for (String name : bad) {
            for (Runnable r : List.<Runnable>of(() -> s.find(name), () -> s.put(name, receipt("x")), () -> s.await(name, LONG))) {
                ApprovalStoreException e = assertThrows(ApprovalStoreException.class, r::run, String.valueOf(name));
                assertEquals("fingerprint_invalid", e.code());
            }
        }
        assertFalse(Files.exists(s.dir()), "nothing was written");
        assertEquals(0, s.waiting());
    }

    @Test
    void aReceiptOverSixtyFourKibibytesIsRefusedNotCut() throws Exception {
        DirectoryApprovalStore s = store();
        Files.createDirectories(s.dir());
        byte[] limit = new byte[64 * 1024];
        Arrays.fill(limit, (byte) ' ');
        Files.write(s.dir().resolve(fp(1) + ".approval.json"), limit);
        assertEquals(64 * 1024, s.find(fp(1)).orElseThrow().length);

        Files.write(s.dir().resolve(fp(2) + ".approval.json"), Arrays.copyOf(limit, limit.length + 1));
        ApprovalStoreException big = assertThrows(ApprovalStoreException.class, () -> s.find(fp(2)));
        assertEquals("approval_unreadable", big.code());
        assertTrue(big.getMessage().contains("larger than 65536 bytes"), big.getMessage());

        ApprovalStoreException put = assertThrows(ApprovalStoreException.class, () -> s.put(fp(3), Arrays.copyOf(limit, limit.length + 1)));
        assertEquals("approval_too_large", put.code());
        assertEquals("approval_too_large", assertThrows(ApprovalStoreException.class, () -> s.put(fp(3), new byte[0])).code());
        assertFalse(Files.exists(s.dir().resolve(fp(3) + ".approval.json")));
    }

    @Test
    void aReceiptThatIsNotARegularFileIsUnreadable() throws Exception {
        DirectoryApprovalStore s = store();
        Files.createDirectories(s.dir().resolve(fp(1) + ".approval.json"));
        assertEquals("approval_unreadable", assertThrows(ApprovalStoreException.class, () -> s.find(fp(1))).code());
        Path elsewhere = Files.write(data.resolve("elsewhere.json"), receipt("x"));
        Files.createSymbolicLink(s.dir().resolve(fp(2) + ".approval.json"), elsewhere);
        assertEquals("approval_unreadable", assertThrows(ApprovalStoreException.class, () -> s.find(fp(2))).code());
    }

    @Test
    void aWaitIsReleasedByPutAtOnce() throws Exception {
        DirectoryApprovalStore s = store();
        CompletableFuture<byte[]> waiting = s.await(fp(1), LONG);
        CompletableFuture<byte[]> other = s.await(fp(2), LONG);
        assertFalse(waiting.isDone());
        s.put(fp(1), receipt("one"));
        assertTrue(waiting.isDone(), "put hands the receipt over before it returns");
        assertArrayEquals(receipt("one"), waiting.get());
        assertFalse(other.isDone(), "another fingerprint's wait goes on");
        other.cancel(true);
        eventually(() -> s.waiting() == 0 && !s.polling(), "the waits are forgotten");
    }

    @Test
    void aWaitIsReleasedByAReceiptFileAnotherWriterDrops() throws Exception {
        DirectoryApprovalStore s = store();
        CompletableFuture<byte[]> renamed = s.await(fp(1), LONG);
        CompletableFuture<byte[]> written = s.await(fp(2), LONG);
        // as `approve --out` does: another store (another process) writes it whole and renames it into place
        new DirectoryApprovalStore(s.dir()).put(fp(1), receipt("from approve"));
        assertArrayEquals(receipt("from approve"), renamed.get(30, TimeUnit.SECONDS));

        // a writer that writes in place: half a receipt is not handed over, the whole one is
        byte[] whole = receipt("written in place");
        Path target = s.dir().resolve(fp(2) + ".approval.json");
        Files.write(target, Arrays.copyOf(whole, whole.length / 2));
        Thread.sleep(3 * DirectoryApprovalStore.POLL.toMillis());
        assertFalse(written.isDone(), "half a receipt is not a receipt");
        Files.write(target, whole);
        assertArrayEquals(whole, written.get(30, TimeUnit.SECONDS));
        eventually(() -> s.waiting() == 0 && !s.polling(), "polling stops when nobody waits");
    }

    @Test
    void aWaitForAReplacementSkipsTheReceiptAlreadyRejected() throws Exception {
        DirectoryApprovalStore s = store();
        s.put(fp(1), receipt("expired"));
        assertArrayEquals(receipt("expired"), s.await(fp(1), LONG).get(30, TimeUnit.SECONDS), "one already there is handed over");

        CompletableFuture<byte[]> replacement = s.await(fp(1), LONG, receipt("expired"));
        Thread.sleep(3 * DirectoryApprovalStore.POLL.toMillis());
        assertFalse(replacement.isDone(), "the rejected receipt is not handed over again");
        s.put(fp(1), receipt("expired"));
        assertFalse(replacement.isDone(), "nor when it is stored again");
        Files.move(Files.write(s.dir().resolve("incoming.tmp"), receipt("fresh")), s.dir().resolve(fp(1) + ".approval.json"),
                StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        assertArrayEquals(receipt("fresh"), replacement.get(30, TimeUnit.SECONDS));
    }

    @Test
    void aWaitEndsWithNullWhenItsTimeIsUp() throws Exception {
        DirectoryApprovalStore s = store();
        CompletableFuture<byte[]> w = s.await(fp(1), Duration.ofMillis(300));
        assertNull(w.get(30, TimeUnit.SECONDS));
        eventually(() -> s.waiting() == 0 && !s.polling(), "an ended wait is forgotten and polling stops");
        s.put(fp(1), receipt("too late"));
        assertNull(w.getNow(receipt("not this")));
    }

    @Test
    void cancellingAWaitStopsItsPolling() throws Exception {
        DirectoryApprovalStore s = store();
        CompletableFuture<byte[]> w = s.await(fp(1), LONG);
        assertTrue(s.polling());
        assertEquals(1, s.waiting());
        assertTrue(w.cancel(true));
        assertEquals(0, s.waiting());
        assertFalse(s.polling());
        assertThrows(CancellationException.class, w::join);
    }

    @Test
    void manyWaitsShareOnePollThreadAndCloseEndsThemAll() throws Exception {
        DirectoryApprovalStore s = new DirectoryApprovalStore(DirectoryApprovalStore.defaultDir(data, "many"));
        opened.add(s);
        List<CompletableFuture<byte[]>> ws = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            ws.add(s.await(fp(i % 50), LONG));
        }
        Thread.sleep(3 * DirectoryApprovalStore.POLL.toMillis());
        long pollers = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("approvals-poll many")).count();
        assertEquals(1, pollers);
        s.close();
        for (CompletableFuture<byte[]> w : ws) {
            assertNull(w.get(30, TimeUnit.SECONDS));
        }
        assertThrows(IllegalStateException.class, () -> s.await(fp(1), LONG));
    }
}
