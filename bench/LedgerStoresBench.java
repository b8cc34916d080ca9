import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.ledger.Ledger;
import dev.cloakgate.ledger.LedgerKeyring;
import dev.cloakgate.ledger.LogIdentity;
import dev.cloakgate.ledger.PostgresLedgerStore;
import dev.cloakgate.testing.PooledDataSource;
import dev.cloakgate.testing.TestPostgres;
import io.agroal.api.AgroalDataSource;

/**
 * Issue 17: ledger append throughput and latency through {@code Ledger.submit} (group commit included) on SQLite and
 * on PostgreSQL side by side in one run, and two writers (two replicas' ledgers) on one PostgreSQL log.
 *
 * <p>Per store: a saturation run (producers submit as fast as the queue takes them, for {@code bench.seconds}):
 * entries committed per second; then a paced run at {@code bench.rate} entries/s: p50/p99 of a submit's time to its
 * durable commit (what a call waiting for its entry would see) and of the submit call itself (what a call pays).
 * Run by {@code bash bench/ledger-stores.sh}.
 */
public class LedgerStoresBench {
    static final ObjectMapper M = new ObjectMapper();
    static final LedgerKeyring RING = new LedgerKeyring(Ed25519SigningKey.fromSeed(filled(7)), Optional.empty(),
            LogIdentity.configured("bench.example"));

    public static void main(String[] args) throws Exception {
        long seconds = Long.getLong("bench.seconds", 15);
        int rate = Integer.getInteger("bench.rate", 2000);
        Path dir = Files.createTempDirectory(Path.of(System.getProperty("bench.dir", System.getProperty("java.io.tmpdir"))),
                "ledger-stores");
        System.out.println("{\"machine\":\"" + Runtime.getRuntime().availableProcessors() + " cores, java "
                + System.getProperty("java.version") + "\",\"dir\":\"" + dir + "\",\"fs\":\"" + Files.getFileStore(dir).type()
                + "\",\"seconds\":" + seconds + ",\"paced_rate\":" + rate + "}");
        try {
            run("sqlite, 1 writer", 1, seconds, rate, settings -> Ledger.open(dir.resolve("sqlite"), "bench", RING, settings));
            TestPostgres.Database db = TestPostgres.server().database("ledger_bench").migrated();
            try (AgroalDataSource pool = PooledDataSource.of(db, 16)) {
                run("postgresql, 1 writer", 1, seconds, rate, settings -> Ledger.open(PostgresLedgerStore.open(pool, "bench",
                        settings.clock()), RING, settings));
                run("postgresql, 2 writers (two replicas' ledgers, one log)", 2, seconds, rate,
                        settings -> Ledger.open(PostgresLedgerStore.open(pool, "bench2", settings.clock()), RING, settings));
            }
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        System.exit(0);
    }

    interface Opener {
        Ledger open(Ledger.Settings settings);
    }

    static void run(String what, int writers, long seconds, int rate, Opener opener) throws Exception {
        Samples commitNs = new Samples();
        Ledger.Settings settings = Ledger.Settings.defaults().withAppendObserver(commitNs::add);
        List<Ledger> ledgers = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            ledgers.add(opener.open(settings));
        }
        try {
            saturate(ledgers, Duration.ofSeconds(2)); // warm-up
            commitNs.clear();
            long[] r = saturate(ledgers, Duration.ofSeconds(seconds));
            System.out.printf(Locale.ROOT, "{\"measure\":\"append, saturated\",\"store\":\"%s\",\"committed\":%d,\"rejected\":%d,"
                    + "\"seconds\":%.2f,\"committed_per_s\":%.0f}%n", what, r[0], r[1], r[2] / 1e9, r[0] / (r[2] / 1e9));
            commitNs.clear();
            Samples submitNs = paced(ledgers, rate, Duration.ofSeconds(Math.max(5, seconds / 2)));
            long[] c = commitNs.percentiles();
            long[] s = submitNs.percentiles();
            System.out.printf(Locale.ROOT, "{\"measure\":\"append at %d entries/s\",\"store\":\"%s\",\"entries\":%d,"
                    + "\"commit_p50_ms\":%.2f,\"commit_p99_ms\":%.2f,\"submit_p50_us\":%.1f,\"submit_p99_us\":%.1f}%n",
                    rate, what, c[2], c[0] / 1e6, c[1] / 1e6, s[0] / 1e3, s[1] / 1e3);
            long size = ledgers.get(0).size();
            ledgers.get(0).checkpointNow();
            System.out.printf(Locale.ROOT, "{\"measure\":\"log after the runs\",\"store\":\"%s\",\"entries\":%d}%n", what, size);
        } finally {
            ledgers.forEach(Ledger::close);
        }
    }

    /** One producer thread per ledger submitting as fast as the queue takes it: {committed, rejected, nanos}. */
    static long[] saturate(List<Ledger> ledgers, Duration d) throws Exception {
        AtomicLong committed = new AtomicLong();
        AtomicLong rejected = new AtomicLong();
        long t0 = System.nanoTime();
        long end = t0 + d.toNanos();
        List<Thread> threads = new ArrayList<>();
        for (Ledger l : ledgers) {
            Bodies bodies = new Bodies();
            Thread t = new Thread(() -> {
                while (System.nanoTime() < end) {
                    l.submit(bodies.next()).whenComplete((seq, e) -> (e == null ? committed : rejected).incrementAndGet());
                }
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        ledgers.forEach(Ledger::flush);
        return new long[] { committed.get(), rejected.get(), System.nanoTime() - t0 };
    }

    /** {@code rate} entries/s in total, spread over the ledgers; the submit call's own time per entry. */
    static Samples paced(List<Ledger> ledgers, int rate, Duration d) throws Exception {
        Samples submitNs = new Samples();
        long period = 1_000_000_000L * ledgers.size() / rate;
        List<Thread> threads = new ArrayList<>();
        long t0 = System.nanoTime();
        long n = d.toNanos() / period;
        for (Ledger l : ledgers) {
            Bodies bodies = new Bodies();
            Thread t = new Thread(() -> {
                List<CompletableFuture<Long>> all = new ArrayList<>();
                for (long i = 0; i < n; i++) {
                    long due = t0 + i * period;
                    while (System.nanoTime() < due) {
                        Thread.onSpinWait();
                    }
                    ObjectNode b = bodies.next();
                    long s = System.nanoTime();
                    all.add(l.submit(b));
                    long took = System.nanoTime() - s;
                    synchronized (submitNs) {
                        submitNs.add(took);
                    }
                }
                all.forEach(f -> f.handle((x, e) -> null).join());
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        return submitNs;
    }

    /** Entry bodies of the size a decision entry has (about 400 bytes of JCS). */
    static final class Bodies implements Supplier<ObjectNode> {
        long i;

        ObjectNode next() {
            i++;
            ObjectNode b = M.createObjectNode().put("kind", "decision").put("stage", "request")
                    .put("session", "s" + Long.toHexString(i * 0x9E3779B97F4A7C15L)).put("upstream", "fs")
                    .put("tool", "read_text_file").put("action", i % 7 == 0 ? "block" : "allow");
            b.putArray("controls").add("path_sandbox");
            b.putObject("payload").put("bytes", 100 + i % 900).put("hmac_sha256", Long.toHexString(i) + "0".repeat(48));
            return b;
        }

        @Override
        public ObjectNode get() {
            return next();
        }
    }

    static final class Samples {
        private long[] a = new long[1 << 16];
        private int n;

        synchronized void add(long v) {
            if (n == a.length) {
                a = Arrays.copyOf(a, a.length * 2);
            }
            a[n++] = v;
        }

        synchronized void clear() {
            n = 0;
        }

        /** p50, p99, count. */
        synchronized long[] percentiles() {
            if (n == 0) {
                return new long[] { 0, 0, 0 };
            }
            long[] s = Arrays.copyOf(a, n);
            Arrays.sort(s);
            return new long[] { s[n / 2], s[(int) (n * 0.99)], n };
        }
    }

    static byte[] filled(int v) {
        byte[] b = new byte[32];
        Arrays.fill(b, (byte) v);
        return b;
    }
}
