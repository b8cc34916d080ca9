package dev.cloakgate.tenant;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.upstream.oauth.OAuthSettings;

/**
 * An HTTP upstream's {@code oauth} block (issue 16): the gateway as an OAuth client of the upstream. Secrets are
 * named, not written: {@code client_secret_file} and {@code private_key_file} are mounted files read at each use;
 * {@code client_secret} only as an {@code ${env:...}} expansion.
 */
final class UpstreamOAuthBlockParser {
    private static final Set<String> KEYS = Set.of("grant", "client_id", "client_secret", "client_secret_file",
            "private_key_file", "token_endpoint_auth", "scope", "id_token_file", "idp_token_endpoint", "idp_client_id");

    private final TenantParser.Ctx c;

    UpstreamOAuthBlockParser(TenantParser.Ctx c) {
        this.c = c;
    }

    OAuthSettings parse(String upstream, JsonNode n, String path, Set<String> headers) throws TenantConfigException {
        c.object(n, path);
        if (c.onlyKeys(n, path, KEYS)) {
            return null; // each unknown key is reported already
        }
        for (String h : headers) {
            if (h.equalsIgnoreCase("authorization")) {
                // one credential per upstream: which of the two would be sent is nobody's guess
                throw new TenantConfigException(c.file, path, "an upstream with oauth may not also set an Authorization header");
            }
        }
        OAuthSettings.Grant grant = switch (n.has("grant") ? c.string(n.get("grant"), path + ".grant") : "") {
            case "client_credentials" -> OAuthSettings.Grant.CLIENT_CREDENTIALS;
            case "authorization_code" -> OAuthSettings.Grant.AUTHORIZATION_CODE;
            case "cross_app_access" -> OAuthSettings.Grant.CROSS_APP_ACCESS;
            default -> throw new TenantConfigException(c.file, path + ".grant",
                    "must be \"client_credentials\", \"authorization_code\" or \"cross_app_access\"");
        };
        String clientId = optional(n, "client_id", path);
        String secret = null;
        if (n.has("client_secret")) {
            String raw = c.string(n.get("client_secret"), path + ".client_secret");
            if (!raw.matches("\\$\\{env:[A-Za-z_][A-Za-z0-9_]*}")) {
                // a tenant file is configuration, not a place for a secret
                throw new TenantConfigException(c.file, path + ".client_secret",
                        "must be an ${env:NAME} reference (or use client_secret_file)");
            }
            secret = c.expand(raw, path + ".client_secret");
        }
        Path secretFile = n.has("client_secret_file") ? c.file(n.get("client_secret_file"), path + ".client_secret_file") : null;
        Path keyFile = n.has("private_key_file") ? c.file(n.get("private_key_file"), path + ".private_key_file") : null;
        String method = optional(n, "token_endpoint_auth", path);
        if (method != null && !OAuthSettings.AUTH_METHODS.contains(method)) {
            throw new TenantConfigException(c.file, path + ".token_endpoint_auth",
                    "must be one of client_secret_basic, client_secret_post, none, private_key_jwt");
        }
        String scope = optional(n, "scope", path);
        if (secret != null && secretFile != null) {
            throw new TenantConfigException(c.file, path, "give client_secret or client_secret_file, not both");
        }
        boolean hasSecret = secret != null || secretFile != null;
        if ((hasSecret || keyFile != null) && clientId == null) {
            throw new TenantConfigException(c.file, path + ".client_id", "is required with a client secret or private key");
        }
        if (hasSecret && keyFile != null) {
            throw new TenantConfigException(c.file, path, "give a client secret or a private key, not both");
        }
        if (method != null) {
            boolean fits = switch (method) {
                case "client_secret_basic", "client_secret_post" -> hasSecret;
                case "private_key_jwt" -> keyFile != null;
                default -> !hasSecret && keyFile == null;
            };
            if (!fits || clientId == null) {
                throw new TenantConfigException(c.file, path + ".token_endpoint_auth",
                        "does not fit the client credentials given (client_id, a secret for client_secret_*, "
                                + "private_key_file for private_key_jwt, neither for none)");
            }
        }
        if (grant.unattended() && (clientId == null || !hasSecret && keyFile == null)) {
            throw new TenantConfigException(c.file, path, "the " + grant.code() + " grant needs client_id and a "
                    + "client secret (client_secret_file, client_secret) or private_key_file");
        }
        return new OAuthSettings(c.tenant, upstream, grant, clientId, secret, secretFile, keyFile, method,
                scope == null ? null : scope.trim().toLowerCase(Locale.ROOT).isEmpty() ? null : scope.trim(),
                crossApp(grant, n, path));
    }

    /** The identity provider's side of cross-app access: only with that grant, and then all of it but the client id. */
    private OAuthSettings.CrossApp crossApp(OAuthSettings.Grant grant, JsonNode n, String path) throws TenantConfigException {
        boolean any = n.has("id_token_file") || n.has("idp_token_endpoint") || n.has("idp_client_id");
        if (grant != OAuthSettings.Grant.CROSS_APP_ACCESS) {
            if (any) {
                throw new TenantConfigException(c.file, path, "id_token_file, idp_token_endpoint and idp_client_id "
                        + "belong to the cross_app_access grant");
            }
            return null;
        }
        if (!n.has("id_token_file") || !n.has("idp_token_endpoint")) {
            throw new TenantConfigException(c.file, path, "the cross_app_access grant needs id_token_file (the "
                    + "identity provider's ID token, a mounted file) and idp_token_endpoint");
        }
        String endpoint = optional(n, "idp_token_endpoint", path);
        try {
            java.net.URI u = new java.net.URI(endpoint);
            dev.cloakgate.upstream.oauth.AuthHttp.requireSafe(u);
            if (u.getHost() == null || u.getRawQuery() != null || u.getRawFragment() != null) {
                throw new java.net.URISyntaxException(endpoint, "no host, or a query or fragment");
            }
        } catch (java.net.URISyntaxException | dev.cloakgate.upstream.oauth.OAuthFailure e) {
            throw new TenantConfigException(c.file, path + ".idp_token_endpoint", "must be an https URL (http only to a "
                    + "loopback address) with a host and no query or fragment");
        }
        return new OAuthSettings.CrossApp(c.file(n.get("id_token_file"), path + ".id_token_file"), endpoint,
                optional(n, "idp_client_id", path));
    }

    private String optional(JsonNode n, String key, String path) throws TenantConfigException {
        if (!n.has(key)) {
            return null;
        }
        String v = c.expand(c.string(n.get(key), path + "." + key), path + "." + key);
        if (v.isBlank()) {
            throw new TenantConfigException(c.file, path + "." + key, "must not be empty");
        }
        return v;
    }
}
