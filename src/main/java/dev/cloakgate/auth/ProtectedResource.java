package dev.cloakgate.auth;

import java.net.URI;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Issue 16: one tenant's MCP endpoint as an OAuth 2.1 protected resource. {@code resource} is what its tokens must be
 * issued for (RFC 8707, their {@code aud}) and what its metadata (RFC 9728) names; {@code metadataUrl} is where that
 * metadata is, by the path insertion RFC 9728 section 3.1 and the MCP authorization specification give, and what
 * every challenge of the endpoint points to.
 *
 * @param authorizationServers the issuer identifiers of the tenant's authorization servers
 * @param roleScopes the scopes a token must carry, all of them, for each role
 */
public record ProtectedResource(String resource, String metadataUrl, List<String> authorizationServers,
        List<String> scopesSupported, Map<Role, List<String>> roleScopes) {
    public static final String WELL_KNOWN = "/.well-known/oauth-protected-resource";

    public ProtectedResource {
        authorizationServers = List.copyOf(authorizationServers);
        scopesSupported = List.copyOf(scopesSupported);
        roleScopes = Map.copyOf(roleScopes);
    }

    /**
     * The protected resource of tenant {@code tenant} under the gateway's public URL (already normalised: no trailing
     * slash, query, fragment or user info).
     */
    public static ProtectedResource of(String publicUrl, String tenant, AuthSettings.OAuthSettings oauth) {
        String resource = publicUrl + "/t/" + tenant + "/mcp";
        URI u = URI.create(resource);
        String origin = u.getScheme() + "://" + u.getRawAuthority();
        return new ProtectedResource(resource, origin + WELL_KNOWN + u.getRawPath(),
                oauth.servers().values().stream().map(AuthSettings.IssuerSettings::issuer).toList(),
                oauth.scopesSupported(), oauth.roleScopes());
    }

    /** The scopes acting in this role takes, space-separated; null when no scope grants it. */
    public String scope(Role role) {
        List<String> s = roleScopes.get(role);
        return s == null ? null : String.join(" ", s);
    }

    /** The role's scopes are all among the token's. */
    boolean grants(Role role, java.util.Set<String> tokenScopes) {
        List<String> s = roleScopes.get(role);
        return s != null && tokenScopes.containsAll(s);
    }

    /**
     * The parameters this resource adds to a {@code WWW-Authenticate: Bearer} challenge: where its metadata is and,
     * when a role's scopes are known, the scope to ask for (the MCP specification's scope selection).
     */
    String challengeParams(Role role) {
        String scope = scope(role);
        return ", resource_metadata=\"" + metadataUrl + "\"" + (scope == null ? "" : ", scope=\"" + scope + "\"");
    }

    /** The RFC 9728 document. */
    public ObjectNode metadata() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("resource", resource);
        authorizationServers.forEach(o.putArray("authorization_servers")::add);
        scopesSupported.forEach(o.putArray("scopes_supported")::add);
        o.putArray("bearer_methods_supported").add("header");
        o.put("resource_name", "cloakgate MCP endpoint");
        return o;
    }
}
