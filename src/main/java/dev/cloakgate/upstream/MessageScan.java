package dev.cloakgate.upstream;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * Reads a JSON-RPC message that is too large to keep, as it streams past, for the little that tells what it was:
 * its top-level {@code id} and whether it has a {@code result}, {@code error} or {@code method}. It keeps a few
 * dozen bytes, never a string of the message: Jackson's non-blocking parser would build every string value in
 * full (a 60 MB text block is a 60 MB buffer), which is exactly what skipping must not do. It judges structure
 * only (strings, escapes, nesting), so a malformed message yields no id rather than an error; the id is what the
 * upstream says it answers, which is all the upstream could have said with a small error response too.
 */
final class MessageScan {

    /** What the message was, as far as its top-level keys tell. */
    enum Kind {
        RESPONSE, REQUEST, NOTIFICATION, UNKNOWN
    }

    private static final int KEY_MAX = 8;
    private static final int ID_MAX = 64;

    private long bytes;
    private int depth;
    private boolean inString;
    private boolean escape;
    /** At depth 1, the next string is a member name. */
    private boolean expectKey;
    private boolean inKey;
    private final byte[] key = new byte[KEY_MAX];
    private int keyLen;
    private boolean keyTooLong;
    /** The member whose value comes next at depth 1 (after its colon), as a small code. */
    private int member;
    private boolean expectValue;
    /** The id's value is being captured (a number, literal or string at depth 1). */
    private boolean inId;
    private boolean idIsString;
    private final byte[] id = new byte[ID_MAX];
    private int idLen;
    private boolean idUnusable;
    private boolean idDone;
    private boolean hasResult;
    private boolean hasError;
    private boolean hasMethod;
    private boolean reported;

    private static final int OTHER = 0;
    private static final int ID = 1;

    void feed(byte[] b, int off, int len) {
        bytes += len;
        int end = off + len;
        for (int i = off; i < end; i++) {
            byte c = b[i];
            if (inString) {
                if (escape) {
                    escape = false;
                    capture(c);
                } else if (c == '\\') {
                    escape = true;
                    if (inId) {
                        // an escaped id would need decoding to match: the gateway never issues one
                        idUnusable = true;
                    }
                    capture(c);
                } else if (c == '"') {
                    inString = false;
                    if (inKey) {
                        endKey();
                    } else if (inId) {
                        inId = false;
                        idDone = true;
                    }
                } else {
                    capture(c);
                }
                continue;
            }
            if (inId && !idIsString) {
                if (c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                    inId = false;
                    idDone = true;
                } else {
                    capture(c);
                    continue;
                }
            }
            switch (c) {
                case '"' -> {
                    inString = true;
                    if (depth == 1 && expectKey) {
                        inKey = true;
                        keyLen = 0;
                        keyTooLong = false;
                        expectKey = false;
                    } else if (depth == 1 && expectValue) {
                        expectValue = false;
                        startValue(true);
                    }
                }
                case '{', '[' -> {
                    if (depth == 1 && expectValue) {
                        expectValue = false;
                    }
                    depth++;
                    if (depth == 1 && c == '{') {
                        expectKey = true;
                    }
                }
                case '}', ']' -> depth--;
                case ':' -> {
                    if (depth == 1) {
                        expectValue = true;
                    }
                }
                case ',' -> {
                    if (depth == 1) {
                        expectKey = true;
                        expectValue = false;
                    }
                }
                case ' ', '\t', '\n', '\r' -> {
                    // whitespace between tokens
                }
                default -> {
                    if (depth == 1 && expectValue) {
                        expectValue = false;
                        startValue(false);
                        capture(c);
                    }
                }
            }
        }
    }

    private void capture(byte c) {
        if (inKey) {
            if (keyLen < KEY_MAX) {
                key[keyLen++] = c;
            } else {
                keyTooLong = true;
            }
        } else if (inId) {
            if (idLen < ID_MAX) {
                id[idLen++] = c;
            } else {
                idUnusable = true;
            }
        }
    }

    private void endKey() {
        inKey = false;
        String k = keyTooLong ? "" : new String(key, 0, keyLen, StandardCharsets.US_ASCII);
        member = OTHER;
        switch (k) {
            case "id" -> member = ID;
            case "result" -> hasResult = true;
            case "error" -> hasError = true;
            case "method" -> hasMethod = true;
            default -> {
                // a member we do not need
            }
        }
    }

    private void startValue(boolean string) {
        if (member == ID && !idDone && !inId) {
            inId = true;
            idIsString = string;
            idLen = 0;
        }
    }

    /** Bytes seen so far. */
    long bytes() {
        return bytes;
    }

    /** The message's id, when it had a usable one (an integer, or a short string without escapes). */
    JsonNode id() {
        if (!idDone || idUnusable || idLen == 0 && !idIsString) {
            return null;
        }
        String text = new String(id, 0, idLen, StandardCharsets.UTF_8);
        if (idIsString) {
            return TextNode.valueOf(text);
        }
        try {
            return LongNode.valueOf(Long.parseLong(text));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    Kind kind() {
        if (hasResult || hasError) {
            return idDone ? Kind.RESPONSE : Kind.UNKNOWN;
        }
        if (hasMethod) {
            return idDone ? Kind.REQUEST : Kind.NOTIFICATION;
        }
        return Kind.UNKNOWN;
    }

    /** Enough is known to act before the message ends: its id, and that it answers or asks. */
    boolean decided() {
        return idDone && (hasResult || hasError || hasMethod);
    }

    /** Marks the message as acted on; true the first time. */
    boolean report() {
        if (reported) {
            return false;
        }
        reported = true;
        return true;
    }
}
