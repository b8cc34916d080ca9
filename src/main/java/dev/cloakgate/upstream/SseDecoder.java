package dev.cloakgate.upstream;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Incremental text/event-stream decoder (the WHATWG rules MCP uses): fields {@code id}, {@code event},
 * {@code data}, {@code retry}; comments ignored; lines end in LF, CRLF or CR. An event larger than the limit
 * fails the stream instead of growing without bound.
 */
final class SseDecoder {

    interface Sink {
        void event(String id, String event, String data);

        void retry(long millis);
    }

    static final class EventTooLarge extends RuntimeException {
        EventTooLarge(int limit) {
            super("SSE event exceeds " + limit + " bytes", null, false, false);
        }
    }

    private final Sink sink;
    private final int limit;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
    private final StringBuilder data = new StringBuilder();
    private boolean hasData;
    private String id;
    private String event;
    private boolean lastWasCr;
    private int eventBytes;

    SseDecoder(Sink sink, int limit) {
        this.sink = sink;
        this.limit = limit;
    }

    void feed(ByteBuffer buf) {
        while (buf.hasRemaining()) {
            byte b = buf.get();
            if (b == '\n' && lastWasCr) {
                lastWasCr = false;
                continue;
            }
            lastWasCr = b == '\r';
            if (b == '\n' || b == '\r') {
                endLine();
            } else {
                if (++eventBytes > limit) {
                    throw new EventTooLarge(limit);
                }
                line.write(b);
            }
        }
    }

    private void endLine() {
        if (line.size() == 0) {
            dispatch();
            return;
        }
        String l = line.toString(StandardCharsets.UTF_8);
        line.reset();
        if (l.startsWith(":")) {
            return;
        }
        int colon = l.indexOf(':');
        String field = colon < 0 ? l : l.substring(0, colon);
        String value = colon < 0 ? "" : l.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        switch (field) {
            case "data" -> {
                if (hasData) {
                    data.append('\n');
                }
                data.append(value);
                hasData = true;
            }
            case "id" -> {
                if (value.indexOf('\0') < 0) {
                    id = value;
                }
            }
            case "event" -> event = value;
            case "retry" -> {
                if (!value.isEmpty() && value.chars().allMatch(Character::isDigit) && value.length() < 10) {
                    sink.retry(Long.parseLong(value));
                }
            }
            default -> {
                // unknown fields are ignored, per the SSE rules
            }
        }
    }

    private void dispatch() {
        if (hasData || id != null) {
            sink.event(id, event == null ? "message" : event, hasData ? data.toString() : "");
        }
        data.setLength(0);
        hasData = false;
        event = null;
        id = null;
        eventBytes = 0;
    }
}
