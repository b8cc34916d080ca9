package dev.cloakgate.cloak.detect;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A person's login where the text says it is one: a home directory ({@code /home/jokafor/}, {@code /Users/…},
 * {@code C:\Users\…}, {@code /var/mail/…}), the owner of an {@code ls -l} line (and its group when it is the same
 * name), the user of an authentication log ({@code Accepted publickey for mkowalczyk from}, {@code session opened
 * for user …}, {@code user=…}, {@code username: …}, {@code login …}) and an {@code @mention}. Service and system
 * accounts ({@code root}, {@code deploy}, {@code www-data}, {@code svc-backup}, …) identify nobody and are left
 * alone. One pass over each line, bounded look-ahead from each marker.
 */
final class LoginContexts {
    /** Accounts that belong to software, not people; and words that follow the same markers. */
    private static final Set<String> SYSTEM = Set.copyOf(java.util.Arrays.asList("root", "admin", "administrator", "daemon", "bin", "sys",
            "nobody", "www-data", "www", "nginx", "apache", "httpd", "postgres", "postgresql", "mysql", "redis",
            "git", "gitlab-runner", "jenkins", "ci", "cd", "deploy", "deployer", "ubuntu", "ec2-user", "centos",
            "debian", "fedora", "pi", "vagrant", "docker", "backup", "service", "system", "guest", "test", "tester",
            "user", "users", "staff", "wheel", "sudo", "adm", "postfix", "postmaster", "mail", "ftp", "sshd", "ntp",
            "syslog", "operator", "ansible", "terraform", "app", "apps", "node", "runner", "build", "builder", "bot",
            "dependabot", "renovate", "github-actions", "here", "channel", "everyone", "all", "team", "finance",
            "hr", "ops", "devops", "admins", "security", "support", "shared", "public", "default", "tmp", "temp",
            "cache", "lib", "local", "share", "opt", "etc", "var", "home", "dev", "prod", "staging", "invalid",
            "unknown", "anonymous", "none", "null", "to", "from", "the", "a", "an", "is", "was", "with", "on",
            "in", "at", "by", "for", "and", "or", "not", "new", "old", "name", "password", "id", "uid", "gid",
            "nogroup", "users", "games", "man", "lp", "news", "uucp", "proxy", "list", "irc", "gnats", "messagebus",
            "polkitd", "chrony", "dnsmasq", "sshd", "systemd", "grafana", "prometheus", "elastic", "kibana",
            "tomcat", "oracle", "sa", "dbo", "api", "web", "worker", "workers", "batch", "cron", "scheduler",
            "monitor", "monitoring", "nagios", "zabbix", "splunk", "datadog", "admin1", "user1", "testuser",
            "demo", "example", "sample", "username", "login", "account", "accounts", "library", "documents",
            "downloads", "desktop", "applications", "appdata", "programdata", "src", "source", "data", "logs",
            "scanner", "release", "releases", "jupyter", "echo", "path", "uri", "url", "param", "return", "returns",
            "throws", "see", "since", "version", "deprecated", "link", "media", "import", "apply", "layer", "include",
            "extend", "mixin", "each", "if", "else", "use", "supports", "keyframes", "font-face", "charset",
            "parents", "del", "everyone", "channel", "here", "ubuntu"));

    /** Words after which the next token is a login: {@code user mrossi}, {@code username=…}, {@code login: …}. */
    private static final Set<String> BEFORE = Set.of("user", "username", "login", "logname", "userid", "user_id",
            "user-name", "account", "acct", "uname", "nick", "nickname", "handle", "owner", "assignee",
            "reporter", "author", "committer", "ruser", "euser", "suser", "duser");

    /** {@link #BEFORE} by length, so a word is compared without being copied. */
    private static final String[][] BEFORE_BY_LENGTH = byLength(BEFORE);

    private static String[][] byLength(Set<String> words) {
        String[][] out = new String[16][];
        for (int n = 0; n < out.length; n++) {
            int len = n;
            out[n] = words.stream().filter(w -> w.length() == len).sorted().toArray(String[]::new);
        }
        return out;
    }

    private LoginContexts() {
    }

    /** The ASCII letters a word of {@link #BEFORE} starts with, lower case: most words are ruled out by one look. */
    private static final boolean[] BEFORE_FIRST = new boolean[128];

    static {
        BEFORE.forEach(w -> BEFORE_FIRST[w.charAt(0)] = true);
    }

    /** The word of {@link #BEFORE} that {@code s[i, j)} is (any case), or null. */
    private static String before(String s, int i, int j) {
        int n = j - i;
        if (n >= BEFORE_BY_LENGTH.length) {
            return null;
        }
        char c = s.charAt(i);
        if (c < 128 && !BEFORE_FIRST[Chars.lower(c)]) {
            return null;
        }
        // an ASCII first letter matches a word's (lower-case ASCII) first letter only as itself lower-cased; other
        // characters can match ignoring case (dotless i, long s, Kelvin sign) and are left to regionMatches
        char first = c < 128 ? Chars.lower(c) : 0;
        for (String w : BEFORE_BY_LENGTH[n]) {
            if ((first == 0 || w.charAt(0) == first) && s.regionMatches(true, i, w, 0, n)) {
                return w;
            }
        }
        return null;
    }

    /** Adds {start, end} pairs of the logins in {@code s[from, to)}. */
    static void find(String s, int from, int to, List<int[]> out) {
        permissions(s, from, to, out);
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '/' || c == '\\') {
                int at = homeDirectory(s, i, to);
                if (at > 0) {
                    login(s, at, to, out, true);
                }
            } else if (c == '@' && (i == from || s.charAt(i - 1) == ' ' || s.charAt(i - 1) == '(') && i + 1 < to
                    && Character.isLowerCase(s.charAt(i + 1))) {
                int end = login(s, i + 1, to, null, false);
                // a mention in a sentence, not an npm scope (@types/node), a JSON key ("@odata.etag": …), a
                // decorator (@Override) or a directive (@echo off, @media screen)
                if (end > 0 && (end >= to || " ,.;!?)".indexOf(s.charAt(end)) >= 0)
                        && !(end + 1 < to && s.charAt(end) == ' ' && Character.isLowerCase(s.charAt(end + 1))
                                && i == from)) {
                    out.add(new int[] { i + 1, end });
                }
            } else if (Chars.letter(c) && (i == from || !loginChar(s.charAt(i - 1)))) {
                int j = i;
                while (j < to && (Chars.letter(s.charAt(j)) || s.charAt(j) == '_' || s.charAt(j) == '-')) {
                    j++;
                }
                String word = before(s, i, j);
                if (word != null) {
                    int k = j;
                    // user mrossi | user=mrossi | username: "mrossi" | login 'mrossi'
                    int seps = 0;
                    while (k < to && seps < 3 && (s.charAt(k) == ' ' || s.charAt(k) == '=' || s.charAt(k) == ':'
                            || s.charAt(k) == '"' || s.charAt(k) == '\'')) {
                        k++;
                        seps++;
                    }
                    // "user mrossi" only in log phrasing ("for user", "of user"): "the user clicks" is prose
                    boolean keyed = s.substring(j, k).strip().length() > 0;
                    int end = seps > 0 ? login(s, k, to, null, true) : -1;
                    // .netrc: "machine api.github.com login hkim password …"
                    boolean logPhrase = end > 0 && (word.equals("user") && (s.startsWith("for ", i - 4)
                            || s.startsWith("of ", i - 3)) || word.equals("login") && s.startsWith(" password", end));
                    if (end > 0 && (keyed || logPhrase)) {
                        out.add(new int[] { k, end });
                    }
                } else if (j - i == 3 && s.regionMatches(true, i, "for", 0, 3) && j + 1 < to && s.charAt(j) == ' ') {
                    // sshd: "Accepted publickey for mkowalczyk from 10.0.0.1", "Failed password for aoife.byrne from"
                    int end = login(s, j + 1, to, null, true);
                    if (end > 0 && s.startsWith(" from ", end)) {
                        login(s, j + 1, to, out, true);
                    }
                }
                i = j - 1;
            }
        }
    }

    /** After {@code /home/}, {@code /Users/}, {@code \Users\}, {@code /var/mail/}: where the login starts, or -1. */
    private static int homeDirectory(String s, int i, int to) {
        // "/api/users/…" is a route, not a home directory: macOS and Windows capitalise Users
        for (String dir : new String[] { "home", "Users", "var/mail", "var/spool/mail" }) {
            int after = i + 1 + dir.length();
            if (after < to && s.startsWith(dir, i + 1) && s.charAt(after) == s.charAt(i)) {
                return after + 1;
            }
        }
        return -1;
    }

    /** {@code ls -l} and {@code find -ls} lines: the owner after the permissions, and the group if it is the same. */
    private static void permissions(String s, int from, int to, List<int[]> out) {
        int i = from;
        while (i < to && s.charAt(i) == ' ') {
            i++;
        }
        if (to - i < 12 || "-dlcbps".indexOf(s.charAt(i)) < 0) {
            return;
        }
        for (int k = 1; k <= 9; k++) {
            if ("-rwxsStTl".indexOf(s.charAt(i + k)) < 0) {
                return;
            }
        }
        i += 10;
        if (i < to && (s.charAt(i) == '.' || s.charAt(i) == '@' || s.charAt(i) == '+')) {
            i++;
        }
        i = spaces(s, i, to);
        int j = i;
        while (j < to && Character.isDigit(s.charAt(j))) {
            j++;
        }
        if (j > i) {
            i = spaces(s, j, to);
        }
        int ownerEnd = login(s, i, to, null, true);
        if (ownerEnd < 0) {
            return;
        }
        login(s, i, to, out, true);
        int g = spaces(s, ownerEnd, to);
        int groupEnd = login(s, g, to, null, true);
        if (groupEnd > 0 && s.substring(g, groupEnd).equals(s.substring(i, ownerEnd))) {
            out.add(new int[] { g, groupEnd });
        }
    }

    private static int spaces(String s, int i, int to) {
        while (i < to && s.charAt(i) == ' ') {
            i++;
        }
        return i;
    }

    /**
     * The login starting at {@code at}: letters, digits, '.', '_', '-' from a letter, 2 to 40 characters, not a
     * system account; added to {@code out} when given. Returns its end, or -1.
     */
    private static int login(String s, int at, int to, List<int[]> out, boolean lowerOnly) {
        if (at >= to || !Character.isLetter(s.charAt(at))) {
            return -1;
        }
        int j = at;
        while (j < to && loginChar(s.charAt(j))) {
            j++;
        }
        while (j > at && (s.charAt(j - 1) == '.' || s.charAt(j - 1) == '-' || s.charAt(j - 1) == '_')) {
            j--;
        }
        if (j - at < 2 || j - at > 40) {
            return -1;
        }
        String v = s.substring(at, j);
        String lower = v.toLowerCase(Locale.ROOT);
        if (SYSTEM.contains(lower) || lower.startsWith("svc") || lower.startsWith("systemd") || lower.endsWith("bot")
                || lower.startsWith("guest") || lower.startsWith("test") || lower.startsWith("deleted")
                || lower.endsWith("[bot]") || (lowerOnly && !v.equals(lower)) || lower.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        if (out != null) {
            out.add(new int[] { at, j });
        }
        return j;
    }

    static boolean loginChar(char c) {
        return Chars.letterOrDigit(c) || c == '.' || c == '_' || c == '-';
    }
}
