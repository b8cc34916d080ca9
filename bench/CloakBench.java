import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
 * several sizes, regex categories only and with PERSON, and with PERSON on text that names nobody in a session
 * that knows 256 names (what propagation costs such a result). Run with {@code bash bench/cloak.sh}.
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
        // the fourth (issue 14): PERSON on text with no name in it, in one session whose vault already holds 256
        // names (each call reuses it): what propagating the session's names costs a result that has none
        for (int pass = 0; pass < 4; pass++) {
            boolean known = pass == 3;
            boolean person = pass == 1 || known;
            boolean unicode = pass == 2;
            DetectionSettings s = DetectionSettings.defaults();
            s = new DetectionSettings(s.emails(), s.phoneNumbers(), s.creditCards(), s.ibans(), s.usSsns(),
                    s.ipAddresses(), s.secrets(), person ? java.util.Set.of("PERSON") : java.util.Set.of(), null,
                    java.util.Map.of(), s.phoneRegions(), s.keyHints());
            Detection d = new DetectionFactory().build(s);
            Cloaking cloaking = new Cloaking("bench", d, TokenScope.SESSION, 1_000_000, new SimpleMeterRegistry(),
                    Evidence.NONE);
            String label = known ? "regex+PERSON-no-names-256-known" : person ? "regex+PERSON" : unicode
                    ? "regex-only-unicode" : "regex-only";
            Supplier<Cloak> sessions = () -> cloaking.session("s");
            if (known) {
                Cloak seeded = cloaking.session("s");
                ObjectNode people = M.createObjectNode();
                ArrayNode list = people.putObject("structuredContent").putArray("people");
                for (String f : FIRST) {
                    for (String l : LAST) {
                        list.addObject().put("name", f + " " + l);
                    }
                }
                seeded.toAgent("crm", "tools/call", people);
                sessions = () -> seeded;
            }
            // warm the JIT on the whole path first, so the first size measured is not paying for compilation
            // (one core: C2 compiles on the same core, so this takes a while)
            String[] warmTexts = { text(50_000, 1, unicode, known), text(100_000, 2, unicode, known),
                text(1_000_000, 3, unicode, known) };
            long until = System.nanoTime() + 20_000_000_000L;
            for (int i = 0; System.nanoTime() < until; i++) {
                measureOnce(sessions, warmTexts[i % warmTexts.length]);
            }
            double perMbSmall = 0;
            for (int size : sizes) {
                String text = text(size, 42, unicode, known);
                if (known) {
                    // the same text in a fresh session (no name known: propagation does not run), call for call
                    // alternated with the session that knows 256 names, so a busy machine weighs on both alike
                    double[] pair = measurePair(sessions, () -> cloaking.session("s"), text, size);
                    System.out.printf(Locale.ROOT, "{\"config\":\"%s\",\"bytes\":%d,\"msKnown\":%.2f,"
                            + "\"msFresh\":%.2f,\"ratio\":%.3f}%n", label + "-interleaved", size, pair[0] * 1000,
                            pair[1] * 1000, pair[0] / pair[1]);
                }
                double seconds = measure(sessions, text, size);
                double mbps = size / 1e6 / seconds;
                if (size == sizes[0]) {
                    perMbSmall = seconds / (size / 1e6);
                }
                double ratio = (seconds / (size / 1e6)) / perMbSmall;
                System.out.printf(Locale.ROOT,
                        "{\"config\":\"%s\",\"bytes\":%d,\"ms\":%.2f,\"MBps\":%.2f,\"timePerMbVs100KB\":%.2f}%n", label,
                        size, seconds * 1000, mbps, ratio);
            }
            String small = text(50_000, 7, unicode, known);
            System.out.printf(Locale.ROOT, "{\"config\":\"%s\",\"bytes\":50000,\"ms\":%.2f}%n", label,
                    measure(sessions, small, 50_000) * 1000);
        }
    }

    /** Median seconds to cloak one result holding {@code text}, after warm-up. */
    static double measure(Supplier<Cloak> sessions, String text, int size) throws Exception {
        int warm = size >= 10_000_000 ? 2 : size >= 1_000_000 ? 5 : 40;
        int runs = size >= 10_000_000 ? 5 : size >= 1_000_000 ? 9 : 41;
        ObjectNode result = M.createObjectNode();
        result.putArray("content").addObject().put("type", "text").put("text", text);
        long until = System.nanoTime() + 3_000_000_000L;
        for (int i = 0; i < warm || System.nanoTime() < until; i++) {
            once(sessions, result);
        }
        long[] t = new long[runs];
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            once(sessions, result);
            t[i] = System.nanoTime() - t0;
        }
        Arrays.sort(t);
        return t[runs / 2] / 1e9;
    }

    /** Median seconds for {@code a} and for {@code b} on the same result, their calls alternated. */
    static double[] measurePair(Supplier<Cloak> a, Supplier<Cloak> b, String text, int size) {
        int runs = size >= 10_000_000 ? 5 : size >= 1_000_000 ? 11 : 41;
        ObjectNode result = M.createObjectNode();
        result.putArray("content").addObject().put("type", "text").put("text", text);
        long[] ta = new long[runs];
        long[] tb = new long[runs];
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            once(a, result);
            long t1 = System.nanoTime();
            once(b, result);
            ta[i] = t1 - t0;
            tb[i] = System.nanoTime() - t1;
        }
        Arrays.sort(ta);
        Arrays.sort(tb);
        return new double[] { ta[runs / 2] / 1e9, tb[runs / 2] / 1e9 };
    }

    private static void measureOnce(Supplier<Cloak> sessions, String text) {
        ObjectNode result = M.createObjectNode();
        result.putArray("content").addObject().put("type", "text").put("text", text);
        once(sessions, result);
    }

    private static void once(Supplier<Cloak> sessions, ObjectNode result) {
        JsonNode copy = result.deepCopy();
        sessions.get().toAgent("crm", "tools/call", copy);
    }

    /** Deterministic mixed text of about {@code size} characters, one personal value per line or so. */
    static String text(int size, long seed) {
        return text(size, seed, false);
    }

    /** As {@link #text(int, long)}; {@code unicode} writes the names, spaces and some digits outside ASCII. */
    static String text(int size, long seed, boolean unicode) {
        return text(size, seed, unicode, false);
    }

    /** As {@link #text(int, long, boolean)}; {@code noNames} keeps only the lines that name nobody. */
    static String text(int size, long seed, boolean unicode, boolean noNames) {
        String ascii = asciiText(size, seed, noNames);
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

    private static String asciiText(int size, long seed, boolean noNames) {
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
            int kind = r.nextInt(LINES.length);
            if (noNames && kind != 0 && kind != 4 && kind != 6 && kind != 7) {
                continue;
            }
            String line = switch (kind) {
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
