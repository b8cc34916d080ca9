package dev.cloakgate.tenant;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.auth.AuthSettings;
import dev.cloakgate.auth.PrincipalLimits;
import dev.cloakgate.auth.Role;

/**
 * The tenant file's {@code auth} block (issue 10, identity and roles). Every key is checked and every error names
 * its JSON path; a credential itself is never accepted in the file, only its SHA-256 or the file that holds it.
 */
final class AuthBlockParser {
    static final Pattern PRINCIPAL_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Pattern ISSUER_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,31}");
    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");
    private static final Set<String> AUTH_KEYS = Set.of("mode", "principals", "jwt_issuers", "limits", "oauth");
    private static final Set<String> PRINCIPAL_KEYS = Set.of("roles", "tools", "tokens_sha256", "token_file", "jwt", "limits");
    private static final Set<String> JWT_KEYS = Set.of("issuer", "subject");
    private static final Set<String> ISSUER_KEYS = Set.of("issuer", "audiences", "jwks_file", "jwks_url", "jwks_ca_file",
            "jwks_token_file", "jwks_refresh_seconds", "jwks_timeout_seconds", "principal_claim", "clock_skew_seconds");
    // ---- issue 16: the tenant as an OAuth protected resource ----
    private static final Set<String> OAUTH_KEYS = Set.of("authorization_servers", "scopes_supported", "role_scopes", "principal");
    private static final Set<String> SERVER_KEYS = Set.of("issuer", "jwks_file", "jwks_url", "jwks_ca_file",
            "jwks_refresh_seconds", "jwks_timeout_seconds", "clock_skew_seconds");
    private static final Set<String> OAUTH_PRINCIPAL_KEYS = Set.of("name", "tools", "limits");
    /** RFC 6749 3.3 scope-token. */
    private static final Pattern SCOPE_TOKEN = Pattern.compile("[\\x21\\x23-\\x5B\\x5D-\\x7E]+");
    // ---- end issue 16 ----
    private static final Set<String> LIMIT_KEYS = Set.of("calls_per_minute", "sessions");
    /** Keys an operator might reach for to paste a token: refused with where the token goes instead. */
    private static final Set<String> PLAIN_TOKEN_KEYS = Set.of("token", "tokens", "bearer", "password", "secret");
    private static final String HASH_HINT = "printf %s \"$TOKEN\" | sha256sum";

    private final TenantParser.Ctx c;
    private final Path workingDir;

    AuthBlockParser(TenantParser.Ctx c, Path workingDir) {
        this.c = c;
        this.workingDir = workingDir;
    }

    /** The block, or a refusal: a tenant without one is refused, so that no endpoint is open by omission. */
    AuthSettings parse(JsonNode node, Namespace namespace, Set<String> upstreamNames) throws TenantConfigException {
        String p = "$.auth";
        if (node == null) {
            throw new TenantConfigException(c.file, p, "required: say who may call this tenant (principals with"
                    + " static tokens or JWTs), or \"auth\": {\"mode\": \"none\"} to let anyone who reaches the port in");
        }
        c.object(node, p);
        refusePlainTokens(node, p);
        c.onlyKeys(node, p, AUTH_KEYS);
        boolean open = false;
        if (node.has("mode")) {
            open = switch (c.string(node.get("mode"), p + ".mode")) {
                case "none" -> true;
                case "bearer" -> false;
                default -> throw new TenantConfigException(c.file, p + ".mode",
                        "must be \"bearer\" (the default: every request presents a credential) or \"none\"");
            };
        }
        if (open && node.has("limits")) {
            throw new TenantConfigException(c.file, p + ".limits", "with mode none there is no principal to limit"
                    + " (per-tenant budgets are under policy.budget)");
        }
        PrincipalLimits defaults = open ? PrincipalLimits.NONE : limits(node.get("limits"), p + ".limits", PrincipalLimits.DEFAULTS);
        Map<String, AuthSettings.IssuerSettings> issuers = issuers(node.get("jwt_issuers"), p + ".jwt_issuers");
        AuthSettings.OAuthSettings oauth = null;
        if (node.has("oauth")) {
            if (open) {
                throw new TenantConfigException(c.file, p + ".oauth", "with mode none agents present no credential:"
                        + " an OAuth login would never be asked for (remove the mode, or the oauth block)");
            }
            oauth = oauth(node.get("oauth"), p + ".oauth", issuers, defaults, namespace, upstreamNames);
        }
        Map<String, AuthSettings.PrincipalSettings> principals = new LinkedHashMap<>();
        JsonNode ps = node.get("principals");
        if (ps != null) {
            c.object(ps, p + ".principals");
            Map<String, String> digestOwners = new HashMap<>();
            Map<String, String> subjectOwners = new HashMap<>();
            Iterator<Map.Entry<String, JsonNode>> it = ps.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                String pp = p + ".principals." + e.getKey();
                if (!PRINCIPAL_NAME.matcher(e.getKey()).matches()) {
                    throw new TenantConfigException(c.file, pp,
                            "principal name must be letters, digits, '.', '_' and '-', at most 64 characters");
                }
                AuthSettings.PrincipalSettings principal = principal(e.getKey(), e.getValue(), pp, open, defaults, issuers,
                        namespace, upstreamNames);
                for (int i = 0; i < principal.tokenSha256().size(); i++) {
                    String other = digestOwners.putIfAbsent(principal.tokenSha256().get(i), e.getKey());
                    if (other != null) {
                        throw new TenantConfigException(c.file, pp + ".tokens_sha256[" + i + "]",
                                "the same token is already principal \"" + other + "\"'s: one token, one principal");
                    }
                }
                if (principal.jwt() != null) {
                    String key = principal.jwt().issuer() + "\u0000" + principal.jwt().subject();
                    String other = subjectOwners.putIfAbsent(key, e.getKey());
                    if (other != null) {
                        throw new TenantConfigException(c.file, pp + ".jwt.subject",
                                "the same issuer and subject already map to principal \"" + other + "\"");
                    }
                }
                principals.put(e.getKey(), principal);
            }
        }
        if (oauth != null && principals.containsKey(oauth.principal())) {
            throw new TenantConfigException(c.file, p + ".oauth.principal.name", "principal \"" + oauth.principal()
                    + "\" is already under auth.principals: give OAuth subjects a name of their own");
        }
        if (!open && oauth == null && principals.values().stream().noneMatch(x -> x.roles().contains(Role.AGENT))) {
            throw new TenantConfigException(c.file, p + ".principals", "no principal has the agent role, so nobody could"
                    + " use this tenant's MCP endpoint: add one (or \"mode\": \"none\" to ask agents for no credential)");
        }
        return new AuthSettings(open, principals, issuers, defaults, oauth);
    }

    /**
     * Issue 16: {@code auth.oauth}, the tenant's MCP endpoint as an OAuth 2.1 protected resource: its authorization
     * servers (issuer URLs; their keys from RFC 8414 metadata unless given), the scopes it publishes, the scopes each
     * role takes, and the principal template every subject of those servers becomes.
     */
    private AuthSettings.OAuthSettings oauth(JsonNode n, String p, Map<String, AuthSettings.IssuerSettings> jwtIssuers,
            PrincipalLimits defaults, Namespace namespace, Set<String> upstreamNames) throws TenantConfigException {
        c.object(n, p);
        refusePlainTokens(n, p);
        c.onlyKeys(n, p, OAUTH_KEYS);
        JsonNode as = n.get("authorization_servers");
        if (as == null || !as.isObject() || as.isEmpty()) {
            throw new TenantConfigException(c.file, p + ".authorization_servers", "name at least one authorization server:"
                    + " {\"corp\": {\"issuer\": \"https://login.example.com\"}}");
        }
        Map<String, AuthSettings.IssuerSettings> servers = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = as.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String sp = p + ".authorization_servers." + e.getKey();
            if (!ISSUER_NAME.matcher(e.getKey()).matches()) {
                throw new TenantConfigException(c.file, sp, "server name must be letters, digits, '.', '_' and '-', at most 32 characters");
            }
            c.object(e.getValue(), sp);
            c.onlyKeys(e.getValue(), sp, SERVER_KEYS);
            AuthSettings.IssuerSettings is = issuer(e.getKey(), e.getValue(), sp, true);
            URI iss;
            try {
                iss = new URI(is.issuer());
            } catch (URISyntaxException x) {
                iss = null;
            }
            if (iss == null || !httpsOrLoopbackHttp(iss) || iss.getRawQuery() != null || iss.getRawFragment() != null) {
                // RFC 8414 2: an https URL without query or fragment; its metadata names the keys
                throw new TenantConfigException(c.file, sp + ".issuer", "must be the authorization server's issuer"
                        + " identifier: an https:// URL without query or fragment (http:// only to a loopback address)");
            }
            for (AuthSettings.IssuerSettings other : servers.values()) {
                if (other.issuer().equals(is.issuer())) {
                    throw new TenantConfigException(c.file, sp + ".issuer", "server \"" + other.name() + "\" already has this issuer");
                }
            }
            for (AuthSettings.IssuerSettings other : jwtIssuers.values()) {
                if (other.issuer().equals(is.issuer())) {
                    // tokens are routed by iss: one issuer is either a source of exact subjects or an OAuth server
                    throw new TenantConfigException(c.file, sp + ".issuer", "auth.jwt_issuers." + other.name()
                            + " already has this issuer: a token's iss routes it to one of them");
                }
            }
            servers.put(e.getKey(), is);
        }
        List<String> supported = c.strings(n.get("scopes_supported"), p + ".scopes_supported");
        for (int i = 0; i < supported.size(); i++) {
            if (!SCOPE_TOKEN.matcher(supported.get(i)).matches()) {
                throw new TenantConfigException(c.file, p + ".scopes_supported[" + i + "]",
                        "a scope is printable ASCII without spaces, quotes or backslashes (RFC 6749 3.3)");
            }
        }
        String rp = p + ".role_scopes";
        JsonNode rs = requiredObject(n.get("role_scopes"), rp, "give the scopes each role takes, at least the agent's:"
                + " {\"agent\": [\"mcp:tools\"]}");
        Map<Role, List<String>> roleScopes = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> roles = rs.fields();
        while (roles.hasNext()) {
            Map.Entry<String, JsonNode> e = roles.next();
            Role role = Role.of(e.getKey()).orElseThrow(() -> new TenantConfigException(c.file, rp + "." + e.getKey(),
                    "unknown role (known: agent, operator, approver, auditor)"));
            List<String> scopes = c.strings(e.getValue(), rp + "." + e.getKey());
            if (scopes.isEmpty()) {
                // a role without a scope would be granted to every token the server issues for this resource
                throw new TenantConfigException(c.file, rp + "." + e.getKey(), "give at least one scope the role takes");
            }
            for (int i = 0; i < scopes.size(); i++) {
                if (!supported.contains(scopes.get(i))) {
                    throw new TenantConfigException(c.file, rp + "." + e.getKey() + "[" + i + "]",
                            "not under scopes_supported: a client asks only for the scopes the metadata publishes");
                }
            }
            roleScopes.put(role, List.copyOf(scopes));
        }
        if (!roleScopes.containsKey(Role.AGENT)) {
            throw new TenantConfigException(c.file, rp + ".agent", "required: the scopes an agent's token must carry to"
                    + " use the MCP endpoint");
        }
        String pp = p + ".principal";
        JsonNode pn = requiredObject(n.get("principal"), pp, "required: {\"name\": \"people\"} (each subject is recorded"
                + " as people~<digest>), optionally with tools and limits");
        c.onlyKeys(pn, pp, OAUTH_PRINCIPAL_KEYS);
        String name = c.string(pn.get("name"), pp + ".name");
        if (!PRINCIPAL_NAME.matcher(name).matches()) {
            throw new TenantConfigException(c.file, pp + ".name",
                    "principal name must be letters, digits, '.', '_' and '-', at most 64 characters");
        }
        Set<String> tools = pn.has("tools") ? tools(pn.get("tools"), pp + ".tools", namespace, upstreamNames) : null;
        return new AuthSettings.OAuthSettings(servers, supported, roleScopes, name, tools,
                limits(pn.get("limits"), pp + ".limits", defaults));
    }

    private AuthSettings.PrincipalSettings principal(String name, JsonNode node, String pp, boolean open,
            PrincipalLimits defaults, Map<String, AuthSettings.IssuerSettings> issuers, Namespace namespace,
            Set<String> upstreamNames) throws TenantConfigException {
        c.object(node, pp);
        refusePlainTokens(node, pp);
        c.onlyKeys(node, pp, PRINCIPAL_KEYS);
        List<String> roleNames = c.strings(node.get("roles"), pp + ".roles");
        if (roleNames.isEmpty()) {
            throw new TenantConfigException(c.file, pp + ".roles", "give at least one role (agent, operator, approver, auditor)");
        }
        Set<Role> roles = new LinkedHashSet<>();
        for (int i = 0; i < roleNames.size(); i++) {
            String r = roleNames.get(i);
            roles.add(Role.of(r).orElseThrow(() -> new TenantConfigException(c.file, pp + ".roles",
                    "unknown role \"" + r + "\" (known: agent, operator, approver, auditor)")));
        }
        if (open && roles.contains(Role.AGENT)) {
            throw new TenantConfigException(c.file, pp + ".roles", "with mode none every caller is an agent without a"
                    + " credential: an agent principal would never be asked for one (remove it, or the mode)");
        }
        Set<String> tools = null;
        if (node.has("tools")) {
            if (!roles.contains(Role.AGENT)) {
                throw new TenantConfigException(c.file, pp + ".tools", "a tool subset applies to the agent role, which"
                        + " this principal does not have");
            }
            tools = tools(node.get("tools"), pp + ".tools", namespace, upstreamNames);
        }
        List<String> hashes = node.has("tokens_sha256") ? c.strings(node.get("tokens_sha256"), pp + ".tokens_sha256") : List.of();
        for (int i = 0; i < hashes.size(); i++) {
            // the hash, never the token: a token pasted here by mistake would be a credential in a config file
            if (!SHA256_HEX.matcher(hashes.get(i)).matches()) {
                throw new TenantConfigException(c.file, pp + ".tokens_sha256[" + i + "]",
                        "must be the SHA-256 of a token as 64 lower-case hex digits (" + HASH_HINT + "), never the token");
            }
        }
        Path tokenFile = node.has("token_file") ? c.file(node.get("token_file"), pp + ".token_file") : null;
        AuthSettings.JwtIdentity jwt = null;
        if (node.has("jwt")) {
            JsonNode j = node.get("jwt");
            String jp = pp + ".jwt";
            c.object(j, jp);
            c.onlyKeys(j, jp, JWT_KEYS);
            String issuer;
            if (j.has("issuer")) {
                issuer = c.string(j.get("issuer"), jp + ".issuer");
                if (!issuers.containsKey(issuer)) {
                    throw new TenantConfigException(c.file, jp + ".issuer", "no issuer named \"" + issuer
                            + "\" under auth.jwt_issuers" + (issuers.isEmpty() ? "" : " (" + String.join(", ", issuers.keySet()) + ")"));
                }
            } else if (issuers.size() == 1) {
                issuer = issuers.keySet().iterator().next();
            } else {
                throw new TenantConfigException(c.file, jp + ".issuer", issuers.isEmpty()
                        ? "a JWT identity needs an issuer: declare it under auth.jwt_issuers"
                        : "name the issuer: this tenant trusts several (" + String.join(", ", issuers.keySet()) + ")");
            }
            String subject = c.string(j.get("subject"), jp + ".subject");
            if (subject.isBlank()) {
                throw new TenantConfigException(c.file, jp + ".subject", "must not be empty");
            }
            jwt = new AuthSettings.JwtIdentity(issuer, subject);
        }
        if (hashes.isEmpty() && tokenFile == null && jwt == null) {
            throw new TenantConfigException(c.file, pp, "give the principal a credential: tokens_sha256, token_file or jwt");
        }
        if (open && node.has("limits")) {
            throw new TenantConfigException(c.file, pp + ".limits", "limits apply to agents; with mode none agents are anonymous");
        }
        PrincipalLimits limits = limits(node.get("limits"), pp + ".limits", defaults);
        return new AuthSettings.PrincipalSettings(name, roles, tools, hashes, tokenFile, jwt, limits);
    }

    private JsonNode requiredObject(JsonNode n, String p, String missing) throws TenantConfigException {
        if (n == null) {
            throw new TenantConfigException(c.file, p, missing);
        }
        c.object(n, p);
        return n;
    }

    /** A tool subset, named as agents see the tools. */
    private Set<String> tools(JsonNode node, String p, Namespace namespace, Set<String> upstreamNames) throws TenantConfigException {
        List<String> names = c.strings(node, p);
        for (int i = 0; i < names.size(); i++) {
            String t = names.get(i);
            int split = t.indexOf("__");
            if (namespace == Namespace.PREFIX && (split <= 0 || !upstreamNames.contains(t.substring(0, split)))) {
                throw new TenantConfigException(c.file, p + "[" + i + "]", "tools are named as agents see them,"
                        + " {upstream}__{tool}, with one of this tenant's upstreams (" + String.join(", ", upstreamNames) + ")");
            }
        }
        return new LinkedHashSet<>(names);
    }

    private Map<String, AuthSettings.IssuerSettings> issuers(JsonNode node, String p) throws TenantConfigException {
        Map<String, AuthSettings.IssuerSettings> out = new LinkedHashMap<>();
        if (node == null) {
            return out;
        }
        c.object(node, p);
        Iterator<Map.Entry<String, JsonNode>> it = node.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String ip = p + "." + e.getKey();
            if (!ISSUER_NAME.matcher(e.getKey()).matches()) {
                throw new TenantConfigException(c.file, ip, "issuer name must be letters, digits, '.', '_' and '-', at most 32 characters");
            }
            AuthSettings.IssuerSettings is = issuer(e.getKey(), e.getValue(), ip, false);
            for (AuthSettings.IssuerSettings other : out.values()) {
                if (other.issuer().equals(is.issuer())) {
                    // tokens are routed to an issuer by their iss: two entries for one would be ambiguous
                    throw new TenantConfigException(c.file, ip + ".issuer", "issuer \"" + other.name()
                            + "\" already has this iss; list its audiences together");
                }
            }
            out.put(e.getKey(), is);
        }
        return out;
    }

    /**
     * @param oauth an authorization server of {@code auth.oauth} (issue 16): its audience is the tenant's resource, and
     *        its keys may come from its metadata (neither jwks_file nor jwks_url)
     */
    private AuthSettings.IssuerSettings issuer(String name, JsonNode n, String ip, boolean oauth) throws TenantConfigException {
        c.object(n, ip);
        c.onlyKeys(n, ip, oauth ? SERVER_KEYS : ISSUER_KEYS);
        String iss = c.expand(c.string(n.get("issuer"), ip + ".issuer"), ip + ".issuer");
        if (iss.isBlank()) {
            throw new TenantConfigException(c.file, ip + ".issuer", "must be the exact \"iss\" of the issuer's tokens");
        }
        List<String> audiences = oauth ? List.of() : c.strings(n.get("audiences"), ip + ".audiences");
        if (!oauth && audiences.isEmpty() || audiences.stream().anyMatch(String::isBlank)) {
            // a cluster's default service-account token is for the API server: without an audience of its own the
            // gateway would accept tokens minted for anything else the issuer serves
            throw new TenantConfigException(c.file, ip + ".audiences", "give at least one audience a token must be"
                    + " minted for (a projected service-account token's audience, e.g. \"cloakgate\")");
        }
        boolean file = n.has("jwks_file");
        boolean url = n.has("jwks_url");
        if (file && url || !oauth && !file && !url) {
            throw new TenantConfigException(c.file, ip, oauth ? "give at most one of jwks_file or jwks_url (with neither, the keys are"
                    + " the jwks_uri of the server's metadata)" : "give exactly one of jwks_file or jwks_url (where the issuer's public keys are)");
        }
        Path jwksFile = file ? c.file(n.get("jwks_file"), ip + ".jwks_file") : null;
        URI jwksUrl = null;
        if (url) {
            String raw = c.expand(c.string(n.get("jwks_url"), ip + ".jwks_url"), ip + ".jwks_url");
            try {
                jwksUrl = new URI(raw);
            } catch (URISyntaxException e) {
                throw new TenantConfigException(c.file, ip + ".jwks_url", "not a valid URL");
            }
            if (!httpsOrLoopbackHttp(jwksUrl)) {
                // whoever can change the keys in transit can sign any principal's token
                throw new TenantConfigException(c.file, ip + ".jwks_url", "must be an https:// URL (http:// only to a loopback address)");
            }
        }
        for (String k : List.of("jwks_ca_file", "jwks_token_file")) {
            if (n.has(k) && !url && !(oauth && !file)) {
                throw new TenantConfigException(c.file, ip + "." + k, "applies to jwks_url only");
            }
        }
        Path ca = n.has("jwks_ca_file") ? c.file(n.get("jwks_ca_file"), ip + ".jwks_ca_file") : null;
        Path token = n.has("jwks_token_file") ? c.file(n.get("jwks_token_file"), ip + ".jwks_token_file") : null;
        Duration refresh = c.seconds(n.get("jwks_refresh_seconds"), ip + ".jwks_refresh_seconds",
                AuthSettings.IssuerSettings.DEFAULT_REFRESH, 10, 86_400);
        Duration timeout = c.seconds(n.get("jwks_timeout_seconds"), ip + ".jwks_timeout_seconds",
                AuthSettings.IssuerSettings.DEFAULT_FETCH_TIMEOUT, 1, 60);
        Duration skew = c.seconds(n.get("clock_skew_seconds"), ip + ".clock_skew_seconds",
                AuthSettings.IssuerSettings.DEFAULT_CLOCK_SKEW, 0, 300);
        String claim = "sub";
        if (n.has("principal_claim")) {
            claim = c.string(n.get("principal_claim"), ip + ".principal_claim");
            if (claim.isBlank()) {
                throw new TenantConfigException(c.file, ip + ".principal_claim", "must name a claim (default sub)");
            }
        }
        return new AuthSettings.IssuerSettings(name, iss, audiences, jwksFile, jwksUrl, ca, token, refresh, timeout, claim, skew);
    }

    private PrincipalLimits limits(JsonNode n, String p, PrincipalLimits fallback) throws TenantConfigException {
        if (n == null) {
            return fallback;
        }
        c.object(n, p);
        c.onlyKeys(n, p, LIMIT_KEYS);
        return new PrincipalLimits(count(n.get("calls_per_minute"), p + ".calls_per_minute", fallback.callsPerMinute(), 1_000_000),
                count(n.get("sessions"), p + ".sessions", fallback.sessions(), 100_000));
    }

    private int count(JsonNode n, String p, int fallback, int max) throws TenantConfigException {
        if (n == null) {
            return fallback;
        }
        if (!n.isIntegralNumber() || !n.canConvertToInt() || n.asInt() < 1 || n.asInt() > max) {
            throw new TenantConfigException(c.file, p, "must be an integer from 1 to " + max);
        }
        return n.asInt();
    }

    private void refusePlainTokens(JsonNode node, String p) throws TenantConfigException {
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String k = names.next();
            if (PLAIN_TOKEN_KEYS.contains(k)) {
                throw new TenantConfigException(c.file, p + "." + k, "a credential is never kept in the tenant file: give"
                        + " its SHA-256 under tokens_sha256 (" + HASH_HINT + ") or mount it and name the file in token_file");
            }
        }
    }

    /** An https URL, or an http one to a loopback host: whoever can change an issuer's keys in transit signs any token. */
    private static boolean httpsOrLoopbackHttp(URI u) {
        return u.getHost() != null && ("https".equals(u.getScheme())
                || "http".equals(u.getScheme()) && Set.of("127.0.0.1", "localhost", "[::1]", "::1").contains(u.getHost()));
    }
}
