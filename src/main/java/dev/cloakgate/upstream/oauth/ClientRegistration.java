package dev.cloakgate.upstream.oauth;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Who the gateway is at an authorization server, in the specification's order: the operator's pre-registered
 * client; else, where the server accepts Client ID Metadata Documents, the URL of the gateway's own document
 * ({@code <public-url>/oauth/client-metadata.json}); else dynamic client registration (RFC 7591).
 */
public final class ClientRegistration {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The path of the gateway's client metadata document under its public URL. */
    public static final String METADATA_PATH = "/oauth/client-metadata.json";
    /** The same, under {@code /oauth} (where the receiver's routes live). */
    public static final String METADATA_PATH_TAIL = "/client-metadata.json";
    /** The path of the redirect receiver under the public URL. */
    public static final String CALLBACK_PATH = "/oauth/callback";
    public static final String CLIENT_NAME = "cloakgate";

    private final AuthHttp http;
    private final URI publicUrl;

    /** @param publicUrl the gateway's external base URL, or null when it has none (then no redirect, no document) */
    public ClientRegistration(AuthHttp http, URI publicUrl) {
        this.http = http;
        this.publicUrl = publicUrl;
    }

    public Client client(OAuthSettings s, AuthServer as) throws OAuthFailure {
        if (s.clientId() != null) {
            String secret = secret(s);
            String method = s.tokenEndpointAuth() != null ? s.tokenEndpointAuth()
                    : s.privateKeyFile() != null ? "private_key_jwt"
                    : secret == null ? "none"
                    : as.authMethods().isEmpty() || as.authMethods().contains("client_secret_basic")
                            ? "client_secret_basic" : "client_secret_post";
            return new Client(s.clientId(), secret, method, "pre-registered");
        }
        if (s.grant().unattended()) {
            throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED,
                    "the " + s.grant().code() + " grant needs a pre-registered client_id in the oauth block");
        }
        // a client id that is a URL must be https (a server fetches the document from it)
        if (as.clientIdMetadataDocuments() && publicUrl != null && "https".equals(publicUrl.getScheme())) {
            return new Client(publicUrl + METADATA_PATH, null, "none", "client-metadata-document");
        }
        if (as.registrationEndpoint() == null) {
            throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED, "the authorization server offers neither "
                    + "dynamic registration nor client metadata documents: give a pre-registered client_id");
        }
        return register(as);
    }

    /** The document a server fetches when the gateway's client id is its URL. */
    public ObjectNode metadataDocument() throws OAuthFailure {
        URI base = requirePublicUrl();
        ObjectNode doc = JSON.createObjectNode().put("client_id", base + METADATA_PATH).put("client_name", CLIENT_NAME)
                .put("token_endpoint_auth_method", "none");
        doc.putArray("redirect_uris").add(base + CALLBACK_PATH);
        doc.putArray("grant_types").add("authorization_code").add("refresh_token");
        doc.putArray("response_types").add("code");
        return doc;
    }

    public URI redirectUri() throws OAuthFailure {
        return URI.create(requirePublicUrl() + CALLBACK_PATH);
    }

    private URI requirePublicUrl() throws OAuthFailure {
        if (publicUrl == null) {
            throw new OAuthFailure(OAuthFailure.Code.PUBLIC_URL_REQUIRED, "connecting an OAuth upstream with the"
                    + " authorization code grant needs the gateway's external URL: set cloakgate.public-url");
        }
        return publicUrl;
    }

    private Client register(AuthServer as) throws OAuthFailure {
        List<String> methods = as.authMethods();
        // a public client where the server allows it (no secret to keep), else a confidential one
        String method = methods.isEmpty() || methods.contains("none") ? "none"
                : methods.contains("client_secret_basic") ? "client_secret_basic"
                : methods.contains("client_secret_post") ? "client_secret_post" : "none";
        ObjectNode req = JSON.createObjectNode().put("client_name", CLIENT_NAME).put("token_endpoint_auth_method", method);
        req.putArray("redirect_uris").add(redirectUri().toString());
        req.putArray("grant_types").add("authorization_code").add("refresh_token");
        req.putArray("response_types").add("code");
        AuthHttp.Answer a = http.postJson(as.registrationEndpoint(), req, Map.of());
        JsonNode body = a.json();
        if (a.status() / 100 != 2 || body == null || !body.path("client_id").isTextual()) {
            throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED,
                    "dynamic client registration was refused (HTTP " + a.status() + ")");
        }
        String secret = body.path("client_secret").isTextual() ? body.get("client_secret").asText() : null;
        String granted = body.path("token_endpoint_auth_method").isTextual()
                ? body.get("token_endpoint_auth_method").asText() : secret != null ? "client_secret_basic" : method;
        if (!OAuthSettings.AUTH_METHODS.contains(granted) || granted.equals("private_key_jwt")) {
            throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED,
                    "dynamic registration gave an unsupported token endpoint authentication");
        }
        return new Client(body.get("client_id").asText(), secret, granted, "dynamic");
    }

    /** The pre-registered client's secret, read now (a rotated Secret file takes effect), or null. */
    static String secret(OAuthSettings s) throws OAuthFailure {
        if (s.clientSecretFile() != null) {
            try {
                String v = Files.readString(s.clientSecretFile(), StandardCharsets.UTF_8).strip();
                if (v.isEmpty()) {
                    throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED,
                            "client_secret_file " + s.clientSecretFile() + " is empty");
                }
                return v;
            } catch (IOException e) {
                throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED, "cannot read client_secret_file "
                        + s.clientSecretFile() + " (" + e.getClass().getSimpleName() + ")");
            }
        }
        return s.clientSecret();
    }
}
