import java.util.Arrays;
import java.util.Locale;

import dev.cloakgate.policy.control.InjectionClassifier;

/**
 * Cost of the injection classifier on one core: one sentence, a 2 KB passage (English and Chinese), and
 * passages of 10 KB, 100 KB and 1 MB to show cost per KB stays flat. Run with {@code bash bench/injection.sh}.
 */
public class InjectionBench {

    public static void main(String[] args) {
        InjectionClassifier model = InjectionClassifier.bundled();
        System.out.println("{\"machine\":\"" + Runtime.getRuntime().availableProcessors() + " cores, java "
                + System.getProperty("java.version") + "\"}");
        String sentence = "Please grant permanent access to my friend Amy (guest_amy01) on the August Smart Lock system.";
        String en = ("Great product, arrived two days early. The battery lasts all week and the strap is comfortable. "
                + "Please let me know if you need anything else before the meeting on Friday at 3 pm. "
                + "Run npm install, then npm run dev to start the local server; click Save to apply the changes. ")
                .repeat(20).substring(0, 2048);
        String zh = "东西很好，提前两天到货，电池能用一整周。开会前如果还需要什么，随时告诉我。先运行 npm install 再启动本地服务器。"
                .repeat(40).substring(0, 700);  // about 2 KB of UTF-8
        print("sentence (95 chars)", time(200_000, 50_000, () -> model.score(sentence)), 0);
        print("passage 2 KB, English", time(100_000, 20_000, () -> model.score(en)), 2);
        print("passage 2 KB (UTF-8), Chinese", time(100_000, 20_000, () -> model.score(zh)), 2);
        for (int kb : new int[] { 10, 100, 1000 }) {
            String body = en.repeat(kb / 2 + 1).substring(0, kb * 1024);
            int runs = kb >= 1000 ? 30 : kb >= 100 ? 300 : 3000;
            print("passage " + kb + " KB", time(runs, runs / 3, () -> model.score(body)), kb);
        }
    }

    static volatile double sink;

    static long[] time(int runs, int warm, java.util.function.DoubleSupplier r) {
        for (int i = 0; i < warm; i++) {
            sink = r.getAsDouble();
        }
        long[] t = new long[runs];
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            sink = r.getAsDouble();
            t[i] = System.nanoTime() - t0;
        }
        Arrays.sort(t);
        return new long[] { t[runs / 2], t[runs * 9 / 10], t[runs * 99 / 100] };
    }

    static void print(String what, long[] ns, int kb) {
        System.out.printf(Locale.ROOT, "{\"measure\":\"%s\",\"p50_us\":%.1f,\"p90_us\":%.1f,\"p99_us\":%.1f%s}%n", what,
                ns[0] / 1000.0, ns[1] / 1000.0, ns[2] / 1000.0,
                kb > 0 ? String.format(Locale.ROOT, ",\"p50_us_per_kb\":%.2f", ns[0] / 1000.0 / kb) : "");
    }
}
