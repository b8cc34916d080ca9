package dev.cloakgate.cloak.detect;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.cloakgate.cloak.Category;
import dev.cloakgate.cloak.Finding;

/**
 * Credentials by their issuers' formats: AWS access key ids, GitHub and Slack tokens and webhooks, JWTs (the
 * header must decode to JSON naming an {@code alg}), PEM private-key blocks, and provider API keys (OpenAI,
 * Anthropic, Stripe, Google, SendGrid, Twilio). Each pattern is only run when its literal prefix occurs, so a
 * string without any costs one scan per prefix.
 */
public final class SecretDetector implements Detector {

    /** {@code lead}: how many characters the pattern may start before its literal prefix. */
    private record Kind(String prefix, Pattern pattern, int lead) {
    }

    private static final Kind[] KINDS = {
            kind("AKIA", "(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}(?![A-Za-z0-9])"),
            kind("ASIA", "ASIA[A-Z0-9]{16}(?![A-Za-z0-9])"),
            kind("gh", "gh[pousr]_[A-Za-z0-9]{36,255}(?![A-Za-z0-9_])"),
            kind("github_pat_", "github_pat_[A-Za-z0-9_]{22,255}"),
            kind("xox", "xox[abposre]-[A-Za-z0-9-]{10,250}"),
            new Kind("hooks.slack.com", Pattern.compile("https://hooks\\.slack\\.com/(?:services|workflows)/[A-Za-z0-9/_-]{20,200}"),
                    8),
            kind("sk-ant-", "sk-ant-[a-z0-9]{2,10}-[A-Za-z0-9_-]{20,200}"),
            kind("sk-", "sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,200}(?![A-Za-z0-9_-])"),
            // publishable keys (pk_live_) are public by design: not secrets
            new Kind("_live_", Pattern.compile("(?:sk|rk)_live_[A-Za-z0-9]{10,200}"), 2),
            new Kind("_test_", Pattern.compile("(?:sk|rk)_test_[A-Za-z0-9]{10,200}"), 2),
            kind("AIza", "AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])"),
            kind("SG.", "SG\\.[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{16,64}"),
            kind("AC", "AC[0-9a-f]{32}(?![0-9a-fA-F])"),
            kind("SK", "SK[0-9a-f]{32}(?![0-9a-fA-F])"), };

    /**
     * PEM private-key blocks and JWTs are not in the table: their bodies are long (a key up to 20,000 characters,
     * a JWT's parts unbounded), and a regex retried at every repeated prefix ("-----BEGIN ..." or "eyJ" a million
     * times over) would rescan them each time. {@link #pems} and {@link #jwts} scan each character a bounded
     * number of times instead.
     */
    private static final Pattern PEM_HEADER = Pattern.compile("-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----");
    private static final Pattern PEM_FOOTER = Pattern.compile("-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----");
    private static final int PEM_BODY = 20_000;
    private static final int PEM_MARKER = 80;
    private static final int JWT_TAIL = 2000;

    /** Key words that name a credential, compared with the key lower-cased and without '_' and '-'. */
    private static final String[] KEY_WORDS = { "secret", "password", "passwd", "pwd", "apikey", "accesskey",
            "privatekey", "authtoken", "accesstoken", "refreshtoken", "bearer" };
    private static final int MAX_KEY = 128;
    private static final int MIN_VALUE = 8;
    private static final int MAX_VALUE = 512;

    private static Kind kind(String prefix, String regex) {
        return new Kind(prefix, Pattern.compile(regex), 0);
    }

    @Override
    public Category category() {
        return Category.SECRET;
    }

    @Override
    public void detect(String s, List<Finding> out) {
        for (Kind k : KINDS) {
            int from = s.indexOf(k.prefix);
            if (from < 0) {
                continue;
            }
            Matcher m = k.pattern.matcher(s);
            // the prefix may sit inside the pattern (sk_live_...): start the match a few characters before it
            while (from >= 0 && from < s.length() && m.find(Math.max(0, from - k.lead))) {
                int start = m.start();
                boolean placeholder = s.startsWith("EXAMPLE", m.end() - 7); // AWS's documented AKIA...EXAMPLE
                if (!placeholder && (!Chars.wordAt(s, start - 1) || k.prefix.startsWith("hooks"))) {
                    out.add(new Finding(Category.SECRET, start, m.end()));
                    if (k.prefix.equals("AKIA") || k.prefix.equals("ASIA")) {
                        awsSecretBeside(s, start, m.end(), out);
                    }
                }
                from = s.indexOf(k.prefix, Math.max(m.end(), start + 1));
            }
        }
        pems(s, out);
        jwts(s, out);
        keyed(s, out);
        urlPasswords(s, out);
    }

    /** How far from an AWS access key id its secret access key is looked for (a line of CSV, a config block). */
    private static final int AWS_PAIR_REACH = 160;
    private static final int AWS_SECRET_LENGTH = 40;

    /**
     * An AWS secret access key has no prefix of its own (40 characters of base64), so alone it is found only
     * under a key that names it; but written beside its access key id (an export, a CSV row, a pasted pair) it
     * is the other half of the same credential. Looked for within a bounded reach on both sides of each id, so
     * the cost stays linear.
     */
    private static void awsSecretBeside(String s, int idStart, int idEnd, List<Finding> out) {
        int from = Math.max(0, idStart - AWS_PAIR_REACH);
        int to = Math.min(s.length(), idEnd + AWS_PAIR_REACH);
        int i = from;
        while (i < to) {
            if (!awsSecretChar(s.charAt(i))) {
                i++;
                continue;
            }
            int e = i;
            boolean upper = false;
            boolean lower = false;
            boolean digit = false;
            while (e < s.length() && awsSecretChar(s.charAt(e))) {
                char c = s.charAt(e);
                upper |= c >= 'A' && c <= 'Z';
                lower |= c >= 'a' && c <= 'z';
                digit |= c >= '0' && c <= '9';
                e++;
            }
            boolean whole = i == 0 || !awsSecretChar(s.charAt(i - 1)) && s.charAt(i - 1) != '=';
            if (whole && e - i == AWS_SECRET_LENGTH && upper && lower && digit && (e == s.length() || s.charAt(e) != '=')
                    && !s.startsWith("EXAMPLEKEY", e - 10)) {
                out.add(new Finding(Category.SECRET, i, e));
            }
            i = e;
        }
    }

    private static boolean awsSecretChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' || c == '+';
    }

    /**
     * PEM private-key blocks: a header, then the first footer at most {@value #PEM_BODY} characters after it.
     * Footers are looked for once, left to right, whatever the number of headers.
     */
    private static void pems(String s, List<Finding> out) {
        int begin = s.indexOf("-----BEGIN");
        if (begin < 0) {
            return;
        }
        Matcher header = PEM_HEADER.matcher(s);
        Matcher footer = PEM_FOOTER.matcher(s);
        int footerAt = -1; // the first valid footer at or after scanned - 1, or -1 when not yet known
        int scanned = 0;
        boolean noMore = false;
        while (begin >= 0) {
            header.region(begin, Math.min(s.length(), begin + PEM_MARKER));
            if (!header.lookingAt()) {
                begin = s.indexOf("-----BEGIN", begin + 1);
                continue;
            }
            int h = header.end();
            if (footerAt < h && !noMore) {
                footerAt = -1;
                int q = s.indexOf("-----END", Math.max(h, scanned));
                while (q >= 0) {
                    footer.region(q, Math.min(s.length(), q + PEM_MARKER));
                    if (footer.lookingAt()) {
                        footerAt = q;
                        break;
                    }
                    q = s.indexOf("-----END", q + 1);
                }
                noMore = q < 0;
                scanned = q < 0 ? s.length() : q;
            }
            if (footerAt >= h && footerAt - h <= PEM_BODY) {
                footer.region(footerAt, Math.min(s.length(), footerAt + PEM_MARKER));
                footer.lookingAt();
                out.add(new Finding(Category.SECRET, begin, footer.end()));
                begin = s.indexOf("-----BEGIN", footer.end());
            } else {
                begin = s.indexOf("-----BEGIN", begin + 1);
            }
        }
    }

    /**
     * JWTs: {@code eyJ} and base64url, a dot, base64url, a dot and up to {@value #JWT_TAIL} more, the header
     * decoding to JSON that names its {@code alg}. A run that fails fails for every {@code eyJ} inside it, so
     * the scan resumes after it: each character is read a bounded number of times.
     */
    private static void jwts(String s, List<Finding> out) {
        int n = s.length();
        int at = s.indexOf("eyJ");
        while (at >= 0) {
            int first = urlRun(s, at + 3);
            int next = first;
            if (first - at - 3 >= 8 && first < n && s.charAt(first) == '.') {
                int second = urlRun(s, first + 1);
                if (second - first - 1 >= 8 && second < n && s.charAt(second) == '.') {
                    int end = Math.min(urlRun(s, second + 1), second + 1 + JWT_TAIL);
                    boolean placeholder = s.startsWith("EXAMPLE", end - 7);
                    if (!placeholder && !Chars.wordAt(s, at - 1) && jwtHeader(s, at)) {
                        out.add(new Finding(Category.SECRET, at, end));
                    }
                    next = end;
                }
            }
            at = s.indexOf("eyJ", Math.max(next, at + 1));
        }
    }

    /** The end of the run of base64url characters from {@code i}. */
    private static int urlRun(String s, int i) {
        int j = i;
        while (j < s.length()) {
            char c = s.charAt(j);
            if (!(Chars.asciiAlnum(c) || c == '_' || c == '-')) {
                break;
            }
            j++;
        }
        return j;
    }

    /**
     * The password in a URL's userinfo ({@code postgres://app:s3cret@db/x}): connection strings carry
     * credentials of any shape, so the position, not the shape, is the evidence. Placeholders are not secrets.
     */
    private static void urlPasswords(String s, List<Finding> out) {
        int at = s.indexOf("://");
        while (at >= 0) {
            int i = at + 3;
            int end = i;
            int colon = -1;
            int n = s.length();
            while (end < n && end - i < 256) {
                char c = s.charAt(end);
                if (c == '@' || c == '/' || c == '?' || c == '#' || Character.isWhitespace(c) || c == '"' || c == '\'') {
                    break;
                }
                if (c == ':' && colon < 0) {
                    colon = end;
                }
                end++;
            }
            if (end < n && s.charAt(end) == '@' && colon > i && end - colon > 1) {
                String pw = s.substring(colon + 1, end);
                if (!placeholder(pw)) {
                    out.add(new Finding(Category.SECRET, colon + 1, end));
                }
            }
            at = s.indexOf("://", at + 3);
        }
    }

    private static boolean placeholder(String pw) {
        String l = pw.toLowerCase(java.util.Locale.ROOT);
        char c0 = pw.charAt(0);
        return c0 == '$' || c0 == '<' || c0 == '{' || c0 == '%' || c0 == '[' || pw.chars().allMatch(ch -> ch == '*' || ch == 'x' || ch == 'X')
                || l.equals("password") || l.equals("pass") || l.equals("secret") || l.equals("pwd") || l.equals("changeme");
    }

    /**
     * A value assigned to a key that names a credential ({@code AWS_SECRET_ACCESS_KEY=...},
     * {@code "client_secret": "..."}, {@code password: ...}): secrets without an issuer prefix are found by the
     * name they are stored under. A scan from each ':' or '=' back over the key and forward over the value,
     * each bounded, so the cost stays linear in the text (a case-insensitive regex with a leading
     * {@code [a-z0-9_.-]*} retried at every position was most of the cloak's time).
     */
    private static void keyed(String s, List<Finding> out) {
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (c != ':' && c != '=') {
                i++;
                continue;
            }
            int end = keyedValue(s, i, out);
            i = Math.max(i + 1, end);
        }
    }

    /** Checks the assignment at {@code op}; returns where scanning resumes. */
    private static int keyedValue(String s, int op, List<Finding> out) {
        int k = op - 1;
        while (k >= 0 && (s.charAt(k) == ' ' || s.charAt(k) == '\t')) {
            k--;
        }
        if (k >= 0 && (s.charAt(k) == '"' || s.charAt(k) == '\'')) {
            k--;
        }
        int keyEnd = k + 1;
        while (k >= 0 && keyEnd - k <= MAX_KEY && keyChar(s.charAt(k))) {
            k--;
        }
        int keyStart = k + 1;
        if (keyEnd - keyStart < 3 || !namesCredential(s, keyStart, keyEnd)) {
            return op + 1;
        }
        int v = op + 1;
        int n = s.length();
        while (v < n && (s.charAt(v) == ' ' || s.charAt(v) == '\t')) {
            v++;
        }
        if (v < n && (s.charAt(v) == '"' || s.charAt(v) == '\'')) {
            v++;
        }
        int e = v;
        while (e < n && e - v < MAX_VALUE && valueChar(s.charAt(e))) {
            e++;
        }
        // an unquoted value followed by a call or an index is code reading a secret (getenv(...)), not one
        boolean expression = e < n && (s.charAt(e) == '(' || s.charAt(e) == '[');
        if (e - v >= MIN_VALUE && !expression && credentialLike(s.substring(v, e))) {
            out.add(new Finding(Category.SECRET, v, e));
            return e;
        }
        return op + 1;
    }

    private static boolean namesCredential(String s, int from, int to) {
        StringBuilder key = new StringBuilder(to - from);
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c != '_' && c != '-') {
                key.append(Character.toLowerCase(c));
            }
        }
        String k = key.toString();
        for (String w : KEY_WORDS) {
            if (k.contains(w)) {
                return true;
            }
        }
        return false;
    }

    private static boolean keyChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.'
                || c == '-';
    }

    private static boolean valueChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || "/+=_.~!@#$%^&*-".indexOf(c) >= 0;
    }

    /** A stored credential has letters and digits or symbols; a key followed by a word or a number is not one. */
    private static boolean credentialLike(String v) {
        boolean letter = false;
        boolean other = false;
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (Character.isLetter(c)) {
                letter = true;
            } else {
                other = true;
            }
        }
        String lower = v.toLowerCase(java.util.Locale.ROOT);
        // references to where a secret lives are not the secret: a file, an environment variable, a URL
        // AWS's documentation placeholders (wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY) are published and inert
        return letter && other && !v.endsWith("EXAMPLEKEY") && !v.endsWith("EXAMPLE") && !lower.startsWith("${") && !lower.startsWith("$") && !lower.startsWith("/")
                && !lower.startsWith("./") && !lower.startsWith("~") && !lower.contains("redacted")
                && !lower.startsWith("http") && !lower.startsWith("process.env") && !lower.startsWith("env.")
                && !lower.startsWith("os.environ") && !v.matches("[A-Z][A-Z0-9_]*");
    }

    @Override
    public boolean acceptsHinted(String value) {
        String v = value.strip();
        return v.length() >= 8 && v.length() <= 4096 && v.indexOf(' ') < 0 && credentialLike(v);
    }

    /** A JWT's first part decodes to a JSON object that names its algorithm. */
    private static boolean jwtHeader(String s, int start) {
        int dot = s.indexOf('.', start);
        if (dot < 0 || dot - start > 2000) {
            return false;
        }
        try {
            String header = new String(Base64.getUrlDecoder().decode(s.substring(start, dot)), StandardCharsets.UTF_8);
            return header.startsWith("{") && header.contains("\"alg\"");
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
