package dev.cloakgate.upstream.oauth;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Cross-app access, first leg (SEP-990): the enterprise identity provider exchanges the gateway's ID token (RFC 8693
 * token exchange) for an identity assertion JWT authorization grant (ID-JAG) for one authorization server
 * ({@code audience}, its issuer) and one resource. The grant is the identity provider's to sign and the
 * authorization server's to check; the gateway only carries it, never logs it, and never keeps it.
 */
public final class IdentityAssertionExchange {
    static final String TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
    static final String ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token";
    static final String ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";

    private final AuthHttp http;

    public IdentityAssertionExchange(AuthHttp http) {
        this.http = http;
    }

    /** The ID-JAG for {@code as} and {@code resource}, or why there is none. */
    public String grant(OAuthSettings.CrossApp idp, AuthServer as, String resource, String scope) throws OAuthFailure {
        URI endpoint = URI.create(idp.tokenEndpoint());
        AuthHttp.requireSafe(endpoint); // whoever answers here in clear hands the gateway a grant of their choosing
        String idToken;
        try {
            idToken = Files.readString(idp.idTokenFile(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED,
                    "the ID token file cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        if (idToken.isEmpty()) {
            throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED, "the ID token file is empty");
        }
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", TOKEN_EXCHANGE);
        form.put("requested_token_type", ID_JAG);
        form.put("audience", as.issuer().toString());
        form.put("resource", resource);
        form.put("subject_token", idToken);
        form.put("subject_token_type", ID_TOKEN);
        if (scope != null) {
            form.put("scope", scope);
        }
        if (idp.clientId() != null) {
            form.put("client_id", idp.clientId());
        }
        AuthHttp.Answer a = http.postForm(endpoint, form, Map.of());
        JsonNode body = a.json();
        if (a.status() != 200 || body == null) {
            String error = body != null && body.path("error").isTextual() ? body.get("error").asText() : null;
            throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED, "the identity provider refused the token"
                    + " exchange (HTTP " + a.status() + (error != null && error.matches("[a-z_]{1,64}") ? ", " + error : "") + ")");
        }
        JsonNode jag = body.get("access_token");
        if (!ID_JAG.equals(body.path("issued_token_type").asText()) || jag == null || !jag.isTextual()
                || jag.asText().isEmpty()) {
            throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED,
                    "the identity provider's answer holds no identity assertion grant (issued_token_type " + ID_JAG + ")");
        }
        return jag.asText();
    }
}
