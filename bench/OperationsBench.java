import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cloakgate.store.OperationState;
import dev.cloakgate.store.OperationStore;
import dev.cloakgate.store.PostgresOperationStore;
import dev.cloakgate.store.SqliteOperationStore;

/**
 * The operations store on the gated call path (issue 11), on a real SQLite file (WAL, synchronous=FULL) in a temp
 * dir on the machine's disk: {@code begin} (fsynced before the call may be forwarded), {@code settle} with a
 * typical cloaked result (~600 bytes), both together, and the replay of a done call; beside them the disk's floor,
 * one 4 KiB write and fsync. One thread, as one call sees it (the store serialises its calls).
 * Issue 17: the same on PostgreSQL ({@link PostgresOperationStore}, the server {@code operations.sh} starts with its
 * defaults, fsync and synchronous_commit on, on the same disk; or {@code BENCH_PG_URL}) in the same run, one pooled
 * connection reused as the gateway's pool does, and the throughput of 4 threads beginning and settling at once.
 * Run with {@code bash bench/operations.sh}.
 */
public class OperationsBench {
    public static void main(String[] args) throws Exception {
        int calls = Integer.getInteger("bench.calls", 20_000);
        Path root = Path.of(System.getProperty("bench.dir", System.getProperty("java.io.tmpdir")));
        Path dir = Files.createTempDirectory(root, "operations-bench");
        System.out.println("{\"machine\":\"" + Runtime.getRuntime().availableProcessors() + " cores, java "
                + System.getProperty("java.version") + "\",\"dir\":\"" + dir + "\",\"fs\":\"" + Files.getFileStore(dir).type() + "\"}");
        try {
            fsync(dir.resolve("probe"), calls);
            operations(dir, calls);
        } finally {
            try (Stream<Path> all = Files.walk(dir)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    static void fsync(Path file, int calls) throws Exception {
        long[] ns = new long[calls];
        ByteBuffer page = ByteBuffer.allocateDirect(4096);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            for (int i = 0; i < calls; i++) {
                page.clear();
                long t = System.nanoTime();
                ch.write(page, (long) (i % 256) * 4096);
                ch.force(false);
                ns[i] = System.nanoTime() - t;
            }
        }
        report("fsync 4 KiB (disk floor)", ns);
    }

    static void operations(Path dir, int calls) throws Exception {
        ObjectMapper m = new ObjectMapper();
        JsonNode result = m.readTree("{\"content\":[{\"type\":\"text\",\"text\":\"Invoice INV-20431 for [EMAIL_0] marked paid: "
                + "amount 1,240.00 EUR, reference [IBAN_0], approved by [PERSON_0] on 2026-12-02. " + "x".repeat(300) + "\"}],"
                + "\"structuredContent\":{\"invoice\":\"INV-20431\",\"status\":\"paid\",\"amount\":1240.0},\"isError\":false}");
        OperationStore.Start start = new OperationStore.Start("bench", "crm__mark_paid", "crm", "3f9a1c2e", "sha256:" + "ab".repeat(32), "task-1");
        try (SqliteOperationStore store = SqliteOperationStore.openForGateway(dir, "bench")) {
            measure("sqlite", store, start, result, calls);
            System.out.printf(Locale.ROOT, "{\"label\":\"sqlite store size\",\"rows\":%d,\"dbBytes\":%d}%n", calls + 2_000,
                    Files.size(store.dbFile()) + Files.size(store.dbFile().resolveSibling("bench.db-wal")));
        }
        String url = System.getProperty("bench.pg.url", "");
        if (url.isEmpty()) {
            System.out.println("{\"label\":\"postgresql\",\"skipped\":\"no bench.pg.url (operations.sh starts one)\"}");
            return;
        }
        org.postgresql.ds.PGSimpleDataSource pg = new org.postgresql.ds.PGSimpleDataSource();
        pg.setUrl(url);
        pg.setUser(System.getProperty("bench.pg.user"));
        pg.setPassword(System.getProperty("bench.pg.password"));
        org.flywaydb.core.Flyway.configure().dataSource(pg).locations("classpath:db/migration").load().migrate();
        try (java.sql.Connection c = pg.getConnection()) {
            javax.sql.DataSource one = reused(c);
            OperationStore.Start pgStart = new OperationStore.Start("bench", start.tool(), start.upstream(), start.session(),
                    start.approval(), start.taskId());
            measure("postgresql", PostgresOperationStore.openForGateway(one, "bench", "r0", java.time.Duration.ofSeconds(30),
                    java.time.Clock.systemUTC()), pgStart, result, calls);
        }
        concurrent(pg, result, calls);
    }

    /** begin, settle, both and replay, one thread; the store's kind in each label. */
    static void measure(String kind, OperationStore store, OperationStore.Start start, JsonNode result, int calls) {
        for (int i = 0; i < 2_000; i++) { // warm-up, not counted
            store.begin("warm-" + i, start);
            store.settle("warm-" + i, OperationState.DONE, result);
        }
        long[] begin = new long[calls];
        long[] settle = new long[calls];
        long[] both = new long[calls];
        long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            String id = "op-" + i;
            long a = System.nanoTime();
            if (!(store.begin(id, start) instanceof OperationStore.Begin.Started)) {
                throw new IllegalStateException("not started: " + id);
            }
            long b = System.nanoTime();
            store.settle(id, OperationState.DONE, result);
            long c = System.nanoTime();
            begin[i] = b - a;
            settle[i] = c - b;
            both[i] = c - a;
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        report(kind + ": begin (durable before forwarding)", begin);
        report(kind + ": settle done with result", settle);
        report(kind + ": begin + settle", both);
        System.out.printf(Locale.ROOT, "{\"label\":\"%s: begin + settle sustained\",\"calls\":%d,\"callsPerSec\":%.0f}%n", kind,
                calls, calls / secs);
        long[] replay = new long[calls];
        for (int i = 0; i < calls; i++) {
            long a = System.nanoTime();
            if (!(store.begin("op-" + i, start) instanceof OperationStore.Begin.Replay)) {
                throw new IllegalStateException("no replay: op-" + i);
            }
            replay[i] = System.nanoTime() - a;
        }
        report(kind + ": begin of a done call (replay)", replay);
    }

    /** PostgreSQL only (SQLite serialises a store's calls): 4 threads, each its own connection, begin + settle. */
    static void concurrent(javax.sql.DataSource pg, JsonNode result, int calls) throws Exception {
        int threads = 4;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        java.util.List<java.util.concurrent.Future<?>> fs = new java.util.ArrayList<>();
        OperationStore.Start start = new OperationStore.Start("bench4", "crm__mark_paid", "crm", "3f9a1c2e", null, "task-1");
        long t0 = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            fs.add(pool.submit(() -> {
                try (java.sql.Connection c = pg.getConnection()) {
                    OperationStore s = PostgresOperationStore.openForGateway(reused(c), "bench4", "r" + thread,
                            java.time.Duration.ofSeconds(30), java.time.Clock.systemUTC());
                    for (int i = 0; i < calls / threads; i++) {
                        s.begin("op-" + thread + "-" + i, start);
                        s.settle("op-" + thread + "-" + i, OperationState.DONE, result);
                    }
                }
                return null;
            }));
        }
        for (java.util.concurrent.Future<?> f : fs) {
            f.get();
        }
        pool.shutdown();
        double secs = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "{\"label\":\"postgresql: begin + settle, %d threads\",\"calls\":%d,\"callsPerSec\":%.0f}%n",
                threads, calls / threads * threads, calls / threads * threads / secs);
    }

    /** One open connection handed out again and again (close does nothing), as a pool reuses its connections. */
    static javax.sql.DataSource reused(java.sql.Connection c) {
        java.sql.Connection kept = (java.sql.Connection) java.lang.reflect.Proxy.newProxyInstance(OperationsBench.class.getClassLoader(),
                new Class<?>[] {java.sql.Connection.class}, (proxy, method, args) -> {
                    if (method.getName().equals("close")) {
                        return null;
                    }
                    try {
                        return method.invoke(c, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        return (javax.sql.DataSource) java.lang.reflect.Proxy.newProxyInstance(OperationsBench.class.getClassLoader(),
                new Class<?>[] {javax.sql.DataSource.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getConnection")) {
                        return kept;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    static void report(String label, long[] ns) {
        long[] s = ns.clone();
        Arrays.sort(s);
        System.out.printf(Locale.ROOT, "{\"label\":\"%s\",\"calls\":%d,\"p50ns\":%d,\"p90ns\":%d,\"p99ns\":%d,\"maxns\":%d}%n", label,
                s.length, s[s.length / 2], s[(int) (s.length * 0.90)], s[(int) (s.length * 0.99)], s[s.length - 1]);
    }
}
