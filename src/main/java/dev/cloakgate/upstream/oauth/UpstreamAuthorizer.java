package dev.cloakgate.upstream.oauth;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.jboss.logging.Logger;

/**
 * The gateway's OAuth client for one tenant's upstream: which token goes on its requests, what to do when the
 * upstream refuses one (401: obtain or refresh; 403 {@code insufficient_scope}: step up, at most
 * {@value #STEP_UP_LIMIT} times), refresh before expiry, and the operator's connection for the authorization code
 * grant. Blocking (the JDK's HTTP client): callers run it off the event loop. Tokens never leave this object
 * except as the Authorization header the upstream receives.
 */
public final class UpstreamAuthorizer {
    private static final Logger LOG = Logger.getLogger(UpstreamAuthorizer.class);
    /** Re-authorizations for more scope in a row before the gateway gives up on an upstream's demands. */
    public static final int STEP_UP_LIMIT = 2;
    /** A token this close to expiry is refreshed before it is used. */
    private static final long REFRESH_MARGIN_SECONDS = 60;

    /** What the admin API shows of a connection: never a token. */
    public record Status(String state, String grant, String issuer, String scope,
            @com.fasterxml.jackson.annotation.JsonProperty("required_scope") String requiredScope,
            @com.fasterxml.jackson.annotation.JsonProperty("expires_at") Instant expiresAt,
            @com.fasterxml.jackson.annotation.JsonProperty("refresh_token") boolean refreshToken, String client,
            @com.fasterxml.jackson.annotation.JsonProperty("last_error") String lastError) {
    }

    /** A started authorization: the URL the operator opens. */
    public record ConnectStart(URI authorizationUrl, String scope, Instant expires) {
    }

    private final OAuthSettings settings;
    private final Discovery discovery;
    private final ClientRegistration registration;
    private final TokenEndpoint tokenEndpoint;
    private final IdentityAssertionExchange identityAssertions;
    private final ConnectStates states;
    private final TokenListener listener;
    private final Clock clock;
    private final URI upstreamUrl;
    /** Where the connection outlives a restart (refresh token, registered client), or null: memory only. */
    private final TokenStore store;

    private Challenge lastChallenge = Challenge.NONE;
    private ProtectedResource resource;
    private AuthServer server;
    private Client client;
    /** The issuer {@link #client} is registered with. */
    private String clientIssuer;
    /** A refresh token read from the store, not yet used since the start. */
    private String storedRefresh;
    private String storedScope;
    /** The issuer that refresh token is from: it is never sent to another. */
    private String storedIssuer;
    /** Issue 17: the last stored refresh token taken up by {@link #adoptStored}: never tried twice. */
    private String triedStored;
    private volatile Tokens tokens;
    private String requiredScope;
    private int stepUps;
    private String lastError;

    public UpstreamAuthorizer(OAuthSettings settings, URI upstreamUrl, Discovery discovery,
            ClientRegistration registration, TokenEndpoint tokenEndpoint, IdentityAssertionExchange identityAssertions,
            ConnectStates states, TokenListener listener, Clock clock, TokenStore store) {
        this.settings = settings;
        this.upstreamUrl = upstreamUrl;
        this.discovery = discovery;
        this.registration = registration;
        this.tokenEndpoint = tokenEndpoint;
        this.identityAssertions = identityAssertions;
        this.states = states;
        this.listener = listener;
        this.clock = clock;
        this.store = store;
        if (store != null) {
            TokenStore.Read r = store.load(settings.tenant(), settings.upstream());
            if (r.saved() != null) {
                // a pre-registered client comes from the tenant file (its secret from its file) each time
                client = r.saved().client().how().equals("pre-registered") ? null : r.saved().client();
                clientIssuer = r.saved().issuer();
                storedRefresh = r.saved().refreshToken();
                triedStored = storedRefresh;
                storedScope = r.saved().scope();
                storedIssuer = r.saved().issuer();
            }
            lastError = r.failure();
        }
    }

    /**
     * Issue 17: takes up a connection stored since this client last read the store, the one replicas share: an
     * operator connected the upstream through another replica, or another replica's refresh rotated the refresh token
     * (the one held here is then spent). Only a refresh token not used or tried here before is taken, so a dead one is
     * sent at most once. With a store of this process alone nothing new is ever found.
     */
    private void adoptStored(String used) {
        if (store == null) {
            return;
        }
        TokenStore.Read r = store.load(settings.tenant(), settings.upstream());
        TokenStore.Saved saved = r.saved();
        if (saved == null || saved.refreshToken() == null || saved.refreshToken().equals(used)
                || saved.refreshToken().equals(triedStored)) {
            return;
        }
        triedStored = saved.refreshToken();
        if (!saved.client().how().equals("pre-registered")) {
            client = saved.client(); // the refresh token belongs to the client that obtained it
        }
        clientIssuer = saved.issuer();
        storedRefresh = saved.refreshToken();
        storedScope = saved.scope();
        storedIssuer = saved.issuer();
        LOG.infof("upstream %s: took up the connection stored meanwhile (another replica connected or renewed it)",
                settings.label());
    }

    public OAuthSettings settings() {
        return settings;
    }

    /** The access token to send now, or null (no token yet: the upstream's 401 starts discovery). */
    public String bearer() {
        Tokens t = tokens;
        return t == null ? null : t.accessToken();
    }

    /** Whether {@link #beforeRequest()} has work: a token about to expire (cheap; no lock, no I/O). */
    public boolean renewalDue() {
        Tokens t = tokens;
        return t != null && t.expiring(clock.instant(), REFRESH_MARGIN_SECONDS);
    }

    /** Before a request: refreshes a token about to expire (a failed refresh drops it; the 401 then decides). */
    public synchronized void beforeRequest() {
        Tokens t = tokens;
        if (t == null || !t.expiring(clock.instant(), REFRESH_MARGIN_SECONDS)) {
            return;
        }
        try {
            if (t.refreshToken() != null && server != null) {
                refresh(t);
            } else if (settings.grant().unattended()) {
                obtainUnattended(lastChallenge);
            }
        } catch (OAuthFailure e) {
            lastError = e.code().code();
            LOG.warnf("upstream %s: renewing its token failed (%s): %s", settings.label(), e.code().code(), e.getMessage());
            tokens = null;
        }
    }

    /**
     * The upstream refused a request sent with {@code usedToken} (null: none) with {@code status} and this
     * {@code WWW-Authenticate}. Returns normally when the request may be sent again with {@link #bearer()};
     * throws when it may not: the failure's code says why (an operator must connect, the step-up limit was
     * reached, the authorization server refused).
     */
    public synchronized void challenged(int status, String wwwAuthenticate, String usedToken) throws OAuthFailure {
        Challenge c = Challenge.parse(wwwAuthenticate);
        Tokens t = tokens;
        if (t != null && !t.accessToken().equals(usedToken)) {
            return; // renewed meanwhile (another request's refusal): try the new token
        }
        boolean stepUp = status == 403 && c.insufficientScope();
        if (status == 403 && !stepUp) {
            throw fail(new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED,
                    "the upstream refused the token with HTTP 403 and no insufficient_scope challenge"));
        }
        lastChallenge = c;
        if (stepUp) {
            if (++stepUps > STEP_UP_LIMIT) {
                throw fail(new OAuthFailure(OAuthFailure.Code.UPSTREAM_SCOPE_REFUSED, "the upstream still asks for more"
                        + " scope after " + STEP_UP_LIMIT + " re-authorizations; check the scopes the client may get"));
            }
            requiredScope = union(t == null ? null : t.scope(), c.scope());
        } else {
            requiredScope = null;
            if (t != null && t.refreshToken() != null && server != null) {
                try {
                    refresh(t);
                    return;
                } catch (OAuthFailure e) {
                    LOG.infof("upstream %s: refreshing its token failed (%s); it needs a new one", settings.label(),
                            e.code().code());
                }
            }
            tokens = null;
            // the connection from before a restart, else (issue 17) one stored meanwhile by another replica: at most
            // one of each, each refresh token tried once
            for (int attempt = 0; attempt < 2; attempt++) {
                if (storedRefresh == null) {
                    adoptStored(t == null ? null : t.refreshToken());
                }
                if (storedRefresh == null) {
                    break;
                }
                String refresh = storedRefresh;
                storedRefresh = null;
                try {
                    discover(c);
                    if (!server.issuer().toString().equals(storedIssuer)) {
                        // the upstream now names another authorization server: the token stays unsent
                        throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_REQUIRED,
                                "the stored connection is for another authorization server");
                    }
                    refresh(new Tokens("", null, refresh, storedScope));
                    return;
                } catch (OAuthFailure e) {
                    LOG.infof("upstream %s: the stored refresh token did not work (%s)", settings.label(),
                            e.code().code());
                }
            }
        }
        if (settings.grant().unattended()) {
            obtainUnattended(c);
            return;
        }
        throw fail(new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_REQUIRED, stepUp
                ? "the upstream asks for more scope (" + requiredScope + "): an operator connects it again through the"
                        + " admin API (POST /admin/t/" + settings.tenant() + "/upstreams/" + settings.upstream()
                        + "/oauth/connect)"
                : "the upstream needs authorization: an operator connects it through the admin API (POST /admin/t/"
                        + settings.tenant() + "/upstreams/" + settings.upstream() + "/oauth/connect)"));
    }

    /** Starts an operator's connection (authorization code with PKCE S256): the URL to open, with a single-use state. */
    public synchronized ConnectStart connect() throws OAuthFailure {
        if (settings.grant() != OAuthSettings.Grant.AUTHORIZATION_CODE) {
            throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED,
                    "this upstream uses the " + settings.grant().code() + " grant: there is nothing for an operator to connect");
        }
        try {
            URI redirect = registration.redirectUri();
            discover(lastChallenge);
            if (server.authorizationEndpoint() == null) {
                throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED,
                        "the authorization server has no authorization_endpoint");
            }
            String scope = scope(lastChallenge);
            if (server.scopesSupported().contains("offline_access")
                    && (scope == null || !Set.of(scope.split(" ")).contains("offline_access"))) {
                // ask for a refresh token where the server says how (SEP-2207): the operator connects once
                scope = scope == null ? "offline_access" : scope + " offline_access";
            }
            Pkce pkce = Pkce.create();
            String state = states.add(settings.tenant(), settings.upstream(), pkce, redirect.toString(), scope,
                    server.issuer().toString(), this);
            Map<String, String> q = new LinkedHashMap<>();
            q.put("response_type", "code");
            q.put("client_id", client.id());
            q.put("redirect_uri", redirect.toString());
            q.put("code_challenge", pkce.challenge());
            q.put("code_challenge_method", "S256");
            q.put("state", state);
            q.put("resource", resource.resource().toString());
            if (scope != null) {
                q.put("scope", scope);
            }
            URI endpoint = server.authorizationEndpoint();
            String sep = endpoint.getRawQuery() == null ? "?" : "&";
            return new ConnectStart(URI.create(endpoint + sep + AuthHttp.form(q)), scope,
                    clock.instant().plusSeconds(600));
        } catch (OAuthFailure e) {
            throw fail(e);
        }
    }

    /** Finishes a connection with the code the authorization server sent to the redirect URI. */
    /**
     * Redeems the code of a redirect. {@code iss} is the redirect's RFC 9207 issuer, or null when it carried none.
     * A code is redeemed only at the server the authorization was sent to (a mix-up: an upstream that names another
     * server meanwhile must not receive this server's code and its PKCE verifier).
     */
    public synchronized void complete(ConnectStates.Pending p, String code, String iss) throws OAuthFailure {
        if (server == null || client == null || resource == null) {
            throw fail(new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED, "the connection was reset meanwhile"));
        }
        if (iss != null && !iss.equals(p.issuer())) {
            throw fail(new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED,
                    "the authorization response names another issuer than the server it was sent to (RFC 9207)"));
        }
        if (!server.issuer().toString().equals(p.issuer())) {
            throw fail(new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED, "the upstream names another "
                    + "authorization server since this connection started: start the connection again"));
        }
        Map<String, String> grant = new LinkedHashMap<>();
        grant.put("grant_type", "authorization_code");
        grant.put("code", code);
        grant.put("redirect_uri", p.redirectUri());
        grant.put("code_verifier", p.pkce().verifier());
        try {
            store(tokenEndpoint.request(server, client, settings, resource.resource().toString(), grant, p.scope()),
                    "authorization_code", null);
        } catch (OAuthFailure e) {
            throw fail(e);
        }
    }

    /** Forgets the tokens and the client (the next request needs a new connection). */
    public synchronized void disconnect() {
        tokens = null;
        client = null;
        clientIssuer = null;
        storedRefresh = null;
        if (store != null) {
            store.delete(settings.tenant(), settings.upstream());
        }
        server = null;
        resource = null;
        requiredScope = null;
        stepUps = 0;
        lastError = null;
    }

    public synchronized Status status() {
        Tokens t = tokens;
        String state = lastError != null ? lastError
                : t != null ? "connected"
                : settings.grant() == OAuthSettings.Grant.AUTHORIZATION_CODE ? "not_connected" : "no_token_yet";
        return new Status(state, settings.grant().code(), server == null ? null : server.issuer().toString(),
                t == null ? null : t.scope(), requiredScope, t == null ? null : t.expiresAt(),
                t != null && t.refreshToken() != null, client == null ? null : client.how(), lastError);
    }

    /** A token by a grant no operator takes part in: client credentials, or cross-app access (an ID-JAG). */
    private void obtainUnattended(Challenge c) throws OAuthFailure {
        try {
            discover(c);
            String scope = scope(c);
            Map<String, String> grant = new LinkedHashMap<>();
            if (settings.grant() == OAuthSettings.Grant.CROSS_APP_ACCESS) {
                grant.put("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer");
                grant.put("assertion", identityAssertions.grant(settings.crossApp(), server,
                        resource.resource().toString(), scope));
            } else {
                grant.put("grant_type", "client_credentials");
            }
            if (scope != null) {
                grant.put("scope", scope);
            }
            store(tokenEndpoint.request(server, client, settings, resource.resource().toString(), grant, scope),
                    settings.grant().code(), null);
        } catch (OAuthFailure e) {
            throw fail(e);
        }
    }

    private void refresh(Tokens t) throws OAuthFailure {
        Map<String, String> grant = new LinkedHashMap<>();
        grant.put("grant_type", "refresh_token");
        grant.put("refresh_token", t.refreshToken());
        store(tokenEndpoint.request(server, client, settings, resource.resource().toString(), grant, t.scope()),
                "refresh_token", t.refreshToken());
    }

    private void store(Tokens fresh, String grant, String previousRefresh) {
        Tokens kept = fresh.refreshToken() == null && previousRefresh != null
                ? new Tokens(fresh.accessToken(), fresh.expiresAt(), previousRefresh, fresh.scope()) : fresh;
        tokens = kept;
        lastError = null;
        if (!"refresh_token".equals(grant) && requiredScope == null) {
            stepUps = 0;
        }
        if (store != null && kept.refreshToken() != null) {
            store.save(settings.tenant(), settings.upstream(),
                    new TokenStore.Saved(client.how().equals("pre-registered")
                            ? new Client(client.id(), null, client.authMethod(), client.how()) : client,
                            server.issuer().toString(), kept.refreshToken(), kept.scope()));
        }
        listener.obtained(settings, grant, kept.scope(), kept.expiresAt(), server.issuer());
        LOG.infof("upstream %s: obtained a token (%s, scope %s, expires %s)", settings.label(), grant, kept.scope(),
                kept.expiresAt());
    }

    /** Discovery and registration, again when the upstream names other metadata than before. */
    private void discover(Challenge c) throws OAuthFailure {
        ProtectedResource pr = discovery.protectedResource(upstreamUrl, c);
        if (server == null || resource == null || !pr.authorizationServer().equals(resource.authorizationServer())) {
            AuthServer as = discovery.authServer(pr);
            Client cl = client != null && as.issuer().toString().equals(clientIssuer) ? client
                    : registration.client(settings, as);
            server = as;
            client = cl;
            clientIssuer = as.issuer().toString();
        }
        resource = pr;
    }

    /** The spec's scope selection: the operator's, else what a step-up needs, else the challenge's, else scopes_supported. */
    private String scope(Challenge c) {
        if (settings.scope() != null) {
            return settings.scope();
        }
        if (requiredScope != null) {
            return requiredScope;
        }
        if (c.scope() != null && !c.scope().isBlank()) {
            return c.scope();
        }
        return resource.scopesSupported().isEmpty() ? null : String.join(" ", resource.scopesSupported());
    }

    private static String union(String a, String b) {
        Set<String> all = new LinkedHashSet<>();
        for (String s : new String[] { a, b }) {
            if (s != null) {
                for (String one : s.trim().split("\\s+")) {
                    if (!one.isEmpty()) {
                        all.add(one);
                    }
                }
            }
        }
        return all.isEmpty() ? null : String.join(" ", all);
    }

    private OAuthFailure fail(OAuthFailure e) {
        lastError = e.code().code();
        return e;
    }
}
