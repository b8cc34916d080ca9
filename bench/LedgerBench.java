import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Checkpoint;
import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.NoteSigner;
import dev.cloakgate.crypto.SignedNote;
import dev.cloakgate.evidence.Event;
import dev.cloakgate.evidence.Evidence;
import dev.cloakgate.evidence.LedgerEntries;
import dev.cloakgate.evidence.LedgerEvidence;
import dev.cloakgate.ledger.BundleVerifier;
import dev.cloakgate.ledger.BundleWriter;
import dev.cloakgate.ledger.Ledger;
import dev.cloakgate.ledger.LedgerKeyring;
import dev.cloakgate.ledger.LogIdentity;
import dev.cloakgate.ledger.LedgerStore;
import dev.cloakgate.ledger.MerkleTree;
import dev.cloakgate.ledger.SigningKeys;
import dev.cloakgate.ledger.TrustedKeys;
import dev.cloakgate.ledger.VerifyReport;
import dev.cloakgate.policy.Policy;
import dev.cloakgate.policy.PolicySession;
import dev.cloakgate.policy.TenantSecret;
import dev.cloakgate.policy.control.StandardControls;
import dev.cloakgate.tenant.TenantConfig;

/**
 * The evidence ledger's costs, in one run, on a real SQLite file (WAL, synchronous=FULL) in a temp dir on the
 * machine's disk:
 * <ol>
 * <li>sustained append throughput through {@code Ledger.submit} with decision-entry bodies as
 * {@code LedgerEntries} makes them, checkpoints at the defaults (every 1000 entries / 10 s);</li>
 * <li>the latency recording adds to a tool call: the same policy decision path (both stages of a typical
 * tools/call, as {@code bench/PolicyBench.java} builds it) with {@code Evidence.NONE} and with the ledger's
 * evidence, interleaved in rounds;</li>
 * <li>a 1,000,000-entry ledger (checkpoint every 1000, signed over the real roots), its export with
 * {@code BundleWriter} and its offline verification with {@code BundleVerifier}.</li>
 * </ol>
 * Run with {@code bash bench/ledger.sh}. {@code java -Dbench.runs=N LedgerBench verify BUNDLE VKEY...} only verifies
 * a kept bundle (for A/B runs of the verifier on the same file), trusting the log's verifier keys the run printed.
 */
public class LedgerBench {
    static final ObjectMapper M = new ObjectMapper();
    static final HexFormat HEX = HexFormat.of();
    static final String TENANT = "bench";
    static int SCALE = 1;
    static final Ed25519SigningKey KEY = Ed25519SigningKey.fromSeed(filled(7));

    public static void main(String[] args) throws Exception {
        if (args.length >= 3 && args[0].equals("verify")) {
            int runs = Integer.getInteger("bench.runs", 3);
            List<String> keys = List.of(args).subList(2, args.length);
            for (int i = 1; i <= runs; i++) {
                verify(Path.of(args[1]), TrustedKeys.parse(keys), "verify run " + i);
            }
            System.exit(0);
        }
        long minEntries = Long.getLong("bench.entries", 200_000);
        long minMillis = Long.getLong("bench.seconds", 20) * 1000;
        int bigLedger = Integer.getInteger("bench.export", 1_000_000);
        SCALE = Integer.getInteger("bench.scale", 1); // > 1 divides the call counts: smoke runs only
        Path root = Path.of(System.getProperty("bench.dir", System.getProperty("java.io.tmpdir")));
        Path dir = Files.createTempDirectory(root, "ledger-bench");
        System.out.println("{\"machine\":\"" + Runtime.getRuntime().availableProcessors() + " cores, java "
                + System.getProperty("java.version") + "\",\"dir\":\"" + dir + "\",\"fs\":\""
                + Files.getFileStore(dir).type() + "\"}");
        LedgerKeyring signer = new LedgerKeyring(KEY, java.util.Optional.empty(), LogIdentity.configured("bench.example"));
        try {
            throughput(dir.resolve("append"), signer, minEntries, minMillis);
            latency(dir.resolve("latency"), signer);
            export(dir.resolve("export"), signer, bigLedger);
        } finally {
            if (!Boolean.getBoolean("bench.keep")) {
                delete(dir);
            }
        }
        System.exit(0);
    }

    // ---- a. sustained append throughput through Ledger.submit --------------------------------------------------

    static void throughput(Path dir, LedgerKeyring signer, long minEntries, long minMillis) throws Exception {
        Bodies bodies = new Bodies(1);
        try (Ledger ledger = Ledger.open(dir, TENANT, signer)) {
            // warm-up: the same path, not counted
            for (int i = 0; i < 50_000 / SCALE; i++) {
                ledger.submit(bodies.next());
            }
            ledger.flush();
            long warm = ledger.size();
            long checkpointsBefore = ledger.store().checkpoints(1, Long.MAX_VALUE).size();

            AtomicLong committed = new AtomicLong();
            AtomicLong rejected = new AtomicLong();
            AtomicLong failed = new AtomicLong();
            Samples submitNs = new Samples(1 << 20);
            long slow = 0;
            long t0 = System.nanoTime();
            long submitted = 0;
            while (submitted < minEntries || System.nanoTime() - t0 < minMillis * 1_000_000L) {
                ObjectNode body = bodies.next();
                long s = System.nanoTime();
                CompletableFuture<Long> f = ledger.submit(body);
                long took = System.nanoTime() - s;
                submitNs.add(took);
                if (took > 1_000_000) {
                    slow++;
                }
                submitted++;
                f.whenComplete((seq, e) -> {
                    if (e == null) {
                        committed.incrementAndGet();
                    } else if (cause(e) instanceof RejectedExecutionException) {
                        rejected.incrementAndGet();
                    } else {
                        failed.incrementAndGet();
                    }
                });
            }
            long submitEnd = System.nanoTime();
            ledger.flush();
            long t1 = System.nanoTime();
            double secs = (t1 - t0) / 1e9;
            long checkpoints = ledger.store().checkpoints(1, Long.MAX_VALUE).size() - checkpointsBefore;
            long size = ledger.size();
            List<byte[]> sample = ledger.store().read(size - 1000, size - 1);
            double avgBytes = sample.stream().mapToInt(b -> b.length).average().orElse(0);
            long dbBytes = Files.size(((dev.cloakgate.ledger.SqliteLedgerStore) ledger.store()).dbFile());
            long[] p = submitNs.percentiles();
            System.out.printf(Locale.ROOT, "{\"measure\":\"append via Ledger.submit\",\"submitted\":%d,\"committed\":%d,"
                    + "\"rejected\":%d,\"failed\":%d,\"seconds\":%.2f,\"submit_seconds\":%.2f,\"committed_per_s\":%.0f,"
                    + "\"submit_p50_us\":%.2f,\"submit_p90_us\":%.2f,\"submit_p99_us\":%.2f,\"submit_p999_us\":%.1f,"
                    + "\"submit_max_us\":%.0f,\"submits_over_1ms\":%d,\"checkpoints_signed\":%d,\"avg_entry_bytes\":%.0f,"
                    + "\"warmup_entries\":%d,\"db_bytes\":%d}%n",
                    submitted, committed.get(), rejected.get(), failed.get(), secs, (submitEnd - t0) / 1e9,
                    committed.get() / secs, p[0] / 1e3, p[1] / 1e3, p[2] / 1e3, p[3] / 1e3, p[4] / 1e3, slow, checkpoints,
                    avgBytes, warm, dbBytes);
        }
    }

    static Throwable cause(Throwable e) {
        return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    }

    // ---- b. latency added to a tool call by recording its decisions ------------------------------------------

    /** Evidence that forwards to whichever sink is current: one policy, one session, one JIT state for both. */
    static final class Switch implements Evidence {
        volatile Evidence target = Evidence.NONE;

        @Override
        public void record(Event event) {
            target.record(event);
        }
    }

    static void latency(Path dir, LedgerKeyring signer) throws Exception {
        // PolicyBench's environment and typical call (compiled with this file by bench/ledger.sh)
        JsonNode env = PolicyBench.corpusEnv();
        TenantConfig tenant = PolicyBench.corpusTenant(env);
        Files.createDirectories(dir);
        Switch evidence = new Switch();
        TenantSecret secret = TenantSecret.load(dir, TENANT); // one secret for the policy and the entries, as in the gateway
        try (Ledger ledger = Ledger.open(dir, TENANT, signer);
                Policy policy = Policy.create(TENANT, List.copyOf(tenant.upstreams().keySet()), tenant.policy(), dir, null,
                        new StandardControls(), evidence, secret)) {
            LedgerEvidence ledgerEvidence = new LedgerEvidence(Map.of(TENANT, ledger),
                    Map.of(TENANT, new LedgerEntries(secret::sessionDigest)));
            PolicySession s = policy.session("bench-session");
            env.path("upstreams").fields().forEachRemaining(e -> s.observe(e.getKey(), e.getValue()));
            env.path("upstreams").fields().forEachRemaining(e -> s.relay(e.getKey(), e.getValue(), n -> e.getKey() + "__" + n));
            JsonNode arguments = PolicyBench.typicalArguments();
            ObjectNode result = PolicyBench.typicalResult(PolicyBench.typicalText());
            Runnable call = () -> {
                s.request("fs__read_text_file", "fs", "read_text_file", arguments);
                s.response("fs__read_text_file", "fs", "read_text_file", result, false);
            };

            long entriesBefore = ledger.size();
            interleaved(call, evidence, ledgerEvidence, 4, 10_000 / SCALE, 0, ledger); // warm-up of both paths
            // back to back: as fast as one thread calls (several times the gateway's measured maximum)
            Samples[] b2b = interleaved(call, evidence, ledgerEvidence, 10, 10_000 / SCALE, 0, ledger);
            print("tools/call, both stages, back to back", "Evidence.NONE", b2b[0].percentiles(), null);
            print("tools/call, both stages, back to back", "ledger", b2b[1].percentiles(), b2b[0].percentiles());
            // paced at 2,000 calls/s: above the gateway's measured maximum (1,623 calls/s at concurrency 32)
            Samples[] paced = interleaved(call, evidence, ledgerEvidence, 4, 5_000 / SCALE, 500_000, ledger);
            print("tools/call, both stages, paced at 2000 calls/s", "Evidence.NONE", paced[0].percentiles(), null);
            print("tools/call, both stages, paced at 2000 calls/s", "ledger", paced[1].percentiles(), paced[0].percentiles());
            System.out.printf(Locale.ROOT, "{\"measure\":\"decision entries recorded during the latency runs\",\"entries\":%d,"
                    + "\"lost\":%d}%n", ledger.size() - entriesBefore, ledgerEvidence.lost());
        }
    }

    /** {@code rounds} rounds of n calls with Evidence.NONE then n with the ledger's: {none, ledger} samples. */
    static Samples[] interleaved(Runnable call, Switch evidence, Evidence ledgerEvidence, int rounds, int n, long periodNs,
            Ledger ledger) {
        Samples none = new Samples(rounds * n);
        Samples led = new Samples(rounds * n);
        for (int round = 0; round < rounds; round++) {
            evidence.target = Evidence.NONE;
            none.addAll(run(call, n, periodNs));
            evidence.target = ledgerEvidence;
            led.addAll(run(call, n, periodNs));
        }
        evidence.target = Evidence.NONE;
        ledger.flush();
        return new Samples[] { none, led };
    }

    /** Times {@code n} calls; with {@code periodNs} > 0 each call starts on a fixed schedule, or late if the one before ran over. */
    static long[] run(Runnable call, int n, long periodNs) {
        long[] out = new long[n];
        long next = System.nanoTime();
        for (int i = 0; i < n; i++) {
            if (periodNs > 0) {
                // parked, not spinning, between calls: a gateway thread waits for its next request without holding
                // a core, and on two cores a spinning caller starves the ledger's writer thread
                next += periodNs;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(wait);
                }
            }
            long t0 = System.nanoTime();
            call.run();
            out[i] = System.nanoTime() - t0;
        }
        return out;
    }

    static void print(String what, String config, long[] ns, long[] base) {
        String added = base == null ? "" : String.format(Locale.ROOT, ",\"added_p50_us\":%.1f,\"added_p99_us\":%.1f",
                (ns[0] - base[0]) / 1e3, (ns[2] - base[2]) / 1e3);
        System.out.printf(Locale.ROOT, "{\"measure\":\"%s\",\"evidence\":\"%s\",\"calls\":%d,\"p50_us\":%.1f,\"p90_us\":%.1f,"
                + "\"p99_us\":%.1f,\"p999_us\":%.1f%s}%n", what, config, ns[5], ns[0] / 1e3, ns[1] / 1e3, ns[2] / 1e3,
                ns[3] / 1e3, added);
    }

    // ---- c. a million entries: build, export, verify offline -------------------------------------------------

    static void export(Path dir, LedgerKeyring signer, int n) throws Exception {
        Bodies bodies = new Bodies(3);
        String origin = signer.identity().origin(TENANT);
        dev.cloakgate.ledger.LogKeys keys = signer.keys(origin);
        long t0 = System.nanoTime();
        try (LedgerStore store = LedgerStore.open(dir, TENANT)) {
            store.storeOrigin(origin); // as Ledger.open records a new log's origin before its first entry
            // what the ledger's writer and checkpointer do, without the queue: batches of 1000 (one transaction and
            // fsync each), the tree fed with every entry hash, a signed checkpoint over the real root after each
            MerkleTree tree = new MerkleTree();
            List<ObjectNode> batch = new ArrayList<>(1000);
            for (int done = 0; done < n; ) {
                batch.clear();
                int k = Math.min(1000, n - done);
                for (int i = 0; i < k; i++) {
                    batch.add(bodies.next());
                }
                for (LedgerStore.Appended a : store.append(batch)) {
                    tree.append(a.hash());
                }
                done += k;
                Checkpoint c = new Checkpoint(origin, tree.size(), tree.root());
                store.putCheckpoint(c.size(), SignedNote.sign(c.text(), List.of(keys.checkpoint())).getBytes(StandardCharsets.UTF_8));
            }
        }
        long built = System.nanoTime();
        System.out.printf(Locale.ROOT, "{\"measure\":\"build %d-entry ledger (LedgerStore.append, 1000 per transaction, "
                + "signed checkpoint per 1000)\",\"seconds\":%.1f,\"db_bytes\":%d}%n", n, (built - t0) / 1e9,
                Files.size(dir.resolve("ledger").resolve(TENANT + ".db")));

        // the gateway's restart: Ledger.open checks the whole chain and rebuilds the tree
        long o0 = System.nanoTime();
        try (Ledger ledger = Ledger.open(dir, TENANT, signer)) {
            System.out.printf(Locale.ROOT, "{\"measure\":\"Ledger.open of %d entries (full chain check)\",\"seconds\":%.1f}%n",
                    ledger.size(), (System.nanoTime() - o0) / 1e9);
        }

        Path bundle = dir.resolve("export.zip");
        long e0 = System.nanoTime();
        try (LedgerStore ro = LedgerStore.openReadOnly(dir, TENANT);
                OutputStream out = new BufferedOutputStream(Files.newOutputStream(bundle), 1 << 16)) {
            new BundleWriter().write(ro, 0, ro.lastSeq(), keys, Clock.systemUTC(), out);
        }
        System.out.printf(Locale.ROOT, "{\"measure\":\"export %d entries with BundleWriter\",\"seconds\":%.1f,"
                + "\"bundle_bytes\":%d}%n", n, (System.nanoTime() - e0) / 1e9, Files.size(bundle));

        // what an auditor pins: the log's checkpoint and manifest verifier keys, as `ledger key` prints them
        List<String> pins = List.of(keys.checkpoint().verifier().encoded(), keys.manifest().verifier().encoded());
        TrustedKeys trusted = TrustedKeys.parse(pins);
        System.out.println("{\"bundle\":\"" + bundle + "\",\"trust\":\"" + String.join(" ", pins) + "\"}");
        for (int i = 1; i <= 2; i++) {
            verify(bundle, trusted, i == 1 ? "verify, first run in this JVM" : "verify, second run");
        }
    }

    static void verify(Path bundle, TrustedKeys trusted, String what) throws Exception {
        long v0 = System.nanoTime();
        VerifyReport r = new BundleVerifier(trusted).verify(bundle);
        double secs = (System.nanoTime() - v0) / 1e9;
        System.out.printf(Locale.ROOT, "{\"measure\":\"%s\",\"seconds\":%.1f,\"entries\":%d,\"checkpoints\":%d,"
                + "\"valid\":%s,\"failures\":%d,\"entries_per_s\":%.0f}%n", what, secs, r.entries(), r.checkpoints(),
                r.valid(), r.failures().size(), r.entries() / secs);
        if (!r.valid()) {
            System.out.println(r.toJson());
        }
    }


    // ---- decision-entry bodies -------------------------------------------------------------------------------

    /**
     * Decision entries as {@code LedgerEntries} maps {@code Event.Decided}: mostly allows of small calls over a few
     * dozen sessions and tools, some blocks and demoted warnings with one finding each, as the gateway records.
     */
    static final class Bodies {
        static final String[] TOOLS = { "fs__read_text_file", "fs__list_directory", "fs__write_file", "web__fetch_url",
                "crm__lookup_contact", "git__log", "db__query" };
        static final String[] STAGES = { "request", "response" };
        final SplittableRandom r;
        final LedgerEntries mapping = new LedgerEntries(s -> s);
        final String[] sessions = new String[40];

        Bodies(long seed) {
            r = new SplittableRandom(seed);
            for (int i = 0; i < sessions.length; i++) {
                sessions[i] = hex(8);
            }
        }

        ObjectNode next() {
            String tool = TOOLS[r.nextInt(TOOLS.length)];
            String upstream = tool.substring(0, tool.indexOf("__"));
            String stage = STAGES[r.nextInt(2)];
            int kind = r.nextInt(100);
            String action = "allow";
            String reason = null;
            List<String> controls = List.of();
            List<Event.Noted> findings = List.of();
            if (kind < 8) {
                action = "block";
                reason = "path_outside_sandbox";
                controls = List.of("path_sandbox");
                findings = List.of(new Event.Noted("path_sandbox", "block", reason,
                        "/path resolves outside the sandbox roots", false));
            } else if (kind < 13) {
                controls = List.of("secret_disclosure");
                findings = List.of(new Event.Noted("secret_disclosure", "warn", "secret_in_result",
                        "/content/0/text: a credential-shaped value", true));
            }
            return mapping.body(new Event.Decided(TENANT, sessions[r.nextInt(sessions.length)], stage, upstream, tool, action,
                    reason, controls, findings, 40 + r.nextInt(4000), hex(32)));
        }

        String hex(int bytes) {
            byte[] b = new byte[bytes];
            for (int i = 0; i < bytes; i++) {
                b[i] = (byte) r.nextInt(256);
            }
            return HEX.formatHex(b);
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    /** Nanosecond samples; percentiles() = {p50, p90, p99, p99.9, max, count}. */
    static final class Samples {
        long[] a;
        int n;

        Samples(int capacity) {
            a = new long[capacity];
        }

        void add(long v) {
            if (n == a.length) {
                a = Arrays.copyOf(a, a.length * 2);
            }
            a[n++] = v;
        }

        void addAll(long[] vs) {
            for (long v : vs) {
                add(v);
            }
        }

        long[] percentiles() {
            long[] s = Arrays.copyOf(a, n);
            Arrays.sort(s);
            return new long[] { s[n / 2], s[(int) (n * 0.9)], s[(int) (n * 0.99)], s[(int) (n * 0.999)], s[n - 1], n };
        }
    }

    static byte[] filled(int v) {
        byte[] b = new byte[32];
        Arrays.fill(b, (byte) v);
        return b;
    }

    static void delete(Path dir) throws Exception {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
