package dev.cloakgate.upstream;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.cloakgate.policy.FindingDetail;

/**
 * The first lines a child wrote to stderr, for the operator's log when it dies before completing the handshake (a
 * wrong command, a missing module, a bad argument: the cause is usually in them). Stderr can carry data (paths,
 * records, keys), so only the first {@value #KEEP_BYTES} bytes are kept (the rest is counted), at most
 * {@value #LINES} lines of at most {@value #LINE_CHARS} characters are shown, control characters are replaced, and
 * every value the deterministic detectors find ({@link FindingDetail#scrub}) is replaced by its category before
 * the text leaves here.
 */
final class StderrHead {
    static final int KEEP_BYTES = 4096;
    static final int LINES = 8;
    static final int LINE_CHARS = 200;

    private final byte[] kept = new byte[KEEP_BYTES];
    private int keptBytes;
    private long total;

    /** Keeps what fits of {@code n} more bytes. */
    synchronized void feed(byte[] b, int n) {
        total += n;
        int room = Math.min(n, KEEP_BYTES - keptBytes);
        if (room > 0) {
            System.arraycopy(b, 0, kept, keptBytes, room);
            keptBytes += room;
        }
    }

    /** The head as one log-safe line ({@code " | "} between lines), or empty when the child wrote nothing. */
    synchronized String text() {
        String all = new String(Arrays.copyOf(kept, keptBytes), StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>();
        boolean more = total > keptBytes;
        for (String line : all.split("\r\n|\r|\n", -1)) {
            if (line.isBlank()) {
                continue;
            }
            if (lines.size() == LINES) {
                more = true;
                break;
            }
            // scrubbed whole, then cut: a value cut in two is not found by the detectors
            String clean = printable(FindingDetail.scrub(line));
            lines.add(clean.length() > LINE_CHARS ? clean.substring(0, LINE_CHARS) + "..." : clean);
        }
        if (lines.isEmpty()) {
            return "";
        }
        return String.join(" | ", lines) + (more ? " | ... (" + total + " bytes in all)" : "");
    }

    /** Controls (terminal escapes, bidi overrides) as '?': a log line must say only what it seems to say. */
    private static String printable(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            int type = Character.getType(c);
            b.append(c == '\t' ? ' ' : type == Character.CONTROL || type == Character.FORMAT
                    || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR ? '?' : c);
        }
        return b.toString();
    }
}
