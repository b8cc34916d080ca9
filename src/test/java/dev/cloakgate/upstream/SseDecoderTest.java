package dev.cloakgate.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class SseDecoderTest {
    private final List<String> events = new ArrayList<>();
    private final List<Long> retries = new ArrayList<>();
    private final SseDecoder decoder = new SseDecoder(new SseDecoder.Sink() {
        @Override
        public void event(String id, String event, String data) {
            events.add(id + "|" + event + "|" + data);
        }

        @Override
        public void retry(long millis) {
            retries.add(millis);
        }
    }, 1000);

    @Test
    void decodesEventsSplitAcrossChunksAndLineEndings() {
        feed("id: 1\r\nretry: 500\r\ndata: {\"a\"");
        feed(":1}\r\n\r\n: comment\n\nevent: other\ndata: x\ndata: y\n\n");
        feed("id: 3\rdata: z\r\r");
        assertEquals(List.of("1|message|{\"a\":1}", "null|other|x\ny", "3|message|z"), events);
        assertEquals(List.of(500L), retries);
    }

    @Test
    void primingEventWithIdAndNoDataIsReported() {
        feed("id: p-1\ndata: \n\n");
        assertEquals(List.of("p-1|message|"), events);
    }

    @Test
    void oversizedEventFailsTheStream() {
        assertThrows(SseDecoder.EventTooLarge.class, () -> feed("data: " + "x".repeat(2000) + "\n\n"));
    }

    private void feed(String s) {
        decoder.feed(ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8)));
    }
}
