package dev.cloakgate.auth;

import java.util.Locale;

/**
 * Why a credential was refused. The code goes to the gateway's log and to a metric label, never to the caller:
 * the caller learns only {@link #publicReason()}, the same for every bad credential, so that a credential of
 * another tenant, an expired one and a made-up one cannot be told apart (no tenant oracle).
 */
public enum AuthFailure {
    /** No {@code Authorization: Bearer} header at all. */
    MISSING_CREDENTIAL,
    /** A static token no principal of this tenant holds. */
    UNKNOWN_TOKEN,
    /** Not a JWS compact serialisation, or its header or claims are not JSON. */
    MALFORMED_JWT,
    /** {@code alg} outside the asymmetric algorithms the gateway accepts ({@code none}, {@code HS256}...). */
    ALGORITHM_REFUSED,
    /** An {@code iss} this tenant does not trust. */
    ISSUER_UNTRUSTED,
    /** The issuer's keys are not loaded (its JWKS could not be read or fetched yet). */
    JWKS_UNAVAILABLE,
    /** No key of the issuer's JWKS matches the token's {@code kid}. */
    KEY_UNKNOWN,
    SIGNATURE_INVALID,
    TOKEN_EXPIRED,
    /** {@code nbf} or {@code iat} in the future, beyond the clock skew. */
    TOKEN_NOT_YET_VALID,
    /** None of the tenant's audiences for this issuer in {@code aud}. */
    AUDIENCE_MISMATCH,
    /** The principal claim ({@code sub}) is absent or not a string. */
    CLAIM_MISSING,
    /** A valid token whose subject maps to no principal of this tenant. */
    UNKNOWN_SUBJECT,
    /** Any other failed check (a missing {@code exp} or {@code iat}, a malformed claim). */
    TOKEN_INVALID;

    /** The internal code (log, metric label). */
    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** What the caller sees in {@code data.reason}: {@code missing_credential} or {@code invalid_token}. */
    public String publicReason() {
        return this == MISSING_CREDENTIAL ? "missing_credential" : "invalid_token";
    }
}
