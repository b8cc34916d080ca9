package dev.cloakgate.policy.control;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Base64 spans that decode to prose. A span is decoded only if its first bytes already look like text, so
 * binary attachments (PNG, gzip) cost a sniff, not a decode; hex digests, UUIDs and JWT segments decode to
 * bytes or to JSON, never to sentences, and are left alone. One layer only.
 */
final class EncodedText {
    private static final int MIN_SPAN = 24;
    private static final int MAX_SPAN = 64 * 1024;

    List<String> prose(String s) {
        List<String> out = new ArrayList<>(0);
        int n = s.length();
        int i = 0;
        while (i < n) {
            if (!isB64(s.charAt(i))) {
                i++;
                continue;
            }
            int start = i;
            while (i < n && isB64(s.charAt(i))) {
                i++;
            }
            int end = i;
            while (i < n && s.charAt(i) == '=') {
                i++;
            }
            if (end - start >= MIN_SPAN && (start == 0 || !Character.isLetterOrDigit(s.charAt(start - 1)))) {
                String text = decode(s.substring(start, Math.min(end, start + MAX_SPAN)));
                if (text != null) {
                    out.add(text);
                }
            }
        }
        return out;
    }

    private static boolean isB64(char c) {
        return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/'
                || c == '-' || c == '_';
    }

    private static String decode(String span) {
        boolean url = span.indexOf('-') >= 0 || span.indexOf('_') >= 0;
        if (url && (span.indexOf('+') >= 0 || span.indexOf('/') >= 0) || allHex(span)) {
            return null;
        }
        Base64.Decoder decoder = url ? Base64.getUrlDecoder() : Base64.getDecoder();
        try {
            // sniff the first 48 bytes before decoding the whole span
            if (!looksLikeProse(decoder.decode(span.substring(0, Math.min(span.length(), 64) & ~3)), true)) {
                return null;
            }
            String whole = span.substring(0, span.length() & ~3);
            byte[] bytes = decoder.decode(whole);
            if (!looksLikeProse(bytes, false)) {
                return null;
            }
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (IllegalArgumentException | CharacterCodingException e) {
            return null;
        }
    }

    private static boolean allHex(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) {
                return false;
            }
        }
        return true;
    }

    /** Mostly letters and spaces, words of plausible length, no control bytes, not JSON. */
    private static boolean looksLikeProse(byte[] b, boolean prefix) {
        if (b.length == 0 || b[0] == '{' || b[0] == '[') {
            return false;
        }
        int letters = 0;
        int spaces = 0;
        for (byte x : b) {
            int c = x & 0xFF;
            if (c == ' ') {
                spaces++;
            } else if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80) {
                letters++;
            } else if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' || c == 0x7F) {
                return false;
            }
        }
        return letters * 10 >= b.length * 6 && spaces * 25 >= b.length && (prefix || spaces >= 2);
    }
}
