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

        /**
         * Issue 16: the same refusal on a tenant that is an OAuth protected resource: the challenge also says where
         * its metadata is (and the role's scope), so a standard MCP client finds where to log in by itself.
         */
        static Refused unauthenticated(AuthFailure failure, ProtectedResource resource, Role role) {
            Refused plain = unauthenticated(failure);
            return resource == null ? plain : new Refused(plain.status(), plain.reason(), plain.message(),
                    plain.challenge() + resource.challengeParams(role), failure);
        }

        /** Issue 16: a valid OAuth token without the scopes of the role (RFC 6750 3.1 {@code insufficient_scope}). */
        static Refused insufficientScope(Role role, ProtectedResource resource) {
            return new Refused(403, "insufficient_scope", "the access token does not carry the scope the " + role.code()
                    + " role takes here (" + resource.scope(role) + "): ask the authorization server for it",
                    "Bearer realm=\"" + REALM + "\", error=\"insufficient_scope\"" + resource.challengeParams(role), null);
        }

        static Refused forbidden(Role role) {
            return new Refused(403, "role_required", "this endpoint needs the " + role.code()
                    + " role, which the credential's principal does not have",
                    "Bearer realm=\"" + REALM + "\", error=\"insufficient_scope\", scope=\"" + role.code() + "\"", null);
        }
    }
}
