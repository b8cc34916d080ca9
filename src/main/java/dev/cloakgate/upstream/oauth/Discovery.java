package dev.cloakgate.upstream.oauth;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Finds an upstream's authorization server the way the MCP authorization specification orders it: the protected
 * resource metadata (RFC 9728) named by the 401's {@code resource_metadata}, else at the path-inserted well-known
 * URL, else at the root one; then the authorization server's metadata at the RFC 8414 and OpenID Connect URLs in
 * the specification's order. Without any protected resource metadata, the 2025-03-26 rules: the MCP server's
 * origin is the authorization server, its RFC 8414 metadata at the root, else the default endpoints
 * {@code /authorize}, {@code /token} and {@code /register}.
 */
public final class Discovery {
    private final AuthHttp http;

    public Discovery(AuthHttp http) {
        this.http = http;
    }

    /**
     * The upstream's protected resource, refusing metadata whose {@code resource} is not the upstream's URL (or a
     * prefix of it on the same origin): a token asked for another resource must never be sent here.
     */
    public ProtectedResource protectedResource(URI mcpUrl, Challenge challenge) throws OAuthFailure {
        List<URI> candidates = new ArrayList<>();
        if (challenge.resourceMetadata() != null) {
            candidates.add(parse(challenge.resourceMetadata(), "resource_metadata"));
        } else {
            String path = mcpUrl.getRawPath() == null ? "" : mcpUrl.getRawPath();
            if (!path.isEmpty() && !path.equals("/")) {
                candidates.add(at(mcpUrl, "/.well-known/oauth-protected-resource" + stripSlash(path)));
            }
            candidates.add(at(mcpUrl, "/.well-known/oauth-protected-resource"));
        }
        for (URI u : candidates) {
            AuthHttp.Answer a = http.get(u);
            JsonNode doc = a.status() == 200 ? a.json() : null;
            if (doc == null) {
                continue;
            }
            URI resource = parse(text(doc, "resource"), "the protected resource metadata's resource");
            if (!covers(resource, mcpUrl)) {
                throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_RESOURCE_MISMATCH, "the upstream's protected resource"
                        + " metadata names another resource than its URL; no token is requested for it");
            }
            JsonNode servers = doc.get("authorization_servers");
            if (servers == null || !servers.isArray() || servers.isEmpty() || !servers.get(0).isTextual()) {
                throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED,
                        "the upstream's protected resource metadata names no authorization server");
            }
            return new ProtectedResource(resource, parse(servers.get(0).asText(), "authorization_servers[0]"),
                    strings(doc.get("scopes_supported")), false);
        }
        // 2025-03-26: no metadata; the MCP server's origin is its authorization server
        return new ProtectedResource(mcpUrl, at(mcpUrl, ""), List.of(), true);
    }

    /** The authorization server's metadata, in the specification's order of well-known URLs. */
    public AuthServer authServer(ProtectedResource pr) throws OAuthFailure {
        URI issuer = pr.authorizationServer();
        for (URI u : dev.cloakgate.net.WellKnown.authorizationServerMetadata(issuer)) {
            AuthHttp.Answer a = http.get(u);
            JsonNode doc = a.status() == 200 ? a.json() : null;
            if (doc == null) {
                continue;
            }
            URI named = parse(text(doc, "issuer"), "the authorization server's issuer");
            boolean legacyOrigin = pr.legacy()
                    && AuthHttp.origin(normal(named)).equals(AuthHttp.origin(normal(issuer)));
            if (!sameIssuer(named, issuer) && !legacyOrigin) {
                // RFC 8414 §3.3: metadata for another issuer is not this server's. In the 2025-03-26 fallback the
                // metadata sits at the MCP server's root whatever path its issuer has: same origin is what holds
                throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED,
                        "the authorization server's metadata names another issuer than the one it was fetched for");
            }
            URI token = optional(doc, "token_endpoint");
            if (token == null) {
                throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED,
                        "the authorization server's metadata has no token_endpoint");
            }
            JsonNode cimd = doc.get("client_id_metadata_document_supported");
            return new AuthServer(named, optional(doc, "authorization_endpoint"), token,
                    optional(doc, "registration_endpoint"), strings(doc.get("scopes_supported")),
                    strings(doc.get("token_endpoint_auth_methods_supported")), cimd != null && cimd.asBoolean(false));
        }
        if (pr.legacy()) {
            // 2025-03-26 fallback: the default endpoints on the MCP server's origin
            return new AuthServer(issuer, at(issuer, "/authorize"), at(issuer, "/token"), at(issuer, "/register"),
                    List.of(), List.of(), false);
        }
        throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED, "no authorization server metadata at "
                + AuthHttp.origin(issuer) + " (tried the RFC 8414 and OpenID Connect well-known URLs)");
    }

    /** Whether a protected resource identifier covers the MCP URL: same origin, and its path a prefix of the URL's. */
    static boolean covers(URI resource, URI mcpUrl) {
        if (!AuthHttp.origin(normal(resource)).equals(AuthHttp.origin(normal(mcpUrl)))) {
            return false;
        }
        String rp = path(resource);
        String mp = path(mcpUrl);
        return rp.isEmpty() || mp.equals(rp) || mp.startsWith(rp + "/");
    }

    private static boolean sameIssuer(URI a, URI b) {
        return AuthHttp.origin(normal(a)).equals(AuthHttp.origin(normal(b)))
                && path(a).equals(path(b));
    }

    /** Scheme and host in lower case, the default port left out. */
    private static URI normal(URI u) {
        String scheme = u.getScheme().toLowerCase(java.util.Locale.ROOT);
        int port = u.getPort();
        if (port == 443 && scheme.equals("https") || port == 80 && scheme.equals("http")) {
            port = -1;
        }
        try {
            return new URI(scheme, null, u.getHost().toLowerCase(java.util.Locale.ROOT), port, u.getPath(), null, null);
        } catch (URISyntaxException e) {
            return u;
        }
    }

    /** The raw path without one trailing slash ("" for none). */
    private static String path(URI u) {
        return stripSlash(u.getRawPath() == null ? "" : u.getRawPath());
    }

    private static String stripSlash(String p) {
        return p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
    }

    /** A path (and nothing else) on the URL's origin. */
    static URI at(URI base, String path) {
        return URI.create(AuthHttp.origin(base) + path);
    }

    private static String text(JsonNode doc, String key) throws OAuthFailure {
        JsonNode v = doc.get(key);
        if (v == null || !v.isTextual()) {
            throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED, "a discovery document has no " + key);
        }
        return v.asText();
    }

    private static URI optional(JsonNode doc, String key) throws OAuthFailure {
        JsonNode v = doc.get(key);
        return v == null || !v.isTextual() ? null : parse(v.asText(), key);
    }

    static URI parse(String raw, String what) throws OAuthFailure {
        try {
            URI u = new URI(raw);
            if (u.getHost() == null || u.getScheme() == null) {
                throw new URISyntaxException(raw, "not absolute");
            }
            AuthHttp.requireSafe(u);
            return u;
        } catch (URISyntaxException e) {
            throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED, what + " is not an absolute URL");
        }
    }

    static List<String> strings(JsonNode n) {
        List<String> out = new ArrayList<>();
        if (n != null && n.isArray()) {
            n.forEach(e -> {
                if (e.isTextual()) {
                    out.add(e.asText());
                }
            });
        }
        return out;
    }
}
