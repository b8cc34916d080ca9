package dev.cloakgate.upstream;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Reads newline-delimited records with a hard size limit, so an upstream cannot exhaust memory with an endless
 * line. A line over the limit is skipped as it streams past, unbuffered, through a {@link MessageScan} that
 * learns which request it answers; the scan is handed over as soon as it knows (so the waiting call can be
 * answered while the rest of the line is still being skipped) and again at the line's end. A trailing
 * {@code \r} is dropped.
 */
final class LineReader {
    private static final int INITIAL = 8 * 1024;
    /** A buffer grown past this for one long line is given back before the next. */
    private static final int KEEP = 256 * 1024;

    /** A line longer than the limit arrived and was skipped; {@link #scan()} says what it was. */
    static final class LineTooLong extends IOException {
        private final transient MessageScan scan;

        LineTooLong(int limit, MessageScan scan) {
            super("line exceeds " + limit + " bytes", null);
            this.scan = scan;
        }

        MessageScan scan() {
            return scan;
        }
    }

    private final InputStream in;
    private final int limit;
    private final Consumer<MessageScan> early;
    private final byte[] chunk = new byte[64 * 1024];
    private int chunkPos;
    private int chunkLen;
    private byte[] line = new byte[INITIAL];
    private int lineLen;

    LineReader(InputStream in, int limit) {
        this(in, limit, scan -> {
        });
    }

    /** @param early receives an overlong line's scan as soon as it is {@linkplain MessageScan#decided decided} */
    LineReader(InputStream in, int limit, Consumer<MessageScan> early) {
        this.in = in;
        this.limit = limit;
        this.early = early;
    }

    /** The next line's bytes ({@code length()} valid), or null at end of stream. */
    byte[] next() throws IOException {
        lineLen = 0;
        if (line.length > KEEP) {
            line = new byte[INITIAL];
        }
        MessageScan skipping = null;
        while (true) {
            if (chunkPos == chunkLen) {
                chunkLen = in.read(chunk);
                chunkPos = 0;
                if (chunkLen <= 0) {
                    chunkLen = 0;
                    if (skipping != null) {
                        throw new LineTooLong(limit, skipping);
                    }
                    return lineLen > 0 ? trimmed() : null;
                }
            }
            int start = chunkPos;
            int nl = -1;
            for (int i = chunkPos; i < chunkLen; i++) {
                if (chunk[i] == '\n') {
                    nl = i;
                    break;
                }
            }
            int end = nl < 0 ? chunkLen : nl;
            int n = end - start;
            if (skipping == null && lineLen + n > limit) {
                // over the limit: what was kept goes to the scan, the buffer is given back
                skipping = new MessageScan();
                skipping.feed(line, 0, lineLen);
                lineLen = 0;
                line = new byte[INITIAL];
            }
            if (skipping != null) {
                skipping.feed(chunk, start, n);
                if (skipping.decided()) {
                    early.accept(skipping);
                }
            } else {
                ensure(lineLen + n);
                System.arraycopy(chunk, start, line, lineLen, n);
                lineLen += n;
            }
            chunkPos = nl < 0 ? chunkLen : nl + 1;
            if (nl >= 0) {
                if (skipping != null) {
                    throw new LineTooLong(limit, skipping);
                }
                return trimmed();
            }
        }
    }

    int length() {
        return lineLen;
    }

    private byte[] trimmed() {
        if (lineLen > 0 && line[lineLen - 1] == '\r') {
            lineLen--;
        }
        return line;
    }

    private void ensure(int capacity) {
        if (capacity > line.length) {
            line = Arrays.copyOf(line, Math.max(capacity, Math.min(limit, line.length * 2)));
        }
    }
}
