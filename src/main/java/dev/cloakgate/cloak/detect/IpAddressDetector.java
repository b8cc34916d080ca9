package dev.cloakgate.cloak.detect;

import java.util.List;
import java.util.Locale;

import dev.cloakgate.cloak.Category;
import dev.cloakgate.cloak.Finding;

/**
 * IPv4 and IPv6 addresses, parsed rather than shaped: four octets of 0-255 without leading zeros, or eight
 * hex groups (fewer with one {@code ::}, an embedded IPv4 counting as two). Never resolved: nothing here
 * touches DNS. Dotted quads that continue ({@code 1.2.3.4.5}) or follow {@code v}/{@code version} are version
 * numbers, not addresses.
 */
public final class IpAddressDetector implements Detector {

    @Override
    public Category category() {
        return Category.IP_ADDRESS;
    }

    @Override
    public void detect(String s, List<Finding> out) {
        int n = s.length();
        // IPv6 needs a colon: each run of hex digits, colons and dots around one is examined once
        int colon = s.indexOf(':');
        int coveredTo = 0;
        List<int[]> v6 = new java.util.ArrayList<>();
        while (colon >= 0) {
            if (colon >= coveredTo) {
                int start = colon;
                while (start > 0 && v6Char(s.charAt(start - 1))) {
                    start--;
                }
                int end = runEnd(s, colon);
                coveredTo = end;
                if (s.charAt(start) == ':' && (start + 1 >= n || s.charAt(start + 1) != ':')) {
                    start++; // "Address:2001:db8::13": the colon after a label is not part of the address
                }
                if (boundaryBefore(s, start) && !Chars.wordAt(s, end)) {
                    int e = trimmedV6End(s, start, end);
                    // no address is longer than 45 characters: a longer run is not parsed (nor copied) at all
                    if (e > start && e - start <= 45 && validV6(s.substring(start, e))) {
                        out.add(new Finding(Category.IP_ADDRESS, start, e));
                        v6.add(new int[] { start, e });
                    }
                }
            }
            colon = s.indexOf(':', Math.max(colon + 1, coveredTo));
        }
        // IPv4: a digit that starts a dotted quad (not the IPv4 tail of an IPv6 address already reported)
        int next6 = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (!Chars.digit(c)) {
                continue;
            }
            while (next6 < v6.size() && v6.get(next6)[1] <= i) {
                next6++;
            }
            boolean inV6 = next6 < v6.size() && v6.get(next6)[0] <= i;
            if (i + 6 < n && !inV6 && boundaryBefore(s, i)) {
                int e = v4End(s, i);
                if (e > 0 && !versionContext(s, i) && !networkOrMask(s, i, e)) {
                    out.add(new Finding(Category.IP_ADDRESS, i, e));
                    i = e;
                    continue;
                }
            }
            while (i + 1 < n && Chars.digit(s.charAt(i + 1))) {
                i++;
            }
        }
    }

    private static boolean v6Char(char c) {
        return Chars.hex(c) || c == ':' || c == '.';
    }

    @Override
    public boolean acceptsHinted(String value) {
        String v = value.strip();
        return v4End(v, 0) == v.length() || validV6(v);
    }

    private static boolean boundaryBefore(String s, int i) {
        if (i == 0) {
            return true;
        }
        char p = s.charAt(i - 1);
        char pp = i >= 2 ? s.charAt(i - 2) : ' ';
        if (p == '.' && Chars.digit(pp)) {
            return false;
        }
        if (p == ':') {
            return Character.isLetter(pp); // "Address:203.0.113.19", not inside an IPv6 address
        }
        if (p == '-') {
            return false; // "app-7.3.0.1", "…-1.0.1.1": versions and ids
        }
        return !Chars.wordish(p);
    }

    private static int runEnd(String s, int i) {
        int n = s.length();
        int j = i;
        while (j < n && v6Char(s.charAt(j))) {
            j++;
        }
        return j;
    }

    /** Drops trailing punctuation that ends a sentence or a log field ("at 2001:db8::1." or "::1:"). */
    private static int trimmedV6End(String s, int start, int end) {
        int e = end;
        while (e > start && (s.charAt(e - 1) == '.' || (s.charAt(e - 1) == ':' && !(e - 2 >= start
                && s.charAt(e - 2) == ':')))) {
            e--;
        }
        return e;
    }

    /** The end of a valid dotted quad starting at {@code i}, or -1. */
    static int v4End(String s, int i) {
        int n = s.length();
        int j = i;
        for (int octet = 0; octet < 4; octet++) {
            int start = j;
            int v = 0;
            while (j < n && Chars.digit(s.charAt(j)) && j - start < 4) {
                v = v * 10 + (s.charAt(j) - '0');
                j++;
            }
            int len = j - start;
            if (len == 0 || len > 3 || v > 255 || (len > 1 && s.charAt(start) == '0')) {
                return -1;
            }
            if (octet < 3) {
                if (j >= n || s.charAt(j) != '.') {
                    return -1;
                }
                j++;
            }
        }
        if (j < n) {
            char c = s.charAt(j);
            if (Chars.wordish(c) || (c == '.' && j + 1 < n && Chars.digit(s.charAt(j + 1)))) {
                return -1;
            }
        }
        return j;
    }

    private static boolean hasDigit(String a) {
        for (int i = 0; i < a.length(); i++) {
            if (Chars.digit(a.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    private static boolean versionContext(String s, int i) {
        int from = Math.max(0, i - 14);
        String before = s.substring(from, i).toLowerCase(Locale.ROOT);
        return before.endsWith("v") || before.contains("version") || before.contains("ver.")
                || before.contains("release") || before.contains("build");
    }

    /** A network ("130.0.0.0") or a netmask ("255.255.240.0") identifies no host. */
    private static boolean networkOrMask(String s, int start, int end) {
        String[] o = s.substring(start, end).split("\\.");
        if (o[1].equals("0") && o[2].equals("0") && o[3].equals("0")) {
            return true;
        }
        long bits = 0;
        for (String x : o) {
            bits = (bits << 8) | Integer.parseInt(x);
        }
        long inverted = ~bits & 0xFFFFFFFFL;
        return o[0].equals("255") && (inverted & (inverted + 1)) == 0;
    }

    static boolean validV6(String a) {
        if (a.length() < 3 || a.equals("::") || a.indexOf(':') < 0 || !hasDigit(a)) {
            // "a::b" is a valid address in theory and a Rust or C++ path in practice
            return false;
        }
        int dbl = a.indexOf("::");
        if (dbl >= 0 && a.indexOf("::", dbl + 1) >= 0) {
            return false;
        }
        String[] sides = dbl >= 0 ? new String[] { a.substring(0, dbl), a.substring(dbl + 2) } : new String[] { a };
        int groups = 0;
        for (int side = 0; side < sides.length; side++) {
            String part = sides[side];
            if (part.isEmpty()) {
                continue;
            }
            String[] g = part.split(":", -1);
            for (int k = 0; k < g.length; k++) {
                String grp = g[k];
                boolean last = side == sides.length - 1 && k == g.length - 1;
                if (last && grp.indexOf('.') >= 0) {
                    if (v4End(grp, 0) != grp.length()) {
                        return false;
                    }
                    groups += 2;
                    continue;
                }
                if (grp.isEmpty() || grp.length() > 4) {
                    return false;
                }
                for (int c = 0; c < grp.length(); c++) {
                    if (!Chars.hex(grp.charAt(c))) {
                        return false;
                    }
                }
                groups++;
            }
        }
        return dbl >= 0 ? groups < 8 : groups == 8;
    }
}
