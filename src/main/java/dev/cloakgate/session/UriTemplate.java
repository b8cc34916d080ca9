package dev.cloakgate.session;

import java.util.regex.Pattern;

/**
 * Matches URIs against an RFC 6570 template (the operators MCP resource templates use). Matching only: the
 * gateway routes a concrete URI to the upstream whose template could have produced it.
 */
public final class UriTemplate {
    private final String template;
    private final Pattern pattern;

    public UriTemplate(String template) {
        this.template = template;
        this.pattern = compile(template);
    }

    public String template() {
        return template;
    }

    public boolean matches(String uri) {
        return pattern != null && pattern.matcher(uri).matches();
    }

    private static Pattern compile(String t) {
        StringBuilder re = new StringBuilder();
        int i = 0;
        while (i < t.length()) {
            int open = t.indexOf('{', i);
            if (open < 0) {
                re.append(Pattern.quote(t.substring(i)));
                break;
            }
            int close = t.indexOf('}', open);
            if (close < 0) {
                return null;
            }
            if (open > i) {
                re.append(Pattern.quote(t.substring(i, open)));
            }
            String expr = t.substring(open + 1, close);
            char op = expr.isEmpty() ? ' ' : expr.charAt(0);
            re.append(switch (op) {
                case '+', '#' -> (op == '#' ? "(?:#.*)?" : ".*");
                case '/' -> "(?:/[^/?#]*)*";
                case '.' -> "(?:\\.[^/?#.]*)*";
                case ';', '?', '&' -> "(?:[;?&][^#]*)?";
                default -> "[^/?#]+";
            });
            i = close + 1;
        }
        return Pattern.compile(re.toString());
    }
}
