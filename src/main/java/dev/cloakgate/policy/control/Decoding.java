package dev.cloakgate.policy.control;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Percent-decoding as an attacker would want a lenient server to do it: repeatedly, and with overlong UTF-8
 * accepted, so that the controls judge what a careless consumer might end up opening. Every pass is linear; the
 * number of passes is bounded.
 */
final class Decoding {
    /** More layers than any legitimate value carries; past this the value is treated as hostile. */
    static final int MAX_ROUNDS = 8;

    private Decoding() {
    }

    /**
     * Decodes {@code %XX} until nothing changes, at most {@link #MAX_ROUNDS} passes.
     *
     * @return the fixed point, or null when it was not reached within the bound
     */
    static String percentDecodeFully(String s) {
        String cur = s;
        for (int i = 0; i < MAX_ROUNDS; i++) {
            if (cur.indexOf('%') < 0) {
                return cur;
            }
            String next = percentDecodeOnce(cur);
            if (next.equals(cur)) {
                return cur;
            }
            cur = next;
        }
        return percentDecodeOnce(cur).equals(cur) ? cur : null;
    }

    /** One pass; malformed escapes stay as they are (as browsers leave them). */
    static String percentDecodeOnce(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length() && hex(s.charAt(i + 1)) >= 0 && hex(s.charAt(i + 2)) >= 0) {
                bytes.write(hex(s.charAt(i + 1)) * 16 + hex(s.charAt(i + 2)));
                i += 3;
                continue;
            }
            // Everything else goes through as its UTF-8 bytes (surrogate pairs kept together).
            int cp = s.codePointAt(i);
            byte[] b = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
            bytes.write(b, 0, b.length);
            i += Character.charCount(cp);
        }
        return lenientUtf8(bytes.toByteArray());
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /**
     * UTF-8 that also accepts overlong forms ({@code C0 AE} is '.'), because old and careless decoders did, and
     * that is exactly how {@code %c0%ae%c0%ae/} became a traversal. Invalid bytes become U+FFFD.
     */
    static String lenientUtf8(byte[] b) {
        StringBuilder out = new StringBuilder(b.length);
        int i = 0;
        while (i < b.length) {
            int x = b[i] & 0xff;
            int need;
            int cp;
            if (x < 0x80) {
                out.append((char) x);
                i++;
                continue;
            } else if (x >= 0xc0 && x < 0xe0) {
                need = 1;
                cp = x & 0x1f;
            } else if (x >= 0xe0 && x < 0xf0) {
                need = 2;
                cp = x & 0x0f;
            } else if (x >= 0xf0 && x < 0xf8) {
                need = 3;
                cp = x & 0x07;
            } else {
                out.append('\uFFFD');
                i++;
                continue;
            }
            if (i + need >= b.length) {
                // not enough continuation bytes left
                out.append('\uFFFD');
                i++;
                continue;
            }
            boolean ok = true;
            for (int k = 1; k <= need; k++) {
                int y = b[i + k] & 0xff;
                if ((y & 0xc0) != 0x80) {
                    ok = false;
                    break;
                }
                cp = (cp << 6) | (y & 0x3f);
            }
            if (!ok || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                out.append('\uFFFD');
                i++;
                continue;
            }
            out.appendCodePoint(cp);
            i += need + 1;
        }
        return out.toString();
    }
}
