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
        obfuscated(s, out);
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

    private static final String[] AT_TRIGGERS = { "@", "at", "AT", "At", "aT" };

    /** How an address's at sign is written: as '@' with spaces or in brackets, '@' itself, or the word "at". */
    private enum At { MARKED, PLAIN, WORD }

    /**
     * Addresses written to get past harvesters: {@code marie[at]example[dot]fr}, {@code marie (at) example (dot)
     * fr}, {@code marie @ example.fr}, {@code marie.dubois at example dot fr}, {@code marie[dot]dubois@example.fr}.
     * A bracketed "at" or a spaced '@' is enough; the bare word "at", or a plain '@', counts only where a dot is
     * spelled out too, so "meet me at example.com" stays prose. Each marker costs a bounded scan either side.
     */
    private static void obfuscated(String s, List<Finding> out) {
        // every marker holds '@' or "at" in some case: only those places are looked at (indexOf is a fast scan)
        int[] next = new int[AT_TRIGGERS.length];
        for (int k = 0; k < next.length; k++) {
            next[k] = s.indexOf(AT_TRIGGERS[k]);
        }
        int resume = 0;
        while (true) {
            int k = -1;
            for (int x = 0; x < next.length; x++) {
                if (next[x] >= 0 && (k < 0 || next[x] < next[k])) {
                    k = x;
                }
            }
            if (k < 0) {
                return;
            }
            int i = next[k];
            next[k] = s.indexOf(AT_TRIGGERS[k], i + 1);
            if (i < resume) {
                continue;
            }
            // back over the marker's opening bracket and spaces to where the local part ends
            for (int back = 0; back < 4 && i > 1 && " [({<".indexOf(s.charAt(i - 1)) >= 0; back++) {
                i--;
            }
            if (i < 1 || !localChar(s.charAt(i - 1)) || s.charAt(i - 1) == '.') {
                continue;
            }
            int[] marker = atMarker(s, i);
            if (marker == null) {
                continue;
            }
            At kind = At.values()[marker[1]];
            if (kind != At.MARKED && !spelledNear(s, i, marker[0])) {
                continue; // a plain '@' or the word "at" needs a spelled dot, and none touches this one's parts
            }
            StringBuilder local = new StringBuilder();
            boolean[] spelled = { false };
            int start = localBefore(s, i, local, spelled);
            StringBuilder domain = new StringBuilder();
            int end = domainAfter(s, marker[0], domain, spelled);
            if (start < 0 || end < 0 || (kind != At.MARKED && !spelled[0])) {
                continue;
            }
            String rebuilt = local + "@" + domain;
            if (valid(rebuilt, 0, local.length(), rebuilt.length()) && !machineId(s, start, i)) {
                out.add(new Finding(Category.EMAIL, start, end));
                resume = end;
            }
        }
    }

    /**
     * Whether a spelled-out dot ends the plain stretch of local part before {@code localEnd}, or the plain stretch
     * of domain after {@code domainStart}: cheap (no copy), and false for every ordinary address.
     */
    private static boolean spelledNear(String s, int localEnd, int domainStart) {
        int p = localEnd;
        while (p > 0 && localEnd - p < 256 && localChar(s.charAt(p - 1))) {
            p--;
        }
        if (spelledDotBefore(s, p) >= 0) {
            return true;
        }
        int q = domainStart;
        while (q < s.length() && q - domainStart < 256 && domainChar(s.charAt(q))) {
            q++;
        }
        return spelledDot(s, q) >= 0;
    }

    /** The end of an at-marker starting at {@code i} and its {@link At} kind, or null. */
    private static int[] atMarker(String s, int i) {
        int n = s.length();
        int j = spaces(s, i, 2);
        boolean spaced = j > i;
        if (j < n && s.charAt(j) == '@') {
            int e = spaces(s, j + 1, 2);
            if (spaced != e > j + 1) {
                return null; // "thanks @maria.garcia" is a mention, not an address
            }
            return new int[] { e, (spaced ? At.MARKED : At.PLAIN).ordinal() };
        }
        int e = bracketed(s, j, "at");
        if (e > 0) {
            return new int[] { spaces(s, e, 2), At.MARKED.ordinal() };
        }
        if (spaced && j == i + 1 && s.regionMatches(true, j, "at ", 0, 3) && j + 3 < n && s.charAt(j + 3) != ' ') {
            return new int[] { j + 3, At.WORD.ordinal() };
        }
        return null;
    }

    /** The end of {@code [word]}, {@code (word)}, {@code {word}} or {@code <word>} at {@code i} (case ignored), or -1. */
    private static int bracketed(String s, int i, String word) {
        int n = s.length();
        if (i >= n) {
            return -1;
        }
        int open = "[({<".indexOf(s.charAt(i));
        if (open < 0) {
            return -1;
        }
        int j = spaces(s, i + 1, 1);
        if (s.regionMatches(true, j, word, 0, word.length())) {
            j += word.length();
        } else if (j < n && s.charAt(j) == (word.equals("at") ? '@' : '.')) {
            j++;
        } else {
            return -1;
        }
        j = spaces(s, j, 1);
        return j < n && s.charAt(j) == "])}>".charAt(open) ? j + 1 : -1;
    }

    /** The end of a spelled-out dot at {@code i} ({@code [dot]}, {@code (.)}, {@code " dot "}), or -1. */
    private static int spelledDot(String s, int i) {
        int j = spaces(s, i, 2);
        int e = bracketed(s, j, "dot");
        if (e > 0) {
            return spaces(s, e, 2);
        }
        if (j == i + 1 && s.regionMatches(true, j, "dot ", 0, 4) && j + 4 < s.length() && s.charAt(j + 4) != ' ') {
            return j + 4;
        }
        return -1;
    }

    /** The start of a spelled-out dot that ends at {@code p} (read backwards: {@code [dot]}, {@code " dot "}), or -1. */
    private static int spelledDotBefore(String s, int p) {
        int j = p;
        for (int k = 0; k < 2 && j > 0 && s.charAt(j - 1) == ' '; k++) {
            j--;
        }
        int close = j > 0 ? "])}>".indexOf(s.charAt(j - 1)) : -1;
        int start = -1;
        if (close >= 0) {
            int i = j - 1;
            if (i > 0 && s.charAt(i - 1) == ' ') {
                i--;
            }
            if (i >= 3 && s.regionMatches(true, i - 3, "dot", 0, 3)) {
                i -= 3;
            } else if (i >= 1 && s.charAt(i - 1) == '.') {
                i--;
            } else {
                return -1;
            }
            if (i > 0 && s.charAt(i - 1) == ' ') {
                i--;
            }
            if (i < 1 || s.charAt(i - 1) != "[({<".charAt(close)) {
                return -1;
            }
            start = i - 1;
            for (int k = 0; k < 2 && start > 0 && s.charAt(start - 1) == ' '; k++) {
                start--;
            }
        } else if (p >= 5 && s.regionMatches(true, p - 5, " dot ", 0, 5) && p - 5 > 0 && s.charAt(p - 6) != ' ') {
            start = p - 5;
        }
        // what precedes is the part before the dot, and reading the dot forward from there lands here again
        return start > 0 && localChar(s.charAt(start - 1)) && s.charAt(start - 1) != '.' && spelledDot(s, start) == p
                ? start : -1;
    }

    /**
     * The start of the local part that ends at {@code end}, read backwards over its characters and spelled-out
     * dots (at most 64 characters of it); the part itself, dots restored, goes to {@code local}. -1 when empty.
     */
    private static int localBefore(String s, int end, StringBuilder local, boolean[] spelled) {
        int p = end;
        int floor = Math.max(0, end - 200);
        while (p > floor && local.length() <= 64) {
            char c = s.charAt(p - 1);
            if (localChar(c)) {
                local.append(c);
                p--;
                continue;
            }
            int from = spelledDotBefore(s, p);
            if (from <= floor) {
                break;
            }
            local.append('.');
            spelled[0] = true;
            p = from;
        }
        local.reverse();
        int lead = 0;
        while (lead < local.length() && local.charAt(lead) == '.') {
            lead++;
        }
        local.delete(0, lead);
        return local.length() == 0 ? -1 : p + lead;
    }

    /** The end of the domain starting at {@code start}, over labels and dots plain or spelled; or -1. */
    private static int domainAfter(String s, int start, StringBuilder domain, boolean[] spelled) {
        int n = s.length();
        int p = start;
        int end = -1;
        while (p < n && p - start < 255) {
            int label = p;
            while (p < n && domainChar(s.charAt(p)) && s.charAt(p) != '.') {
                p++;
            }
            if (p == label) {
                break;
            }
            domain.append(s, label, p);
            end = p;
            if (p + 1 < n && s.charAt(p) == '.' && domainChar(s.charAt(p + 1)) && s.charAt(p + 1) != '.') {
                domain.append('.');
                p++;
                continue;
            }
            int dot = spelledDot(s, p);
            if (dot < 0 || dot >= n || !domainChar(s.charAt(dot)) || s.charAt(dot) == '.') {
                break;
            }
            domain.append('.');
            spelled[0] = true;
            p = dot;
        }
        // a label that ends in a hyphen is not a domain's end ("example.fr-" before a suffix)
        while (domain.length() > 0 && domain.charAt(domain.length() - 1) == '-') {
            domain.setLength(domain.length() - 1);
            end--;
        }
        return domain.length() == 0 ? -1 : end;
    }

    private static int spaces(String s, int i, int max) {
        int j = i;
        while (j < s.length() && j - i < max && s.charAt(j) == ' ') {
            j++;
        }
        return j;
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
