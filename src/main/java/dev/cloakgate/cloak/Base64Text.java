package dev.cloakgate.cloak;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Text carried as base64, which is text to whoever decodes it: a model, a client, a tool. Whether base64 holds
 * text is decided by its content, never by a mimeType or a key: a CSV returned as {@code application/octet-stream}
 * is text. Each pass over a payload (escaping, the typed pass, the tripwire) reads strings through {@link #map},
 * which hands it the text a string carries: the string itself, the decoded text when the whole string is base64
 * of text (standard or URL alphabet, padded or not, MIME line breaks), and the decoded text of {@code data:…;base64,}
 * URIs inside it, nested up to {@link #MAX_DEPTH} layers (a second wrapping is free for an attacker). What a pass
 * changes is encoded again in the same layout (alphabet, padding, line length, charset and byte-order mark), so an
 * unchanged payload stays byte for byte as it was and a changed one stays valid.
 *
 * <p>Text is: UTF-16 with a byte-order mark, UTF-16 without one when one byte of each pair is almost always zero
 * (Latin text), strict UTF-8 (whatever the share of control characters: text padded with them to look binary is
 * still text), or single-byte text that is at least 90% printable ASCII with almost no control bytes. Anything
 * else is binary: it stays untouched and is counted ({@code binary_not_text}); a real image or recording is never
 * valid UTF-8. Base64 of text over {@link #MAX_DECODED} bytes, or nested deeper than {@link #MAX_DEPTH}, is not
 * cloaked: it is withheld, replaced by base64 of a short notice, rather than passed raw (fail closed). Telling text
 * from binary reads the bytes once, in chunks, so even the largest payload costs linear time and constant memory.
 */
final class Base64Text {
    /** The most decoded bytes of one base64 text that are cloaked; above it the text is withheld. */
    static final int MAX_DECODED = 8 << 20;
    /** Layers of base64 decoded; text at the next layer is withheld. */
    static final int MAX_DEPTH = 3;
    /** Below this many base64 characters an ordinary string is taken as written (a word, not a payload). */
    private static final int MIN_CHARS = 8;

    /** What {@link #map} found a string to be. */
    enum Outcome { PLAIN, TEXT, BINARY, WITHHELD }

    /** A string as a pass left it, and what it carried. */
    record Mapped(String value, Outcome outcome) {
    }

    private static final byte[] SEXTET = new byte[128];

    static {
        java.util.Arrays.fill(SEXTET, (byte) -1);
        for (int i = 0; i < 26; i++) {
            SEXTET['A' + i] = (byte) i;
            SEXTET['a' + i] = (byte) (26 + i);
        }
        for (int i = 0; i < 10; i++) {
            SEXTET['0' + i] = (byte) (52 + i);
        }
        SEXTET['+'] = 62;
        SEXTET['-'] = 62;
        SEXTET['/'] = 63;
        SEXTET['_'] = 63;
    }

    private Base64Text() {
    }

    /** Whether an object declares its {@code data}/{@code blob} binary: next to a mimeType, or image/audio content. */
    static boolean binaryContext(ObjectNode o) {
        JsonNode type = o.get("type");
        return o.has("mimeType") || type != null && ("image".equals(type.asText()) || "audio".equals(type.asText()));
    }

    /** Whether the field {@code key} of such an object holds base64 by declaration. */
    static boolean binaryField(String key, boolean binaryContext) {
        return binaryContext && ("data".equals(key) || "blob".equals(key));
    }

    /**
     * Applies {@code onText} to the text {@code s} carries and returns the string as it must now be. For a
     * {@code binaryField}, base64 that is not text is left exactly as it is. {@code counts} (null: not counted)
     * receives one outcome per base64 payload: text, binary_not_text, withheld_over_limit, withheld_too_deep.
     */
    static Mapped map(String s, boolean binaryField, UnaryOperator<String> onText, Counts counts) {
        return map(s, binaryField, onText, counts, MAX_DEPTH);
    }

    private static Mapped map(String s, boolean binaryField, UnaryOperator<String> onText, Counts counts, int depth) {
        Layout layout = Layout.parse(s, binaryField ? 1 : MIN_CHARS);
        if (layout != null) {
            long size = layout.decodedLength();
            if (size > MAX_DECODED) {
                Sniff sniff = new Sniff();
                decode(s, sniff);
                if (sniff.finish() != null) {
                    count(counts, "withheld_over_limit");
                    return new Mapped(layout.encode(notice("over the " + MAX_DECODED + "-byte limit for cloaking")),
                            Outcome.WITHHELD);
                }
            } else {
                byte[] bytes = new byte[(int) size];
                decode(s, new Into(bytes));
                Sniff sniff = new Sniff();
                sniff.write(bytes, 0, bytes.length);
                TextCodec codec = sniff.finish();
                String text = codec == null ? null : codec.decode(bytes);
                if (text != null) {
                    if (depth == 0) {
                        count(counts, "withheld_too_deep");
                        return new Mapped(layout.encode(notice("nested deeper than " + MAX_DEPTH + " layers of base64")),
                                Outcome.WITHHELD);
                    }
                    count(counts, "text");
                    String inner = map(text, false, onText, counts, depth - 1).value();
                    if (!inner.equals(text)) {
                        return new Mapped(layout.encode(codec.encode(inner)), Outcome.TEXT);
                    }
                    if (binaryField) {
                        return new Mapped(s, Outcome.TEXT);
                    }
                    // an ordinary string may be a word that decodes by chance: read it as written too
                }
            }
            if (binaryField) {
                count(counts, "binary_not_text");
                return new Mapped(s, Outcome.BINARY);
            }
        } else if (binaryField && looksLike(s)) {
            // declared base64 that does not parse strictly: as before, its bytes are not ours to change
            count(counts, "binary_not_text");
            return new Mapped(s, Outcome.BINARY);
        }
        return new Mapped(dataUris(s, onText, counts, depth), Outcome.PLAIN);
    }

    /** Text with each {@code data:…;base64,} payload in it read as a declared payload; the rest to onText. */
    private static String dataUris(String s, UnaryOperator<String> onText, Counts counts, int depth) {
        int at = indexOfMarker(s, 0);
        if (at < 0) {
            return onText.apply(s);
        }
        StringBuilder out = new StringBuilder(s.length());
        int from = 0;
        while (at >= 0) {
            int start = at + ";base64,".length();
            if (!isDataUri(s, at)) {
                at = indexOfMarker(s, start);
                continue;
            }
            int end = start;
            while (end < s.length() && s.charAt(end) < 128 && (SEXTET[s.charAt(end)] >= 0 || s.charAt(end) == '=')) {
                end++;
            }
            out.append(onText.apply(s.substring(from, start)));
            out.append(map(s.substring(start, end), true, onText, counts, depth).value());
            from = end;
            at = indexOfMarker(s, end);
        }
        return out.append(onText.apply(s.substring(from))).toString();
    }

    private static int indexOfMarker(String s, int from) {
        for (int i = s.indexOf(';', from); i >= 0; i = s.indexOf(';', i + 1)) {
            if (s.regionMatches(true, i, ";base64,", 0, 8)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether {@code ;base64,} at {@code at} ends the header of a data URI ({@code data:} and a media type). */
    private static boolean isDataUri(String s, int at) {
        int p = at;
        while (p > 0 && at - p < 256 && mediaTypeChar(s.charAt(p - 1))) {
            p--;
        }
        return p >= 5 && s.regionMatches(true, p - 5, "data:", 0, 5);
    }

    private static boolean mediaTypeChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "!#$&^_.+-/=;".indexOf(c) >= 0;
    }

    private static byte[] notice(String why) {
        return ("[cloakgate withheld this base64 text: " + why + "]").getBytes(StandardCharsets.UTF_8);
    }

    private static void count(Counts counts, String outcome) {
        if (counts != null) {
            counts.base64(outcome);
        }
    }

    /** Whether a string is plausibly base64 at all (the alphabets, padding, line breaks). */
    static boolean looksLike(String s) {
        int n = s.length();
        int chars = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 128 && SEXTET[c] >= 0) {
                chars++;
            } else if (c == '=') {
                if (i < n - 2) {
                    return false;
                }
            } else if (c != '\n' && c != '\r') {
                // text (spaces, '@', punctuation) is not base64: read it like any string
                return false;
            }
        }
        return chars > 0;
    }

    /** Receives decoded bytes in chunks. */
    private interface Sink {
        void write(byte[] b, int off, int len);
    }

    /** Decodes a string {@link Layout#parse} accepted; separators and padding are skipped. */
    private static void decode(String s, Sink sink) {
        byte[] buf = new byte[8192];
        int k = 0;
        int acc = 0;
        int bits = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            int v = c < 128 ? SEXTET[c] : -1;
            if (v < 0) {
                continue;
            }
            acc = (acc << 6) | v;
            bits += 6;
            if (bits >= 8) {
                bits -= 8;
                buf[k++] = (byte) (acc >> bits);
                acc &= (1 << bits) - 1;
                if (k == buf.length) {
                    sink.write(buf, 0, k);
                    k = 0;
                }
            }
        }
        if (k > 0) {
            sink.write(buf, 0, k);
        }
    }

    /** Collects decoded bytes into an array of the size the layout announced. */
    private static final class Into implements Sink {
        private final byte[] out;
        private int at;

        Into(byte[] out) {
            this.out = out;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            System.arraycopy(b, off, out, at, len);
            at += len;
        }
    }

    /**
     * How a base64 string is laid out, so text put back in it looks the same: alphabet, padding, line length and
     * separator, a final separator. Strict: one alphabet, padding only at the end, CRLF or LF line breaks only.
     */
    private record Layout(boolean url, boolean padded, int line, String separator, boolean trailing, long chars) {
        static Layout parse(String s, int minChars) {
            boolean std = false;
            boolean url = false;
            long data = 0;
            int pads = 0;
            int line = -1;
            int current = 0;
            String separator = null;
            int n = s.length();
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                if (c == '\r' || c == '\n') {
                    String sep = c == '\n' ? "\n" : i + 1 < n && s.charAt(i + 1) == '\n' ? "\r\n" : null;
                    if (sep == null || separator != null && !separator.equals(sep) || current == 0) {
                        return null;
                    }
                    separator = sep;
                    if (line < 0) {
                        line = current;
                    }
                    current = 0;
                    i += sep.length() - 1;
                    continue;
                }
                current++;
                if (c == '=') {
                    pads++;
                    if (pads > 2) {
                        return null;
                    }
                    continue;
                }
                if (pads > 0 || c >= 128 || SEXTET[c] < 0) {
                    return null;
                }
                std |= c == '+' || c == '/';
                url |= c == '-' || c == '_';
                data++;
            }
            if (std && url || data < minChars || (pads > 0 ? (data + pads) % 4 != 0 : data % 4 == 1)) {
                return null;
            }
            boolean trailing = separator != null && current == 0;
            if (trailing && line == s.length() - separator.length()) {
                line = -1; // one line and a final line break: nothing to wrap
            }
            // without padding characters, padding is unknowable when none was needed: the URL alphabet is
            // mostly used unpadded (JWT, URLs), the standard one padded
            return new Layout(url, pads > 0 || data % 4 == 0 && !url, line, separator, trailing, data);
        }

        long decodedLength() {
            return chars * 3 / 4;
        }

        String encode(byte[] bytes) {
            Base64.Encoder e = url ? Base64.getUrlEncoder() : Base64.getEncoder();
            String flat = (padded ? e : e.withoutPadding()).encodeToString(bytes);
            if (separator == null) {
                return flat;
            }
            if (line < 0) {
                return trailing ? flat + separator : flat;
            }
            StringBuilder out = new StringBuilder(flat.length() + flat.length() / line * 2 + 2);
            for (int i = 0; i < flat.length(); i += line) {
                if (i > 0) {
                    out.append(separator);
                }
                out.append(flat, i, Math.min(flat.length(), i + line));
            }
            if (trailing) {
                out.append(separator);
            }
            return out.toString();
        }
    }

    /** A text encoding found in bytes, with its byte-order mark, that decodes strictly and encodes back. */
    private record TextCodec(Charset charset, int bomLength) {
        String decode(byte[] b) {
            try {
                return charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(b, bomLength, b.length - bomLength)).toString();
            } catch (CharacterCodingException e) {
                return null;
            }
        }

        byte[] encode(String text) {
            byte[] body = text.getBytes(charset);
            if (bomLength == 0) {
                return body;
            }
            byte[] out = new byte[bomLength + body.length];
            boolean le = charset.equals(StandardCharsets.UTF_16LE);
            out[0] = (byte) (le ? 0xFF : 0xFE);
            out[1] = (byte) (le ? 0xFE : 0xFF);
            System.arraycopy(body, 0, out, bomLength, body.length);
            return out;
        }
    }

    /** Reads bytes once, in chunks, and says whether they are text and in which encoding. */
    private static final class Sniff implements Sink {
        private long n;
        private final long[] zeros = new long[2];
        private final long[] printable = new long[2];
        private long controls;
        private int first = -1;
        private int second = -1;
        // strict UTF-8 (RFC 3629): continuation bytes still needed, and the range the next one must fall in
        private boolean utf8 = true;
        private int need;
        private int lo = 0x80;
        private int hi = 0xBF;

        @Override
        public void write(byte[] b, int off, int len) {
            for (int i = off; i < off + len; i++) {
                int x = b[i] & 0xFF;
                int parity = (int) (n & 1);
                if (n == 0) {
                    first = x;
                } else if (n == 1) {
                    second = x;
                }
                n++;
                if (x == 0) {
                    zeros[parity]++;
                }
                if ((x >= 0x20 && x < 0x7F) || x == '\t' || x == '\n' || x == '\r' || x == '\f') {
                    printable[parity]++;
                } else if (x < 0x20 || x == 0x7F) {
                    controls++;
                }
                if (utf8) {
                    utf8(x);
                }
            }
        }

        private void utf8(int x) {
            if (need > 0) {
                if (x < lo || x > hi) {
                    utf8 = false;
                    return;
                }
                need--;
                lo = 0x80;
                hi = 0xBF;
                return;
            }
            if (x < 0x80) {
                return;
            }
            if (x >= 0xC2 && x <= 0xDF) {
                need = 1;
            } else if (x >= 0xE0 && x <= 0xEF) {
                need = 2;
                lo = x == 0xE0 ? 0xA0 : 0x80;
                hi = x == 0xED ? 0x9F : 0xBF;
            } else if (x >= 0xF0 && x <= 0xF4) {
                need = 3;
                lo = x == 0xF0 ? 0x90 : 0x80;
                hi = x == 0xF4 ? 0x8F : 0xBF;
            } else {
                utf8 = false;
            }
        }

        /** The encoding, or null for binary. */
        TextCodec finish() {
            boolean even = (n & 1) == 0;
            if (even && n >= 2 && first == 0xFF && second == 0xFE) {
                return new TextCodec(StandardCharsets.UTF_16LE, 2);
            }
            if (even && n >= 2 && first == 0xFE && second == 0xFF) {
                return new TextCodec(StandardCharsets.UTF_16BE, 2);
            }
            long half = n / 2;
            if (even && n >= 4) {
                // Latin text in UTF-16 without a mark: one byte of each pair zero, the other printable
                if (zeros[1] * 4 >= half * 3 && zeros[0] * 4 <= half && printable[0] * 4 >= half * 3) {
                    return new TextCodec(StandardCharsets.UTF_16LE, 0);
                }
                if (zeros[0] * 4 >= half * 3 && zeros[1] * 4 <= half && printable[1] * 4 >= half * 3) {
                    return new TextCodec(StandardCharsets.UTF_16BE, 0);
                }
            }
            if (utf8 && need == 0) {
                return new TextCodec(StandardCharsets.UTF_8, 0);
            }
            if ((printable[0] + printable[1]) * 10 >= n * 9 && controls * 64 <= n) {
                return new TextCodec(StandardCharsets.ISO_8859_1, 0);
            }
            return null;
        }
    }
}
