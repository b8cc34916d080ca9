package dev.cloakgate.auth;

/** What a credential proved in one tenant: a principal, or a refusal with its internal reason. */
public sealed interface Authentication {
    record Authenticated(Principal principal) implements Authentication {
    }

    record Rejected(AuthFailure failure) implements Authentication {
    }
}
