package dev.cloakgate.upstream.oauth;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every OAuth upstream's client, one per tenant and upstream, shared by all of that tenant's sessions (a token
 * serves them all). A reloaded tenant file keeps an upstream's client (and its tokens) while its {@code oauth}
 * block and URL are unchanged; a changed block starts afresh.
 */
public final class UpstreamAuthorizers {
    private final Map<String, UpstreamAuthorizer> byUpstream = new ConcurrentHashMap<>();
    private final Discovery discovery;
    private final ClientRegistration registration;
    private final TokenEndpoint tokenEndpoint;
    private final IdentityAssertionExchange identityAssertions;
    private final ConnectStates states;
    private final TokenListener listener;
    private final Clock clock;
    private final Map<String, URI> urls = new ConcurrentHashMap<>();
    private final java.util.function.Supplier<TokenStore> storeSource;
    private TokenStore store;

    /**
     * @param publicUrl the gateway's external base URL, or null when it has none
     * @param store where connections outlive a restart (opened when the first OAuth upstream is seen: its key is
     *        generated only then), or a supplier of null (memory only)
     */
    public UpstreamAuthorizers(URI publicUrl, Duration timeout, TokenListener listener, Clock clock,
            java.util.function.Supplier<TokenStore> store) {
        this(publicUrl, timeout, listener, clock, store, null);
    }

    /** @param replica this replica's id in a cluster (it begins every connect state), or null */
    public UpstreamAuthorizers(URI publicUrl, Duration timeout, TokenListener listener, Clock clock,
            java.util.function.Supplier<TokenStore> store, String replica) {
        this.storeSource = store;
        AuthHttp http = new AuthHttp(timeout);
        this.discovery = new Discovery(http);
        this.registration = new ClientRegistration(http, publicUrl);
        this.tokenEndpoint = new TokenEndpoint(http, clock);
        this.identityAssertions = new IdentityAssertionExchange(http);
        this.states = new ConnectStates(clock, Duration.ofMinutes(10), replica);
        this.listener = listener;
        this.clock = clock;
    }

    /** The client of an upstream with this block and URL (the same one while neither changes). */
    public UpstreamAuthorizer of(OAuthSettings settings, URI url) {
        String key = settings.label();
        return byUpstream.compute(key, (k, old) -> old != null && old.settings().equals(settings)
                && url.equals(urls.get(k)) ? old : create(k, settings, url));
    }

    private synchronized TokenStore store() {
        if (store == null) {
            store = storeSource.get();
        }
        return store;
    }

    private UpstreamAuthorizer create(String key, OAuthSettings settings, URI url) {
        urls.put(key, url);
        TokenStore store = store();
        return new UpstreamAuthorizer(settings, url, discovery, registration, tokenEndpoint, identityAssertions, states,
                listener, clock, store);
    }

    /** The client of a tenant's upstream, or null when no loaded file gives it an {@code oauth} block. */
    public UpstreamAuthorizer find(String tenant, String upstream) {
        return byUpstream.get(tenant + "/" + upstream);
    }

    /** Takes a redirect's state once (null: unknown, used or expired). */
    public ConnectStates.Pending take(String state) {
        return states.take(state);
    }

    public ClientRegistration registration() {
        return registration;
    }
}
