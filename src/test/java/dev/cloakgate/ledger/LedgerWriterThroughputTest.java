package dev.cloakgate.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerWriterThroughputTest {
    @TempDir
    Path dir;

    @Test
    void twentyThousandEntriesThroughTheWriter() throws Exception {
        int n = 20_000;
        int threads = 4;
        try (LedgerStore store = LedgerStore.open(dir, "bench")) {
            List<CompletableFuture<Long>> all = java.util.Collections.synchronizedList(new ArrayList<>());
            long t0 = System.nanoTime();
            try (LedgerWriter w = new LedgerWriter(store, 512, 65_536, 5_000)) {
                List<Thread> ts = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int base = t * (n / threads);
                    Thread th = new Thread(() -> {
                        for (int i = base; i < base + n / threads; i++) {
                            all.add(w.submit(LedgerStoreTest.body(i)));
                        }
                    });
                    th.start();
                    ts.add(th);
                }
                for (Thread th : ts) {
                    th.join();
                }
                CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
            }
            double secs = (System.nanoTime() - t0) / 1e9;
            double rate = n / secs;
            System.out.printf("LedgerWriter: %d entries in %.2f s = %.0f entries/s (synchronous=FULL, WAL, batch 512)%n", n, secs, rate);
            assertEquals(n, store.size());
            LedgerStoreTest.assertChainValid(store);
            assertTrue(rate > 1_000, "only " + rate + " entries/s");
        }
    }
}
