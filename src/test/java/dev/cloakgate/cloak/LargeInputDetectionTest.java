package dev.cloakgate.cloak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.cloakgate.tenant.DetectionSettings;

/**
 * Detection of multi-megabyte strings in bounded memory: a child JVM with a small heap ({@value #HEAP}) runs the
 * gateway's default detection (every category, the PERSON model, key hints) over one line of
 * {@value #LINE_CHARS} characters (a whole result serialised on one line, with no line break for the name finder
 * to stop at), then over strings built so that a scanner would rescan them (a prefix repeated hundreds of
 * thousands of times), and must find the values planted at the end of each. The name finder that tokenized a
 * line whole needed several hundred megabytes for that line and failed with OutOfMemoryError. Nothing here is
 * timed: the timeout only stops a run that would never end.
 */
class LargeInputDetectionTest {
    static final String HEAP = "-Xmx256m";
    static final int LINE_CHARS = 20_000_000;

    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void aHugeLineAndRescanBaitAreDetectedInBoundedMemory() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, HEAP, "-XX:+ExitOnOutOfMemoryError",
                "-Djava.util.logging.manager=org.jboss.logmanager.LogManager", "-cp", System.getProperty("java.class.path"),
                Child.class.getName(), Integer.toString(LINE_CHARS)).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "the child failed:\n" + output);
        for (String expected : List.of("line: PERSON Sarah Mitchell", "line: EMAIL sarah.mitchell@example.org",
                "line: CREDIT_CARD 4111 1111 1111 1111", "line: IBAN DE89 3704 0044 0532 0130 00",
                "jwt bait: SECRET " + Child.JWT, "pem bait: SECRET " + Child.PEM.replace('\n', ' '),
                "digit bait: CREDIT_CARD 5555 5555 5555 4444", "v6 bait: IP_ADDRESS 2001:db8::7",
                "at bait: EMAIL sofia.rossi[at]example[dot]it", "zero-width bait: CREDIT_CARD 4242\u200b4242\u200b4242\u200b4242")) {
            assertTrue(output.contains(expected), "missing <" + expected + "> in:\n" + output);
        }
    }

    /** Runs in the child JVM: prints what was found at the end of each string, one line each. */
    public static final class Child {
        static final String JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
                + "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
        static final String PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n"
                + "-----END RSA PRIVATE KEY-----";

        public static void main(String[] args) throws Exception {
            Detection d = new DetectionFactory().build(DetectionSettings.defaults());
            String[] filler = { "The shipment for order 4471 left the Lyon warehouse on Tuesday and reached the depot later.",
                    "{\"status\":\"ok\",\"items\":[{\"sku\":\"A-1123\",\"qty\":4,\"note\":\"Blue Harbour tote, restocked\"}]},",
                    "Ticket escalated by Marie Dubois; see https://status.example.com/incidents/88 for the timeline.",
                    "Rates were 3.25% in March, per the Treasury memo signed on 2024-03-01 at 09:30.", };
            StringBuilder b = new StringBuilder(Integer.parseInt(args[0]) + 512);
            for (int i = 0; b.length() < Integer.parseInt(args[0]); i++) {
                b.append(filler[i % filler.length]).append(' ');
            }
            int tail = b.length();
            b.append("Ticket closed by Sarah Mitchell on Friday; sarah.mitchell@example.org, card 4111 1111 1111 1111, "
                    + "IBAN DE89 3704 0044 0532 0130 00.");
            String line = b.toString();
            b = null;
            report("line", line, d.find(line), tail);
            line = null;
            String jwtBait = "eyJ".repeat(400_000) + " " + JWT;
            report("jwt bait", jwtBait, d.find(jwtBait), jwtBait.length() - JWT.length());
            String pemBait = "-----BEGIN RSA PRIVATE KEY-----\n".repeat(100_000) + "-----END RSA PRIVATE KEY-----\n" + PEM;
            report("pem bait", pemBait, d.find(pemBait), pemBait.length() - PEM.length());
            String digitBait = "1 ".repeat(1_000_000) + "x 5555 5555 5555 4444";
            report("digit bait", digitBait, d.find(digitBait), digitBait.length() - 20);
            String v6Bait = "a:".repeat(1_000_000) + " 2001:db8::7";
            report("v6 bait", v6Bait, d.find(v6Bait), v6Bait.length() - 12);
            String atBait = "a[at]b[dot]".repeat(200_000) + "; sofia.rossi[at]example[dot]it";
            report("at bait", atBait, d.find(atBait), atBait.length() - 30);
            String zeroWidthBait = "\u200b1".repeat(1_000_000) + " 4242\u200b4242\u200b4242\u200b4242";
            report("zero-width bait", zeroWidthBait, d.find(zeroWidthBait), zeroWidthBait.length() - 20);
            System.out.flush();
        }

        /** The findings that start in the planted tail (from {@code tail} on), as "label: CATEGORY value". */
        private static void report(String label, String text, List<Finding> found, int tail) {
            System.out.println(label + ": " + found.size() + " findings over " + text.length() + " characters");
            for (Finding f : found) {
                if (f.start() >= tail) {
                    System.out.println(label + ": " + f.category() + " " + text.substring(f.start(), f.end()).replace('\n', ' '));
                }
            }
        }
    }
}
