package dev.cloakgate.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
        public void event(String id, String event, byte[] data) {
            events.add(id + "|" + event + "|" + new String(data, StandardCharsets.UTF_8));
        }

        @Override
        public void oversized(String id, String event, MessageScan scan) {
            events.add(id + "|" + event + "|oversized " + scan.kind() + " id " + scan.id() + " " + scan.bytes());
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
    void everySplitOfAStreamDecodesTheSame() {
        String stream = "id: 7\ndata: {\"jsonrpc\":\"2.0\",\ndata:\"id\":7}\r\n\r\ndata\n\n";
        for (int cut = 0; cut <= stream.length(); cut++) {
            events.clear();
            SseDecoder d = new SseDecoder(new SseDecoder.Sink() {
                @Override
                public void event(String id, String event, byte[] data) {
                    events.add(id + "|" + new String(data, StandardCharsets.UTF_8));
                }

                @Override
                public void oversized(String id, String event, MessageScan scan) {
                    events.add("oversized");
                }

                @Override
                public void retry(long millis) {
                }
            }, 1000);
            d.feed(ByteBuffer.wrap(stream.substring(0, cut).getBytes(StandardCharsets.UTF_8)));
            d.feed(ByteBuffer.wrap(stream.substring(cut).getBytes(StandardCharsets.UTF_8)));
            assertEquals(List.of("7|{\"jsonrpc\":\"2.0\",\n\"id\":7}", "null|"), events, "cut at " + cut);
        }
    }

    @Test
    void anOversizedEventIsSkippedScannedAndTheStreamGoesOn() {
        String big = "{\"result\":{\"text\":\"" + "x".repeat(5000) + "\"},\"jsonrpc\":\"2.0\",\"id\":42}";
        feed("id: 9\ndata: " + big.substring(0, 700));
        feed(big.substring(700) + "\n\n");
        feed("id: 10\ndata: {\"ok\":1}\n\n");
        assertEquals(List.of("9|message|oversized RESPONSE id 42 " + big.length(), "10|message|{\"ok\":1}"), events);
    }

    private void feed(String s) {
        decoder.feed(ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8)));
    }
}
