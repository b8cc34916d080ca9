package dev.cloakgate.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

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

    @Test
    void anOverlongResponseIsIdentifiedWithoutBeingKept() throws IOException {
        // the SDK writes the id last: it is found at the end of a line much longer than the reader's chunk
        String line = "{\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"" + "z".repeat(300_000) + "\"}]},"
                + "\"jsonrpc\":\"2.0\",\"id\":17}";
        LineReader r = reader(line + "\n{\"jsonrpc\":\"2.0\",\"id\":18,\"result\":{}}\n", 1000);
        LineReader.LineTooLong e = assertThrows(LineReader.LineTooLong.class, r::next);
        assertEquals(MessageScan.Kind.RESPONSE, e.scan().kind());
        assertEquals(17L, e.scan().id().asLong());
        assertEquals(line.length(), e.scan().bytes());
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":18,\"result\":{}}", next(r));
    }

    @Test
    void anIdThatComesFirstIsReportedBeforeTheLineEnds() throws IOException {
        List<Long> early = new ArrayList<>();
        String line = "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{\"text\":\"" + "z".repeat(300_000) + "\"}}";
        LineReader r = new LineReader(new ByteArrayInputStream((line + "\n").getBytes(StandardCharsets.UTF_8)), 1000,
                scan -> {
                    if (scan.report()) {
                        early.add(scan.bytes());
                    }
                });
        LineReader.LineTooLong e = assertThrows(LineReader.LineTooLong.class, r::next);
        assertEquals(1, early.size());
        assertEquals(true, early.get(0) < line.length(), "reported while the line was still streaming");
        assertEquals(false, e.scan().report(), "reported once");
    }

    private static LineReader reader(String s, int limit) {
        return new LineReader(new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8)), limit);
    }

    private static String next(LineReader r) throws IOException {
        byte[] b = r.next();
        return new String(b, 0, r.length(), StandardCharsets.UTF_8);
    }
}
