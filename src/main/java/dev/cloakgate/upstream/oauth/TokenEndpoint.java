package dev.cloakgate.upstream.oauth;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Token requests (RFC 6749 §4.1.3, §4.4, §6) with the client's authentication (§2.3.1 basic or post, none, or a
 * {@code private_key_jwt} assertion, RFC 7523), always naming the protected resource (RFC 8707). An error answer is
 * reported by its {@code error} code only: an authorization server's description is not repeated.
 */
public final class TokenEndpoint {
    private final AuthHttp http;
    private final Clock clock;

    public TokenEndpoint(AuthHttp http, Clock clock) {
        this.http = http;
        this.clock = clock;
    }

    /** A token for {@code grant} ({@code authorization_code}, {@code client_credentials}, {@code refresh_token}) and its parameters. */
    public Tokens request(AuthServer as, Client client, OAuthSettings settings, String resource,
            Map<String, String> grant, String requestedScope) throws OAuthFailure {
        Map<String, String> form = new LinkedHashMap<>(grant);
        form.put("resource", resource);
        Map<String, String> headers = new LinkedHashMap<>();
        switch (client.authMethod()) {
            case "client_secret_basic" -> headers.put("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                    (AuthHttp.enc(client.id()) + ":" + AuthHttp.enc(secret(client))).getBytes(StandardCharsets.UTF_8)));
            case "client_secret_post" -> {
                form.put("client_id", client.id());
                form.put("client_secret", secret(client));
            }
            case "private_key_jwt" -> {
                form.put("client_id", client.id());
                form.put("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
                form.put("client_assertion", ClientAssertion.create(settings.privateKeyFile(), client.id(),
                        as.issuer().toString(), clock.instant()));
            }
            default -> form.put("client_id", client.id());
        }
        AuthHttp.Answer a = http.postForm(as.tokenEndpoint(), form, headers);
        JsonNode body = a.json();
        if (a.status() != 200 || body == null) {
            String error = body != null && body.path("error").isTextual() ? body.get("error").asText() : null;
            throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED, "the token endpoint refused the "
                    + grant.get("grant_type") + " request (HTTP " + a.status()
                    + (error != null && error.matches("[a-z_]{1,64}") ? ", " + error : "") + ")");
        }
        JsonNode access = body.get("access_token");
        JsonNode type = body.get("token_type");
        if (access == null || !access.isTextual() || access.asText().isEmpty()
                || type == null || !type.asText().equalsIgnoreCase("bearer")) {
            throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED,
                    "the token endpoint's answer holds no Bearer access token");
        }
        JsonNode expires = body.get("expires_in");
        JsonNode refresh = body.get("refresh_token");
        JsonNode scope = body.get("scope");
        return new Tokens(access.asText(),
                expires != null && expires.canConvertToLong() && expires.asLong() > 0
                        ? clock.instant().plusSeconds(expires.asLong()) : null,
                refresh != null && refresh.isTextual() ? refresh.asText() : null,
                scope != null && scope.isTextual() ? scope.asText() : requestedScope);
    }

    private static String secret(Client c) throws OAuthFailure {
        if (c.secret() == null) {
            throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED,
                    "token endpoint authentication " + c.authMethod() + " needs a client secret, and there is none");
        }
        return c.secret();
    }
}
