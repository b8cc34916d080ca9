package dev.cloakgate.upstream;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads newline-delimited records with a hard size limit, so an upstream cannot exhaust memory with an endless
 * line. A trailing {@code \r} is dropped.
 */
final class LineReader {

    /** A line longer than the limit arrived; the reader has skipped to the next newline. */
    static final class LineTooLong extends IOException {
        LineTooLong(int limit) {
            super("line exceeds " + limit + " bytes", null);
        }
    }

    private final InputStream in;
    private final int limit;
    private final byte[] chunk = new byte[64 * 1024];
    private int chunkPos;
    private int chunkLen;
    private byte[] line = new byte[8 * 1024];
    private int lineLen;

    LineReader(InputStream in, int limit) {
        this.in = in;
        this.limit = limit;
    }

    /** The next line's bytes ({@code length()} valid), or null at end of stream. */
    byte[] next() throws IOException {
        lineLen = 0;
        boolean overflow = false;
        while (true) {
            if (chunkPos == chunkLen) {
                chunkLen = in.read(chunk);
                chunkPos = 0;
                if (chunkLen <= 0) {
                    chunkLen = 0;
                    if (overflow) {
                        throw new LineTooLong(limit);
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
            if (!overflow) {
                int n = end - start;
                if (lineLen + n > limit) {
                    overflow = true;
                    lineLen = 0;
                } else {
                    ensure(lineLen + n);
                    System.arraycopy(chunk, start, line, lineLen, n);
                    lineLen += n;
                }
            }
            chunkPos = nl < 0 ? chunkLen : nl + 1;
            if (nl >= 0) {
                if (overflow) {
                    throw new LineTooLong(limit);
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
