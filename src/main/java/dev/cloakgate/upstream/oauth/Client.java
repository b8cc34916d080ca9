package dev.cloakgate.upstream.oauth;

/**
 * Who the gateway is at an authorization server: its client id, a secret when it has one, and how it
 * authenticates at the token endpoint. {@link #toString()} never shows the secret.
 *
 * @param how {@code pre-registered}, {@code client-metadata-document} or {@code dynamic}
 */
public record Client(String id, String secret, String authMethod, String how) {
    @Override
    public String toString() {
        return "Client[id=" + id + ", authMethod=" + authMethod + ", how=" + how + "]";
    }
}
