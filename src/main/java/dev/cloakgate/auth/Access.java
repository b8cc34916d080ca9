package dev.cloakgate.auth;

/**
 * The answer to "may this caller act in this role on this tenant": the principal, or the HTTP refusal to send.
 * Every surface (the MCP endpoint, the ledger export, the admin API) answers refusals from here, so they carry
 * the same status, reason and challenge everywhere.
 */
public sealed interface Access {
    /** The realm of every challenge; one for the whole gateway, so it names no tenant. */
    String REALM = "cloakgate";

    record Granted(Principal principal) implements Access {
    }

    /**
     * @param status 401 (no or a bad credential, also for a tenant that does not exist) or 403 (a principal without the role)
     * @param reason stable snake_case code for {@code data.reason} / {@code error}
     * @param challenge the {@code WWW-Authenticate} value (RFC 6750), or null
     * @param failure the internal reason of a 401, for the log and metrics only; null otherwise
     */
    record Refused(int status, String reason, String message, String challenge, AuthFailure failure) implements Access {
        static Refused unauthenticated(AuthFailure failure) {
            if (failure == AuthFailure.MISSING_CREDENTIAL) {
                // RFC 6750 3.1: a request without credentials gets a challenge without an error code
                return new Refused(401, failure.publicReason(), "a bearer credential is required: send Authorization:"
                        + " Bearer <token> with a token or a JWT of a principal of this tenant",
                        "Bearer realm=\"" + REALM + "\"", failure);
            }
            return new Refused(401, failure.publicReason(), "the bearer credential is not valid for this tenant",
                    "Bearer realm=\"" + REALM + "\", error=\"invalid_token\"", failure);
        }

        static Refused forbidden(Role role) {
            return new Refused(403, "role_required", "this endpoint needs the " + role.code()
                    + " role, which the credential's principal does not have",
                    "Bearer realm=\"" + REALM + "\", error=\"insufficient_scope\", scope=\"" + role.code() + "\"", null);
        }
    }
}
