package dev.cloakgate.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class LineReaderTest {

    @Test
    void splitsLinesAndDropsCarriageReturns() throws IOException {
        LineReader r = reader("one\r\ntwo\n\nthree", 100);
        assertEquals("one", next(r));
        assertEquals("two", next(r));
        assertEquals("", next(r));
        assertEquals("three", next(r));
        assertNull(r.next());
    }

    @Test
    void anOverlongLineIsSkippedAndReadingContinues() throws IOException {
        LineReader r = reader("x".repeat(50) + "\nok\n", 10);
        assertThrows(LineReader.LineTooLong.class, r::next);
        assertEquals("ok", next(r));
    }

    @Test
    void linesLongerThanOneChunk() throws IOException {
        String big = "y".repeat(200_000);
        LineReader r = reader(big + "\n", 1 << 20);
        assertEquals(big, next(r));
    }

    private static LineReader reader(String s, int limit) {
        return new LineReader(new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8)), limit);
    }

    private static String next(LineReader r) throws IOException {
        byte[] b = r.next();
        return new String(b, 0, r.length(), StandardCharsets.UTF_8);
    }
}
