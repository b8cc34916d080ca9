package dev.cloakgate.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
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

/**
 * The contract of every {@link ApprovalStore} (issue 17: a directory and PostgreSQL): names and sizes, replacing put,
 * and waits released by put, by another writer on the same storage (another process, another replica), or by time.
 */
abstract class ApprovalStoreContract {
    static final Duration LONG = Duration.ofHours(1);

    final List<ApprovalStore> opened = new ArrayList<>();

    /** A new store of {@code tenant} on this test's storage; every one sees what the others put. */
    abstract PolledApprovalStore open(String tenant);

    /** The poll interval of the stores under test. */
    abstract Duration poll();

    @AfterEach
    void close() {
        opened.forEach(ApprovalStore::close);
    }

    PolledApprovalStore store() {
        return store("acme");
    }

    PolledApprovalStore store(String tenant) {
        PolledApprovalStore s = open(tenant);
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
    void putStoresTheReceiptUnderItsFingerprintAndReplacesIt() throws Exception {
        PolledApprovalStore s = store();
        assertEquals(Optional.empty(), s.find(fp(1)));
        s.put(fp(1), receipt("one"));
        assertArrayEquals(receipt("one"), s.find(fp(1)).orElseThrow());
        assertArrayEquals(receipt("one"), store().find(fp(1)).orElseThrow(), "another store on the same storage finds it");
        assertEquals(Optional.empty(), s.find(fp(2)));
        s.put(fp(1), receipt("two"));
        assertArrayEquals(receipt("two"), s.find(fp(1)).orElseThrow());
        assertEquals(Optional.empty(), store("globex").find(fp(1)), "another tenant's receipts are its own");
    }

    @Test
    void onlySixtyFourLowerCaseHexDigitsNameAReceipt() {
        PolledApprovalStore s = store();
        String[] bad = {"", fp(0xab).toUpperCase(), fp(1).substring(1), fp(1) + "0", "../" + fp(1).substring(3),
                fp(1) + ".approval.json", fp(1).substring(1) + "g", fp(1).substring(2) + "\n", null};
        for (String name : bad) {
            for (Runnable r : List.<Runnable>of(() -> s.find(name), () -> s.put(name, receipt("x")), () -> s.await(name, LONG))) {
                ApprovalStoreException e = assertThrows(ApprovalStoreException.class, r::run, String.valueOf(name));
                assertEquals("fingerprint_invalid", e.code());
            }
        }
        assertEquals(0, s.waiting());
    }

    @Test
    void aReceiptOverSixtyFourKibibytesOrEmptyIsRefused() {
        PolledApprovalStore s = store();
        byte[] limit = new byte[64 * 1024];
        Arrays.fill(limit, (byte) ' ');
        s.put(fp(1), limit);
        assertEquals(64 * 1024, s.find(fp(1)).orElseThrow().length);
        ApprovalStoreException put = assertThrows(ApprovalStoreException.class, () -> s.put(fp(3), Arrays.copyOf(limit, limit.length + 1)));
        assertEquals("approval_too_large", put.code());
        assertEquals("approval_too_large", assertThrows(ApprovalStoreException.class, () -> s.put(fp(3), new byte[0])).code());
        assertEquals(Optional.empty(), s.find(fp(3)));
    }

    @Test
    void aWaitIsReleasedByPutAtOnce() throws Exception {
        PolledApprovalStore s = store();
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
    void aWaitIsReleasedByAReceiptAnotherWriterStores() throws Exception {
        PolledApprovalStore s = store();
        CompletableFuture<byte[]> w = s.await(fp(1), LONG);
        // another process (another replica, `approve`) stores it on the same storage
        store().put(fp(1), receipt("from elsewhere"));
        assertArrayEquals(receipt("from elsewhere"), w.get(30, TimeUnit.SECONDS));
        eventually(() -> s.waiting() == 0 && !s.polling(), "polling stops when nobody waits");
    }

    @Test
    void aWaitForAReplacementSkipsTheReceiptAlreadyRejected() throws Exception {
        PolledApprovalStore s = store();
        s.put(fp(1), receipt("expired"));
        assertArrayEquals(receipt("expired"), s.await(fp(1), LONG).get(30, TimeUnit.SECONDS), "one already there is handed over");

        CompletableFuture<byte[]> replacement = s.await(fp(1), LONG, receipt("expired"));
        Thread.sleep(3 * poll().toMillis());
        assertFalse(replacement.isDone(), "the rejected receipt is not handed over again");
        s.put(fp(1), receipt("expired"));
        assertFalse(replacement.isDone(), "nor when it is stored again");
        store().put(fp(1), receipt("fresh"));
        assertArrayEquals(receipt("fresh"), replacement.get(30, TimeUnit.SECONDS));
    }

    @Test
    void aWaitEndsWithNullWhenItsTimeIsUp() throws Exception {
        PolledApprovalStore s = store();
        CompletableFuture<byte[]> w = s.await(fp(1), Duration.ofMillis(300));
        assertNull(w.get(30, TimeUnit.SECONDS));
        eventually(() -> s.waiting() == 0 && !s.polling(), "an ended wait is forgotten and polling stops");
        s.put(fp(1), receipt("too late"));
        assertNull(w.getNow(receipt("not this")));
    }

    @Test
    void cancellingAWaitStopsItsPolling() throws Exception {
        PolledApprovalStore s = store();
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
        PolledApprovalStore s = store("many");
        List<CompletableFuture<byte[]>> ws = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            ws.add(s.await(fp(i % 50), LONG));
        }
        Thread.sleep(3 * poll().toMillis());
        long pollers = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("approvals-poll many")).count();
        assertEquals(1, pollers);
        s.close();
        for (CompletableFuture<byte[]> w : ws) {
            assertNull(w.get(30, TimeUnit.SECONDS));
        }
        assertThrows(IllegalStateException.class, () -> s.await(fp(1), LONG));
    }
}
