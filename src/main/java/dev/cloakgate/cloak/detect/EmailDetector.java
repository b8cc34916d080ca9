package dev.cloakgate.cloak.detect;

import java.util.List;

import dev.cloakgate.cloak.Category;
import dev.cloakgate.cloak.Finding;

/**
 * E-mail addresses: every {@code @} is expanded to the longest local part and domain around it, then validated
 * (lengths, a dotted domain with a letter TLD, labels that neither start nor end with a hyphen).
 */
public final class EmailDetector implements Detector {

    @Override
    public Category category() {
        return Category.EMAIL;
    }

    @Override
    public void detect(String s, List<Finding> out) {
        encoded(s, out);
        int at = s.indexOf('@');
        while (at >= 0) {
            int next = s.indexOf('@', at + 1);
            int start = at;
            while (start > 0 && localChar(s.charAt(start - 1))) {
                start--;
            }
            while (start < at && s.charAt(start) == '.') {
                start++;
            }
            int end = at + 1;
            int limit = next < 0 ? s.length() : next;
            while (end < limit && domainChar(s.charAt(end))) {
                end++;
            }
            while (end > at + 1 && (s.charAt(end - 1) == '.' || s.charAt(end - 1) == '-')) {
                end--;
            }
            if (valid(s, start, at, end) && !machineId(s, start, at)) {
                out.add(new Finding(Category.EMAIL, start, end));
            }
            at = next;
        }
    }

    /** Addresses in URLs, with the at sign percent-encoded: {@code ?email=julien.moreau%40free.fr}. */
    private static void encoded(String s, List<Finding> out) {
        int at = s.indexOf("%40");
        while (at >= 0) {
            int start = at;
            while (start > 0 && localChar(s.charAt(start - 1)) && s.charAt(start - 1) != '%') {
                start--;
            }
            int end = at + 3;
            while (end < s.length() && domainChar(s.charAt(end))) {
                end++;
            }
            while (end > at + 3 && (s.charAt(end - 1) == '.' || s.charAt(end - 1) == '-')) {
                end--;
            }
            String rebuilt = s.substring(start, at) + "@" + s.substring(at + 3, end);
            if (start < at && valid(rebuilt, 0, at - start, rebuilt.length())) {
                out.add(new Finding(Category.EMAIL, start, end));
            }
            at = s.indexOf("%40", at + 3);
        }
    }

    /**
     * Message-IDs and DSNs look like addresses but name no one: a local part that is a UUID or long hex, or
     * an address right after "Message-ID".
     */
    private static boolean machineId(String s, int start, int at) {
        int len = at - start;
        if (len >= 20) {
            int hex = 0;
            for (int i = start; i < at; i++) {
                if (Chars.hex(s.charAt(i)) || s.charAt(i) == '-') {
                    hex++;
                }
            }
            if (hex == len) {
                return true;
            }
        }
        String before = s.substring(Math.max(0, start - 16), start).toLowerCase(java.util.Locale.ROOT);
        return before.contains("message-id") || before.contains("in-reply-to") || before.contains("references");
    }

    @Override
    public boolean acceptsHinted(String value) {
        String v = value.strip();
        int at = v.indexOf('@');
        return at > 0 && at == v.lastIndexOf('@') && at < v.length() - 1 && v.indexOf(' ') < 0;
    }

    private static boolean valid(String s, int start, int at, int end) {
        int local = at - start;
        if (local < 1 || local > 64 || end - start > 254 || s.charAt(at - 1) == '.') {
            return false;
        }
        boolean alnum = false;
        for (int i = start; i < at && !alnum; i++) {
            alnum = Character.isLetterOrDigit(s.charAt(i));
        }
        if (!alnum) {
            return false; // "'@staging.invalid": a SQL fragment, not a mailbox
        }
        int lastDot = -1;
        int labelStart = at + 1;
        for (int i = at + 1; i <= end; i++) {
            if (i == end || s.charAt(i) == '.') {
                int len = i - labelStart;
                if (len < 1 || len > 63 || s.charAt(labelStart) == '-' || s.charAt(i - 1) == '-') {
                    return false;
                }
                if (i < end) {
                    lastDot = i;
                }
                labelStart = i + 1;
            }
        }
        if (lastDot < 0) {
            return false;
        }
        int tld = end - lastDot - 1;
        if (tld < 2) {
            return false;
        }
        for (int i = lastDot + 1; i < end; i++) {
            char c = s.charAt(i);
            if (!(Chars.asciiLetter(c) || (c > 127 && Character.isLetter(c)))) {
                return false;
            }
        }
        return true;
    }

    private static boolean localChar(char c) {
        return Chars.asciiAlnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-' || c == '\''
                || (c > 127 && Character.isLetterOrDigit(c));
    }

    private static boolean domainChar(char c) {
        return Chars.asciiAlnum(c) || c == '.' || c == '-' || (c > 127 && Character.isLetterOrDigit(c));
    }
}
