import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Several builds of the cloak measured in one JVM, interleaved, so a busy machine weighs on all of them alike:
 * each build in its own class loader (its classes and its own copy of the dependencies: nothing shared, each gets its
 * own JIT profile), the same texts ({@code CloakBench}'s generator, name-dense), warmed together, then rounds in which
 * every build cloaks the same text once, the order rotated each round. Reports per build and size the median
 * wall time and thread CPU time per call, their interquartile range, MB/s at the median, the median bytes allocated
 * per character of text (MB per MB), and each build's median of
 * its per-round ratio to the first build (the robust comparison: the two calls of a round see the same load).
 * Run with {@code bash bench/cloak-ab.sh REV...}.
 *
 * <p>Arguments: {@code config seconds name=classpath...}; config "regex+PERSON" or "regex-only"; seconds per size.
 */
public final class CloakAB {
    /** Text sizes measured; {@code -Dsizes=50000,1000000} to choose (a profile of one size, say). */
    private static final int[] SIZES = java.util.Arrays.stream(System.getProperty("sizes", "50000,100000,1000000")
            .split(",")).mapToInt(Integer::parseInt).toArray();

    public static void main(String[] args) throws Exception {
        String config = args[0];
        double seconds = Double.parseDouble(args[1]);
        List<String> names = new ArrayList<>();
        List<Consumer<String>> cloakers = new ArrayList<>();
        Method text = null;
        for (int i = 2; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            names.add(args[i].substring(0, eq));
            String[] entries = args[i].substring(eq + 1).split(":");
            URL[] urls = new URL[entries.length];
            for (int k = 0; k < entries.length; k++) {
                urls[k] = Path.of(entries[k]).toUri().toURL();
            }
            ClassLoader loader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
            @SuppressWarnings("unchecked")
            Consumer<String> c = (Consumer<String>) loader.loadClass("CloakABTarget").getMethod("cloaker", String.class)
                    .invoke(null, config);
            cloakers.add(c);
            if (text == null) {
                text = loader.loadClass("CloakBench").getDeclaredMethod("text", int.class, long.class, boolean.class,
                        boolean.class);
                text.setAccessible(true);
            }
        }
        int n = cloakers.size();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        System.out.println("{\"machine\":\"" + Runtime.getRuntime().availableProcessors() + " cores, java "
                + System.getProperty("java.version") + "\",\"config\":\"" + config + "\",\"builds\":\"" + names
                + "\"}");
        // warm every build on the whole path, interleaved (one core: C2 compiles on the same core)
        String[] warm = { (String) text.invoke(null, 50_000, 1L, false, false),
            (String) text.invoke(null, 100_000, 2L, false, false), (String) text.invoke(null, 1_000_000, 3L, false, false) };
        long until = System.nanoTime() + (long) (Math.max(20, seconds) * 1e9);
        for (int i = 0; System.nanoTime() < until; i++) {
            for (int b = 0; b < n; b++) {
                cloakers.get((b + i) % n).accept(warm[i % warm.length]);
            }
        }
        for (int size : SIZES) {
            String t = (String) text.invoke(null, size, 42L, false, false);
            // a few rounds more to settle this size, then as many rounds as fit in the time given (at least 9)
            for (int i = 0; i < 3; i++) {
                for (Consumer<String> c : cloakers) {
                    c.accept(t);
                }
            }
            List<long[]> wall = new ArrayList<>();
            List<long[]> cpu = new ArrayList<>();
            List<long[]> alloc = new ArrayList<>();
            long end = System.nanoTime() + (long) (seconds * 1e9);
            for (int round = 0; round < 9 || System.nanoTime() < end; round++) {
                long[] w = new long[n];
                long[] c = new long[n];
                long[] a = new long[n];
                for (int k = 0; k < n; k++) {
                    int b = (k + round) % n;
                    long a0 = threads.getCurrentThreadAllocatedBytes();
                    long c0 = threads.getCurrentThreadCpuTime();
                    long t0 = System.nanoTime();
                    cloakers.get(b).accept(t);
                    w[b] = System.nanoTime() - t0;
                    c[b] = threads.getCurrentThreadCpuTime() - c0;
                    a[b] = threads.getCurrentThreadAllocatedBytes() - a0;
                }
                wall.add(w);
                cpu.add(c);
                alloc.add(a);
            }
            for (int b = 0; b < n; b++) {
                double[] ws = column(wall, b);
                double[] cs = column(cpu, b);
                double[] as = column(alloc, b);
                double[] ratio = new double[wall.size()];
                for (int r = 0; r < ratio.length; r++) {
                    ratio[r] = (double) wall.get(r)[b] / wall.get(r)[0];
                }
                Arrays.sort(ratio);
                System.out.printf(Locale.ROOT, "{\"config\":\"%s\",\"build\":\"%s\",\"bytes\":%d,\"rounds\":%d,"
                        + "\"msWall\":%.2f,\"msWallIqr\":[%.2f,%.2f],\"MBps\":%.2f,\"msCpu\":%.2f,"
                        + "\"msCpuIqr\":[%.2f,%.2f],\"allocMBperMB\":%.1f,\"wallVsFirst\":%.3f,"
                        + "\"wallVsFirstIqr\":[%.3f,%.3f]}%n", config,
                        names.get(b), size, ws.length, q(ws, .5) / 1e6, q(ws, .25) / 1e6, q(ws, .75) / 1e6,
                        size / 1e6 / (q(ws, .5) / 1e9), q(cs, .5) / 1e6, q(cs, .25) / 1e6, q(cs, .75) / 1e6,
                        q(as, .5) / size, q(ratio, .5), q(ratio, .25), q(ratio, .75));
            }
        }
    }

    private static double[] column(List<long[]> rows, int b) {
        double[] out = new double[rows.size()];
        for (int r = 0; r < out.length; r++) {
            out[r] = rows.get(r)[b];
        }
        Arrays.sort(out);
        return out;
    }

    /** The {@code p} quantile of sorted values (nearest rank). */
    private static double q(double[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.round(p * (sorted.length - 1)))];
    }
}
