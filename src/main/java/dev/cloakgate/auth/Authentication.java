package dev.cloakgate.auth;

/** What a credential proved in one tenant: a principal, or a refusal with its internal reason. */
public sealed interface Authentication {
    /** @param oauth the principal is an OAuth subject's (issue 16), its roles those its token's scopes grant */
    record Authenticated(Principal principal, boolean oauth) implements Authentication {
        public Authenticated(Principal principal) {
            this(principal, false);
        }
    }

    record Rejected(AuthFailure failure) implements Authentication {
    }
}
