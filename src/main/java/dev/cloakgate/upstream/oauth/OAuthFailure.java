package dev.cloakgate.upstream.oauth;

/**
 * The gateway could not get (or use) a token for an upstream. {@link #code()} is stable; the message says what to
 * fix and never carries a token, a secret, a code or an authorization server's free text.
 */
public final class OAuthFailure extends Exception {

    /** Stable codes (README, error codes). */
    public enum Code {
        /** No usable token: an operator must connect the upstream (authorization code), or connect again for more scope. */
        UPSTREAM_AUTH_REQUIRED,
        /** Discovery, registration or the token request failed, or the answer was unusable. */
        UPSTREAM_AUTH_FAILED,
        /** The upstream's protected resource metadata names another resource than the upstream's URL. */
        UPSTREAM_RESOURCE_MISMATCH,
        /** The upstream kept asking for more scope after the step-up limit. */
        UPSTREAM_SCOPE_REFUSED,
        /** An OAuth URL that is neither https nor http to a loopback address. */
        UPSTREAM_AUTH_INSECURE_URL,
        /** The connection needs {@code cloakgate.public-url} (redirect URI, client metadata document). */
        PUBLIC_URL_REQUIRED;

        public String code() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Code code;

    public OAuthFailure(Code code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    public Code code() {
        return code;
    }
}
