package dev.cloakgate.upstream.oauth;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The Bearer parameters of an upstream's {@code WWW-Authenticate} answer (RFC 6750 §3, RFC 9728 §5.1): where its
 * protected resource metadata is, which scope it wants, and why it refused.
 *
 * @param resourceMetadata the {@code resource_metadata} URL, or null
 * @param scope the {@code scope} asked for, or null
 * @param error the {@code error} code ({@code invalid_token}, {@code insufficient_scope}), or null
 */
public record Challenge(String resourceMetadata, String scope, String error) {

    /** No challenge (no header, or no Bearer scheme in it). */
    public static final Challenge NONE = new Challenge(null, null, null);

    public boolean insufficientScope() {
        return "insufficient_scope".equals(error);
    }

    /**
     * Reads the Bearer challenge of a header value (other schemes in the same header are skipped). Parameters are
     * {@code name=token} or {@code name="quoted"} with backslash escapes; a malformed tail ends the reading, what
     * was read stays.
     */
    public static Challenge parse(String header) {
        if (header == null) {
            return NONE;
        }
        Map<String, String> params = bearerParams(header);
        if (params == null) {
            return NONE;
        }
        return new Challenge(params.get("resource_metadata"), params.get("scope"), params.get("error"));
    }

    private static Map<String, String> bearerParams(String h) {
        int i = 0;
        int n = h.length();
        Map<String, String> out = null;
        while (i < n) {
            while (i < n && (h.charAt(i) == ' ' || h.charAt(i) == ',' || h.charAt(i) == '\t')) {
                i++;
            }
            int start = i;
            while (i < n && isToken(h.charAt(i))) {
                i++;
            }
            if (start == i) {
                return out;
            }
            String word = h.substring(start, i);
            int j = i;
            while (j < n && h.charAt(j) == ' ') {
                j++;
            }
            if (j < n && h.charAt(j) == '=') {
                // a parameter of the current scheme
                j++;
                while (j < n && h.charAt(j) == ' ') {
                    j++;
                }
                String value;
                if (j < n && h.charAt(j) == '"') {
                    StringBuilder sb = new StringBuilder();
                    j++;
                    while (j < n && h.charAt(j) != '"') {
                        char ch = h.charAt(j);
                        if (ch == '\\' && j + 1 < n) {
                            j++;
                            ch = h.charAt(j);
                        }
                        sb.append(ch);
                        j++;
                    }
                    if (j >= n) {
                        return out; // unterminated
                    }
                    j++;
                    value = sb.toString();
                } else {
                    int vs = j;
                    while (j < n && isToken(h.charAt(j))) {
                        j++;
                    }
                    value = h.substring(vs, j);
                }
                if (out != null) {
                    out.putIfAbsent(word.toLowerCase(Locale.ROOT), value);
                }
                i = j;
            } else {
                // a new scheme: its parameters follow
                if (out != null) {
                    return out; // the Bearer challenge ended
                }
                if (word.equalsIgnoreCase("Bearer")) {
                    out = new HashMap<>();
                }
                i = j;
            }
        }
        return out;
    }

    private static boolean isToken(char c) {
        return c > ' ' && c < 127 && "()<>@,;:\\\"/[]?={} \t".indexOf(c) < 0 || c == '/' || c == ':';
    }
}
