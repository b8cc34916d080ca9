import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.cloak.Cloak;
import dev.cloakgate.cloak.Cloaking;
import dev.cloakgate.cloak.Detection;
import dev.cloakgate.cloak.DetectionFactory;
import dev.cloakgate.evidence.Evidence;
import dev.cloakgate.tenant.DetectionSettings;
import dev.cloakgate.tenant.TokenScope;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * Cloaking throughput on one core: a tools/call result of realistic mixed text (CRM lines, log lines, e-mail
 * fragments, about one personal value per line) cloaked by the gateway's real path (typed walk, tripwire) at
 * several sizes, regex categories only and with PERSON. Run with {@code bash bench/cloak.sh}.
 */
public class CloakBench {
    private static final ObjectMapper M = new ObjectMapper();
    private static final String[] FIRST = { "Marie", "James", "Ana", "Wei", "Fatima", "Lukas", "Aarav", "Chioma",
            "Sofia", "Mateus", "Yuki", "Olga", "Kwame", "Ingrid", "Omar", "Priya" };
    private static final String[] LAST = { "Dubois", "Okafor", "Lima", "Zhang", "Haddad", "Schneider", "Sharma",
            "Eze", "Rossi", "Costa", "Tanaka", "Ivanova", "Mensah", "Larsen", "Farouk", "Nair" };
    private static final String[] LINES = {
            "2026-11-30T10:%02d:%02dZ INFO  request served in %d ms for tenant acme (status 200)",
            "Ticket #%d: customer %s %s (%s) reported the export fails on step %d.",
            "%s %s <%s>, account manager, phone %s",
            "{\"id\": %d, \"name\": \"%s %s\", \"email\": \"%s\", \"city\": \"Lyon\", \"plan\": \"enterprise\"}",
            "commit %08x: fix retry loop in the sync worker (reviewed, %d files changed)",
            "Hi %s, thanks for the update; the renewal quote is attached. Best, %s",
            "GET /api/v1/orders/%d 200 %d bytes from 203.0.113.%d",
            "The quarterly report for Kubernetes clusters in Frankfurt and Paris is due on Friday (%d pages)." };

    public static void main(String[] args) throws Exception {
        int[] sizes = { 100_000, 1_000_000, 10_000_000 };
        System.out.println("{\"machine\":\"" + Runtime.getRuntime().availableProcessors() + " cores, java "
                + System.getProperty("java.version") + "\"}");
        // the third pass: regex categories on the same text written with non-ASCII (accented names, no-break
        // spaces in numbers, a fullwidth digit now and then), the path through the normalised view
        for (int pass = 0; pass < 3; pass++) {
            boolean person = pass == 1;
            boolean unicode = pass == 2;
            DetectionSettings s = DetectionSettings.defaults();
            s = new DetectionSettings(s.emails(), s.phoneNumbers(), s.creditCards(), s.ibans(), s.usSsns(),
                    s.ipAddresses(), s.secrets(), person ? java.util.Set.of("PERSON") : java.util.Set.of(), null,
                    java.util.Map.of(), s.phoneRegions(), s.keyHints());
            Detection d = new DetectionFactory().build(s);
            Cloaking cloaking = new Cloaking("bench", d, TokenScope.SESSION, 1_000_000, new SimpleMeterRegistry(),
                    Evidence.NONE);
            String label = person ? "regex+PERSON" : unicode ? "regex-only-unicode" : "regex-only";
            // warm the JIT on the whole path first, so the first size measured is not paying for compilation
            // (one core: C2 compiles on the same core, so this takes a while)
            String[] warmTexts = { text(50_000, 1, unicode), text(100_000, 2, unicode), text(1_000_000, 3, unicode) };
            long until = System.nanoTime() + 20_000_000_000L;
            for (int i = 0; System.nanoTime() < until; i++) {
                measureOnce(cloaking, warmTexts[i % warmTexts.length]);
            }
            double perMbSmall = 0;
            for (int size : sizes) {
                String text = text(size, 42, unicode);
                double seconds = measure(cloaking, text, size);
                double mbps = size / 1e6 / seconds;
                if (size == sizes[0]) {
                    perMbSmall = seconds / (size / 1e6);
                }
                double ratio = (seconds / (size / 1e6)) / perMbSmall;
                System.out.printf(Locale.ROOT,
                        "{\"config\":\"%s\",\"bytes\":%d,\"ms\":%.2f,\"MBps\":%.2f,\"timePerMbVs100KB\":%.2f}%n", label,
                        size, seconds * 1000, mbps, ratio);
            }
            String small = text(50_000, 7, unicode);
            System.out.printf(Locale.ROOT, "{\"config\":\"%s\",\"bytes\":50000,\"ms\":%.2f}%n", label,
                    measure(cloaking, small, 50_000) * 1000);
        }
    }

    /** Median seconds to cloak one result holding {@code text}, after warm-up. */
    static double measure(Cloaking cloaking, String text, int size) throws Exception {
        int warm = size >= 10_000_000 ? 2 : size >= 1_000_000 ? 5 : 40;
        int runs = size >= 10_000_000 ? 5 : size >= 1_000_000 ? 9 : 41;
        ObjectNode result = M.createObjectNode();
        result.putArray("content").addObject().put("type", "text").put("text", text);
        long until = System.nanoTime() + 3_000_000_000L;
        for (int i = 0; i < warm || System.nanoTime() < until; i++) {
            once(cloaking, result);
        }
        long[] t = new long[runs];
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            once(cloaking, result);
            t[i] = System.nanoTime() - t0;
        }
        Arrays.sort(t);
        return t[runs / 2] / 1e9;
    }

    private static void measureOnce(Cloaking cloaking, String text) {
        ObjectNode result = M.createObjectNode();
        result.putArray("content").addObject().put("type", "text").put("text", text);
        once(cloaking, result);
    }

    private static void once(Cloaking cloaking, ObjectNode result) {
        JsonNode copy = result.deepCopy();
        Cloak cloak = cloaking.session("s");
        cloak.toAgent("crm", "tools/call", copy);
    }

    /** Deterministic mixed text of about {@code size} characters, one personal value per line or so. */
    static String text(int size, long seed) {
        return text(size, seed, false);
    }

    /** As {@link #text(int, long)}; {@code unicode} writes the names, spaces and some digits outside ASCII. */
    static String text(int size, long seed, boolean unicode) {
        String ascii = asciiText(size, seed);
        if (!unicode) {
            return ascii;
        }
        StringBuilder b = new StringBuilder(ascii.length());
        Random r = new Random(seed + 1);
        for (int i = 0; i < ascii.length(); i++) {
            char c = ascii.charAt(i);
            if (c == 'e' && r.nextInt(8) == 0) {
                b.append('\u00e9');
            } else if (c == 'o' && r.nextInt(12) == 0) {
                b.append('\u00f6');
            } else if (c == ' ' && i > 0 && Character.isDigit(ascii.charAt(i - 1))) {
                b.append('\u00a0');
            } else if (c >= '0' && c <= '9' && r.nextInt(40) == 0) {
                b.append((char) ('\uff10' + (c - '0')));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static String asciiText(int size, long seed) {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder(size + 200);
        List<String> people = new ArrayList<>();
        for (String f : FIRST) {
            for (String l : LAST) {
                people.add(f + " " + l);
            }
        }
        while (sb.length() < size) {
            String p = people.get(r.nextInt(people.size()));
            String[] n = p.split(" ");
            String email = (n[0] + "." + n[1] + r.nextInt(100) + "@example.com").toLowerCase(Locale.ROOT);
            String phone = "+33 6 " + (10 + r.nextInt(89)) + " " + (10 + r.nextInt(89)) + " " + (10 + r.nextInt(89))
                    + " " + (10 + r.nextInt(89));
            String line = switch (r.nextInt(LINES.length)) {
                case 0 -> String.format(LINES[0], r.nextInt(60), r.nextInt(60), r.nextInt(900));
                case 1 -> String.format(LINES[1], 10000 + r.nextInt(90000), n[0], n[1], email, r.nextInt(9));
                case 2 -> String.format(LINES[2], n[0], n[1], email, phone);
                case 3 -> String.format(LINES[3], r.nextInt(100000), n[0], n[1], email);
                case 4 -> String.format(LINES[4], r.nextInt(), r.nextInt(20));
                case 5 -> String.format(LINES[5], n[0], people.get(r.nextInt(people.size())).split(" ")[0]);
                case 6 -> String.format(LINES[6], r.nextInt(100000), r.nextInt(50000), r.nextInt(250));
                default -> String.format(LINES[7], r.nextInt(90));
            };
            sb.append(line).append('\n');
        }
        return sb.toString();
    }
}
