package dev.cloakgate.upstream;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Incremental text/event-stream decoder (the WHATWG rules MCP uses): fields {@code id}, {@code event},
 * {@code data}, {@code retry}; comments ignored; lines end in LF, CRLF or CR. Data is kept as bytes, copied in
 * runs, never decoded here: the message is parsed once, off the event loop. An event whose data grows past the
 * limit is skipped from there on, unbuffered, through a {@link MessageScan}, and reported as oversized; the stream
 * goes on (with the event's id, so a resume still knows where it was). Field names, ids and event types beyond a
 * small bound are cut, comments are not kept at all.
 */
final class SseDecoder {

    interface Sink {
        /** One event; {@code data} is the event's own copy. */
        void event(String id, String event, byte[] data);

        /** An event whose data was over the limit; {@code scan} saw all of it. */
        void oversized(String id, String event, MessageScan scan);

        void retry(long millis);
    }

    private static final int FIELD_MAX = 16;
    private static final int VALUE_MAX = 1024;
    private static final int KEEP = 256 * 1024;

    private enum Field {
        NONE, DATA, ID, EVENT, RETRY, IGNORED
    }

    private final Sink sink;
    private final int limit;
    // the current line
    private boolean lineStarted;
    private boolean lastWasCr;
    private boolean inValue;
    private boolean valueStarted;
    private Field field = Field.NONE;
    private final byte[] name = new byte[FIELD_MAX + 1];
    private int nameLen;
    private final byte[] value = new byte[VALUE_MAX];
    private int valueLen;
    // the current event
    private byte[] data = new byte[256];
    private int dataLen;
    private boolean hasData;
    private MessageScan skipping;
    private String id;
    private String event;

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
                continue;
            }
            lineStarted = true;
            if (!inValue) {
                if (b == ':') {
                    inValue = true;
                    field = fieldOf(nameLen == 0 ? Field.IGNORED : null);
                } else if (nameLen <= FIELD_MAX) {
                    name[nameLen++] = b;
                }
                continue;
            }
            if (!valueStarted) {
                valueStarted = true;
                if (b == ' ') {
                    continue;
                }
            }
            if (field == Field.DATA) {
                // the rest of a data line up to its end, in one run
                int start = buf.position() - 1;
                int end = start + 1;
                while (end < buf.limit() && buf.get(end) != '\n' && buf.get(end) != '\r') {
                    end++;
                }
                appendData(buf, start, end - start);
                buf.position(end);
            } else if (field != Field.IGNORED && valueLen < VALUE_MAX) {
                value[valueLen++] = b;
            }
        }
    }

    /** The field a name denotes; a line starting with ':' (no name) is a comment. */
    private Field fieldOf(Field comment) {
        if (comment != null) {
            return comment;
        }
        Field f = switch (nameLen > FIELD_MAX ? "" : new String(name, 0, nameLen, StandardCharsets.US_ASCII)) {
            case "data" -> Field.DATA;
            case "id" -> Field.ID;
            case "event" -> Field.EVENT;
            case "retry" -> Field.RETRY;
            default -> Field.IGNORED;
        };
        if (f == Field.DATA) {
            // consecutive data lines are joined by a line feed
            if (hasData) {
                appendData(ByteBuffer.wrap(new byte[] { '\n' }), 0, 1);
            }
            hasData = true;
        }
        return f;
    }

    private void appendData(ByteBuffer buf, int from, int n) {
        if (skipping == null && dataLen + n > limit) {
            skipping = new MessageScan();
            skipping.feed(data, 0, dataLen);
            dataLen = 0;
            data = new byte[256];
        }
        if (skipping != null) {
            if (buf.hasArray()) {
                skipping.feed(buf.array(), buf.arrayOffset() + from, n);
            } else {
                byte[] copy = new byte[n];
                buf.get(from, copy);
                skipping.feed(copy, 0, n);
            }
            return;
        }
        if (dataLen + n > data.length) {
            data = Arrays.copyOf(data, Math.max(dataLen + n, Math.min(limit, data.length * 2)));
        }
        buf.get(from, data, dataLen, n);
        dataLen += n;
    }

    private void endLine() {
        if (!lineStarted) {
            dispatch();
            return;
        }
        if (!inValue) {
            // a line without a colon is a field with an empty value
            field = fieldOf(null);
        }
        String v = new String(value, 0, valueLen, StandardCharsets.UTF_8);
        switch (field) {
            case ID -> {
                if (v.indexOf('\0') < 0 && valueLen < VALUE_MAX) {
                    id = v;
                }
            }
            case EVENT -> event = v;
            case RETRY -> {
                if (!v.isEmpty() && v.chars().allMatch(Character::isDigit) && v.length() < 10) {
                    sink.retry(Long.parseLong(v));
                }
            }
            default -> {
                // data was appended as it came; other fields are ignored, per the SSE rules
            }
        }
        lineStarted = false;
        inValue = false;
        valueStarted = false;
        field = Field.NONE;
        nameLen = 0;
        valueLen = 0;
    }

    private void dispatch() {
        if (skipping != null) {
            sink.oversized(id, event == null ? "message" : event, skipping);
        } else if (hasData || id != null) {
            sink.event(id, event == null ? "message" : event, hasData ? Arrays.copyOf(data, dataLen) : new byte[0]);
        }
        skipping = null;
        if (data.length > KEEP) {
            data = new byte[256];
        }
        dataLen = 0;
        hasData = false;
        event = null;
        id = null;
    }
}
