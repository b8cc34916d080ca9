package dev.cloakgate.upstream.oauth;

import java.time.Instant;

/**
 * A token response's parts the gateway keeps. {@link #toString()} never shows a token.
 *
 * @param expiresAt null when the server did not say
 * @param refreshToken null when none was issued
 * @param scope the granted scope (the response's, else the requested one), or null
 */
public record Tokens(String accessToken, Instant expiresAt, String refreshToken, String scope) {

    /** Whether the access token is at or past its expiry, or will be within {@code marginSeconds}. */
    public boolean expiring(Instant now, long marginSeconds) {
        return expiresAt != null && !now.plusSeconds(marginSeconds).isBefore(expiresAt);
    }

    @Override
    public String toString() {
        return "Tokens[expiresAt=" + expiresAt + ", refresh=" + (refreshToken != null) + ", scope=" + scope + "]";
    }
}
