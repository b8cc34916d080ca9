package dev.cloakgate.policy.control;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The URLs in a string and the hosts they reach, read the way the software that follows them reads them. Three
 * readings, each judged (a URL must be allowed under all of them):
 *
 * <ul>
 * <li>prose: a URL ends at whitespace, quotes, angle brackets or an unbalanced bracket;
 * <li>markup: an HTML attribute value (quoted, or unquoted up to whitespace or '>'), a markdown link destination
 * ({@code ](...)} up to a space or the balancing ')', or {@code ](<...>)}), a link reference definition
 * ({@code [1]: <...>} or {@code [1]: ...}) and a CSS {@code url(...)}, which the browser's parser hands to the
 * URL parser after decoding character references, and which the WHATWG URL parser reads with every tab, LF and CR
 * removed and leading and trailing C0 controls and spaces trimmed: {@code src="https://example.com<TAB>.evil.com"}
 * reaches example.com.evil.com;
 * <li>whole value: a string that starts as a URL (an argument, or a result field named as a URL) is one URL, read
 * the same way.
 * </ul>
 *
 * <p>Scheme-relative forms ({@code //evil.com}, and as a browser resolves them against an https base, any run of
 * two or more slashes and backslashes: {@code \\evil.com}, {@code /\evil.com}) count where a URL can start: at the
 * start of a value, or after {@code ( " ' = < [}. Linear in the text: every search resumes where the last one ended.
 */
final class Links {
    private Links() {
    }

    /** A URL found in text: its span and the host texts the parsers would connect to. */
    record Link(int start, int end, List<String> hosts) {
    }

    private static final java.util.Set<String> SPECIAL = java.util.Set.of("http", "https", "ws", "wss", "ftp");
    /** Longest scheme looked back for; a longer run of scheme characters is still a scheme, just unnamed. */
    private static final int MAX_SCHEME = 32;
    /** Where a scheme-relative URL may start in prose (after one of these, or at the start). */
    private static final String URL_OPENERS = "(\"'=<[";

    /**
     * Every URL with an authority in {@code text}, left to right, overlapping readings merged into one span with
     * every host of each.
     *
     * @param whole whether the string as a whole is read as one URL (when it holds no space once trimmed)
     */
    static List<Link> in(String text, boolean whole) {
        List<Link> found = prose(text);
        if (text.indexOf('=') >= 0 || text.indexOf("](") >= 0 || text.indexOf("]:") >= 0 || text.indexOf("url(") >= 0) {
            markup(text, found);
        }
        if (whole) {
            // a value that starts as a URL is one URL to whoever parses it, words after it included (the parser
            // percent-encodes a space in the path); a value that starts otherwise is prose, read above
            String value = cleaned(CharacterReferences.decode(text));
            List<Link> inValue = prose(value);
            if (!inValue.isEmpty() && inValue.get(0).start == 0) {
                add(found, read(value, 0, text.length()));
            }
        }
        return merge(found);
    }

    // --- prose ---

    /**
     * {@code scheme://...} for any scheme, the special schemes with any run of slashes or backslashes (browsers
     * accept {@code https:\\evil.com} and {@code https:evil.com}), and scheme-relative forms where a URL can start.
     */
    private static List<Link> prose(String text) {
        List<Link> found = new ArrayList<>();
        int n = text.length();
        int floor = 0; // never look back into a link already taken
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            Link l = null;
            if (c == ':') {
                l = schemeLink(text, i, floor);
            } else if (slash(c) && i + 1 < n && slash(text.charAt(i + 1)) && i >= floor
                    && (i == 0 || URL_OPENERS.indexOf(text.charAt(i - 1)) >= 0)) {
                l = relativeLink(text, i);
            }
            if (l != null) {
                found.add(l);
                i = l.end;
                floor = l.end;
            } else {
                i++;
            }
        }
        return found;
    }

    private static Link schemeLink(String text, int colon, int floor) {
        int j = colon - 1;
        while (j >= floor && colon - j <= MAX_SCHEME && schemeChar(text.charAt(j))) {
            j--;
        }
        int start = j + 1;
        while (start < colon && !letter(text.charAt(start))) {
            start++; // a scheme starts with a letter
        }
        if (start >= colon) {
            return null;
        }
        String scheme = text.substring(start, colon).toLowerCase(Locale.ROOT);
        int p = colon + 1;
        int n = text.length();
        if (SPECIAL.contains(scheme)) {
            int q = p;
            while (q < n && slash(text.charAt(q))) {
                q++;
            }
            // curl reads the authority only after a literal "//"; browsers after any run of slashes
            boolean rfc = q - p == 2 && text.startsWith("//", p);
            return authorityLink(text, start, q, true, rfc);
        }
        if (scheme.equals("file")) {
            int q = p;
            while (q < n && slash(text.charAt(q))) {
                q++;
            }
            // file://host/share reaches a remote host (SMB on Windows); file:/// and file:/x do not
            return q - p == 2 ? authorityLink(text, start, q, true, text.startsWith("//", p)) : null;
        }
        if (text.startsWith("//", p)) {
            return authorityLink(text, start, p + 2, false, true);
        }
        return null; // mailto:, urn:, data:, "note: ..." have no authority
    }

    /**
     * A scheme-relative URL: a browser skips every slash and backslash of the run before the authority; a reader
     * of RFC 3986 sees an authority only after exactly "//".
     */
    private static Link relativeLink(String text, int start) {
        int q = start;
        while (q < text.length() && slash(text.charAt(q))) {
            q++;
        }
        return authorityLink(text, start, q, true, q - start == 2 && text.startsWith("//", start));
    }

    /**
     * The link from {@code start}, its authority from {@code auth}. {@code whatwg}: the authority also ends at a
     * backslash; {@code rfc}: it ends only at / ? #. Both readings are returned when they differ.
     */
    private static Link authorityLink(String text, int start, int auth, boolean whatwg, boolean rfc) {
        int end = linkEnd(text, start);
        if (auth >= end) {
            return null;
        }
        List<String> hosts = new ArrayList<>(2);
        if (whatwg) {
            addHost(hosts, hostOf(text.substring(auth, authorityEnd(text, auth, end, true))));
        }
        if (rfc) {
            addHost(hosts, hostOf(text.substring(auth, authorityEnd(text, auth, end, false))));
        }
        if (hosts.isEmpty()) {
            return null; // no host, no egress (file:///x, "https://" in prose)
        }
        return new Link(start, end, List.copyOf(hosts));
    }

    private static void addHost(List<String> hosts, String h) {
        if (h != null && !h.isEmpty() && !hosts.contains(h)) {
            hosts.add(h);
        }
    }

    private static int authorityEnd(String text, int from, int end, boolean backslash) {
        for (int i = from; i < end; i++) {
            char c = text.charAt(i);
            if (c == '/' || c == '?' || c == '#' || (backslash && c == '\\')) {
                return i;
            }
        }
        return end;
    }

    /**
     * Where a URL in prose stops: whitespace, quotes, angle brackets, a closing parenthesis or bracket it did not
     * open (markdown), then trailing sentence punctuation.
     */
    private static int linkEnd(String text, int start) {
        int n = text.length();
        int parens = 0;
        int brackets = 0;
        int i = start;
        while (i < n) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c) || Character.isISOControl(c) || c == '"' || c == '\'' || c == '<'
                    || c == '>' || c == '`') {
                break;
            }
            if (c == '(') {
                parens++;
            } else if (c == ')') {
                if (parens == 0) {
                    break;
                }
                parens--;
            } else if (c == '[') {
                brackets++;
            } else if (c == ']') {
                if (brackets == 0) {
                    break;
                }
                brackets--;
            }
            i++;
        }
        while (i > start && ".,;:!?*".indexOf(text.charAt(i - 1)) >= 0) {
            i--;
        }
        return i;
    }

    /** The host of an authority: after the last '@', before the port; IPv6 keeps its brackets. */
    static String hostOf(String authority) {
        String hp = authority.substring(authority.lastIndexOf('@') + 1);
        if (hp.startsWith("[")) {
            int close = hp.indexOf(']');
            return close < 0 ? hp : hp.substring(0, close + 1);
        }
        int colon = hp.indexOf(':');
        return colon < 0 ? hp : hp.substring(0, colon);
    }

    // --- markup ---

    /** Attribute values and markdown link destinations, each read as the URL parser would receive it. */
    private static void markup(String text, List<Link> out) {
        int n = text.length();
        Next next = new Next(text);
        Map<Integer, Integer> closes = null;
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '=' && attributeName(text, i)) {
                int v = i + 1;
                while (v < n && space(text.charAt(v))) {
                    v++;
                }
                if (v >= n) {
                    break;
                }
                char q = text.charAt(v);
                int end;
                int resume;
                if (q == '"' || q == '\'') {
                    end = next.of(q, v + 1);
                    if (end < 0) {
                        i = v + 1;
                        continue;
                    }
                    add(out, context(text, v + 1, end));
                    resume = end + 1;
                } else {
                    end = v;
                    while (end < n && !space(text.charAt(end)) && text.charAt(end) != '>') {
                        end++;
                    }
                    add(out, context(text, v, end));
                    resume = Math.max(end, v + 1);
                }
                i = resume;
                continue;
            }
            if (c == ']' && i + 1 < n && text.charAt(i + 1) == ':') {
                // a markdown link reference definition: "[1]: <destination>" or "[1]: destination"
                int d = i + 2;
                while (d < n && (text.charAt(d) == ' ' || text.charAt(d) == '\t')) {
                    d++;
                }
                int end = destinationEnd(text, d, next);
                if (end > d) {
                    boolean pointy = text.charAt(d) == '<';
                    add(out, context(text, pointy ? d + 1 : d, end));
                    i = end;
                    continue;
                }
            }
            if (c == '(' && i >= 3 && text.regionMatches(true, i - 3, "url", 0, 3)) {
                // CSS url(...), quoted or not: a quoted one keeps its tabs for the URL parser to remove
                int d = i + 1;
                while (d < n && space(text.charAt(d))) {
                    d++;
                }
                if (d < n) {
                    char q = text.charAt(d);
                    int end = q == '"' || q == '\'' ? next.of(q, d + 1) : next.of(')', d);
                    if (end > d) {
                        add(out, context(text, q == '"' || q == '\'' ? d + 1 : d, end));
                        i = end;
                        continue;
                    }
                }
            }
            if (c == ']' && i + 1 < n && text.charAt(i + 1) == '(') {
                int d = i + 2;
                if (d < n && text.charAt(d) == '<') {
                    int close = next.of('>', d + 1);
                    if (close >= 0) {
                        add(out, context(text, d + 1, close));
                        i = close + 1;
                        continue;
                    }
                } else {
                    if (closes == null) {
                        closes = destinationCloses(text);
                    }
                    Integer close = closes.get(i + 1);
                    if (close != null) {
                        int sp = next.of(' ', d);
                        int end = sp >= 0 && sp < close ? sp : close;
                        add(out, context(text, d, end));
                        i = Math.max(end, d);
                        continue;
                    }
                }
            }
            i++;
        }
    }

    /**
     * The end of a reference definition's destination from {@code d}: the '>' of {@code <...>} (which may hold
     * tabs, not line ends), or the first whitespace or control character of a plain one; {@code d} when none.
     */
    private static int destinationEnd(String text, int d, Next next) {
        int n = text.length();
        if (d >= n) {
            return d;
        }
        if (text.charAt(d) == '<') {
            int close = next.of('>', d + 1);
            int line = next.of('\n', d + 1);
            return close > d && (line < 0 || close < line) ? close : d;
        }
        int end = d;
        while (end < n && text.charAt(end) > ' ') {
            end++;
        }
        return end;
    }

    /** {@code text[from, to)} as the URL parser receives it from markup: one link spanning it, or null. */
    private static Link context(String text, int from, int to) {
        return to <= from ? null : read(cleaned(CharacterReferences.decode(text.substring(from, to))), from, to);
    }

    /** One link spanning {@code [from, to)} with the hosts of every URL in {@code value}, or null when none. */
    private static Link read(String value, int from, int to) {
        List<String> hosts = new ArrayList<>(2);
        for (Link l : prose(value)) {
            for (String h : l.hosts) {
                addHost(hosts, h);
            }
        }
        return hosts.isEmpty() ? null : new Link(from, to, List.copyOf(hosts));
    }

    /** The WHATWG URL parser's first steps: leading and trailing C0 controls and spaces go, then every tab and newline. */
    static String cleaned(String s) {
        int a = 0;
        int b = s.length();
        while (a < b && s.charAt(a) <= ' ') {
            a++;
        }
        while (b > a && s.charAt(b - 1) <= ' ') {
            b--;
        }
        StringBuilder out = null;
        for (int i = a; i < b; i++) {
            char c = s.charAt(i);
            if (c == '\t' || c == '\n' || c == '\r') {
                if (out == null) {
                    out = new StringBuilder(b - a).append(s, a, i);
                }
            } else if (out != null) {
                out.append(c);
            }
        }
        return out != null ? out.toString() : s.substring(a, b);
    }

    /** "name=" or "name =": an attribute, as far as a URL is concerned. */
    private static boolean attributeName(String text, int eq) {
        int p = eq - 1;
        while (p >= 0 && space(text.charAt(p))) {
            p--;
        }
        if (p < 0) {
            return false;
        }
        char c = text.charAt(p);
        return letter(c) || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == ':';
    }

    /** For each '(' that follows ']', the ')' that balances it; one pass with a stack. */
    private static Map<Integer, Integer> destinationCloses(String text) {
        Map<Integer, Integer> out = new HashMap<>();
        int[] stack = new int[16];
        int depth = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') {
                if (depth == stack.length) {
                    stack = java.util.Arrays.copyOf(stack, depth * 2);
                }
                stack[depth++] = i;
            } else if (c == ')' && depth > 0) {
                int open = stack[--depth];
                if (open > 0 && text.charAt(open - 1) == ']') {
                    out.put(open, i);
                }
            }
        }
        return out;
    }

    /** The next occurrence of a character at or after a position that only grows: each character's search resumes. */
    private static final class Next {
        private final String text;
        private final Map<Character, Integer> at = new HashMap<>(8);

        Next(String text) {
            this.text = text;
        }

        int of(char c, int from) {
            Integer known = at.get(c);
            if (known != null && (known < 0 || known >= from)) {
                return known;
            }
            int found = text.indexOf(c, from);
            at.put(c, found);
            return found;
        }
    }

    private static void add(List<Link> out, Link l) {
        if (l != null) {
            out.add(l);
        }
    }

    /** Overlapping spans become one, with the hosts of each. */
    private static List<Link> merge(List<Link> links) {
        if (links.size() <= 1) {
            return links;
        }
        links.sort(Comparator.comparingInt(Link::start));
        List<Link> out = new ArrayList<>(links.size());
        Link cur = links.get(0);
        for (int k = 1; k < links.size(); k++) {
            Link l = links.get(k);
            if (l.start < cur.end) {
                List<String> hosts = new ArrayList<>(cur.hosts);
                l.hosts.forEach(h -> addHost(hosts, h));
                cur = new Link(cur.start, Math.max(cur.end, l.end), List.copyOf(hosts));
            } else {
                out.add(cur);
                cur = l;
            }
        }
        out.add(cur);
        return out;
    }

    private static boolean slash(char c) {
        return c == '/' || c == '\\';
    }

    private static boolean space(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
    }

    static boolean letter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    static boolean schemeChar(char c) {
        return letter(c) || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
    }
}
