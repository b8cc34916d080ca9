package dev.cloakgate.auth;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.jboss.logging.Logger;

/**
 * Every tenant's {@link TenantAuth}, kept in step with the tenant files: one is set up per tenant file content
 * (its digest), so a tenant file that changed gets new credentials on its next request, while {@link #install}
 * lets whoever loads a file set them up ahead (reading files, fetching JWKS URLs) off the request path. A thread
 * of its own refreshes token files and key sets.
 */
public final class AuthRegistry implements TenantAccess, AutoCloseable {
    private static final Logger LOG = Logger.getLogger(AuthRegistry.class);
    /** How often token files and JWKS files are re-read, and JWKS URLs checked for being due. */
    static final long REFRESH_SECONDS = 10;

    /** What a tenant's credentials are set up from: its name, its file's digest and its {@code auth} block. */
    public record Source(String tenant, String digest, AuthSettings settings) {
    }

    private record Installed(String digest, TenantAuth auth) {
    }

    private final Function<String, Optional<Source>> tenants;
    private final ConcurrentHashMap<String, Installed> installed = new ConcurrentHashMap<>();
    /**
     * Per tenant, the version {@link #install} replaced (issue 10, live tenant configuration): a reload installs the
     * new credentials just before the new file serves, and a request in between still holds the old file. Kept,
     * it is found instead of set up again (which would replace the new one and leave its JWKS URLs unfetched).
     */
    private final ConcurrentHashMap<String, Installed> replaced = new ConcurrentHashMap<>();
    private final ScheduledExecutorService thread;
    /** Issue 16: the gateway's normalised public URL (names OAuth tenants' resources), or null. */
    private final String publicUrl;
    /** Issue 16: per tenant, the keyed digest that names its OAuth subjects (HMAC under the tenant's secret). */
    private final Function<String, java.util.function.UnaryOperator<String>> subjectDigests;

    /** @param tenants the current tenant of a name (its file may change while the gateway runs) */
    public AuthRegistry(Function<String, Optional<Source>> tenants) {
        this(tenants, null, t -> null);
    }

    /**
     * @param tenants the current tenant of a name (its file may change while the gateway runs)
     * @param publicUrl the gateway's normalised public URL, or null when not configured (issue 16)
     * @param subjectDigests per tenant, the keyed digest naming its OAuth subjects (issue 16)
     */
    public AuthRegistry(Function<String, Optional<Source>> tenants, String publicUrl,
            Function<String, java.util.function.UnaryOperator<String>> subjectDigests) {
        this.tenants = tenants;
        this.publicUrl = publicUrl;
        this.subjectDigests = subjectDigests;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cloakgate-auth");
            t.setDaemon(true);
            return t;
        });
        thread.scheduleWithFixedDelay(this::refreshAll, REFRESH_SECONDS, REFRESH_SECONDS, TimeUnit.SECONDS);
    }

    /**
     * Sets up (reading token and JWKS files, fetching JWKS URLs with their timeout) and installs a tenant's
     * credentials, replacing those of an older file. Logs what the tenant accepts; a tenant that asks agents for
     * no credential gets a warning, at every start.
     */
    public TenantAuth install(Source source) throws AuthSetupException {
        TenantAuth auth = TenantAuth.create(source.tenant(), source.settings(), thread, true, System::nanoTime, publicUrl,
                subjectDigest(source));
        synchronized (this) {
            Installed old = installed.put(source.tenant(), new Installed(source.digest(), auth));
            Installed older = old == null ? replaced.remove(source.tenant()) : replaced.put(source.tenant(), old);
            if (older != null) {
                older.auth().close();
            }
        }
        announce(auth);
        return auth;
    }

    /** The credentials for this version of the tenant; set up now (without waiting for a URL) if not yet. */
    public TenantAuth forTenant(Source source) {
        Installed i = installed.get(source.tenant());
        if (i != null && i.digest().equals(source.digest())) {
            return i.auth();
        }
        synchronized (this) {
            i = installed.get(source.tenant());
            if (i != null && i.digest().equals(source.digest())) {
                return i.auth();
            }
            Installed r = replaced.get(source.tenant());
            if (r != null && r.digest().equals(source.digest())) {
                return r.auth(); // a request that raced a reload
            }
            TenantAuth auth;
            try {
                auth = TenantAuth.create(source.tenant(), source.settings(), thread, false, System::nanoTime, publicUrl,
                        subjectDigest(source));
                // its URLs are fetched on the auth thread; its JWTs are refused until then
                thread.execute(auth::refresh);
            } catch (AuthSetupException e) {
                // fail closed: a tenant whose credentials cannot be read admits nobody until its file is fixed
                LOG.errorf("auth: tenant %s: %s: %s; every credential is refused", source.tenant(), e.path(), e.getMessage());
                auth = refusingAll(source);
            }
            put(source, auth);
            announce(auth);
            return auth;
        }
    }

    @Override
    public Access check(String tenant, String authorization, Role role) {
        Optional<Source> source = tenant == null ? Optional.empty() : tenants.apply(tenant);
        return source.isEmpty() ? unknownTenant(authorization) : check(source.get(), authorization, role);
    }

    /**
     * The answer for a tenant that does not exist (issue 15): it has no principal, so every credential is a bad one,
     * refused exactly as a known tenant refuses a missing or wrong credential. A caller who cannot authenticate then
     * cannot tell which tenants exist, or which have principals of a role. The token is hashed as a static-token
     * lookup hashes it, so the refusal costs what a known tenant's refusal of a static token costs.
     */
    public static Access.Refused unknownTenant(String authorization) {
        String token = TenantAuth.bearer(authorization);
        if (token == null) {
            return Access.Refused.unauthenticated(AuthFailure.MISSING_CREDENTIAL);
        }
        StaticTokens.sha256(token);
        return Access.Refused.unauthenticated(AuthFailure.UNKNOWN_TOKEN);
    }

    /** As {@link #check(String, String, Role)}, for a caller that already holds the tenant's current source. */
    public Access check(Source source, String authorization, Role role) {
        TenantAuth auth = forTenant(source);
        if (role == Role.AGENT && auth.open()) {
            return new Access.Granted(Principal.anonymous(source.tenant()));
        }
        Authentication a = auth.authenticate(authorization);
        if (a instanceof Authentication.Rejected r) {
            return Access.Refused.unauthenticated(r.failure(), auth.resource(), role);
        }
        Authentication.Authenticated ok = (Authentication.Authenticated) a;
        Principal p = ok.principal();
        if (p.has(role)) {
            return new Access.Granted(p);
        }
        // issue 16: an OAuth subject lacks the scope of a role OAuth grants; any other lack is the role's
        return ok.oauth() && auth.resource().scope(role) != null ? Access.Refused.insufficientScope(role, auth.resource())
                : Access.Refused.forbidden(role);
    }

    /** Issue 16: the tenant's subject digest, asked for only when it is an OAuth tenant. */
    private java.util.function.UnaryOperator<String> subjectDigest(Source source) {
        return source.settings().oauth() == null ? null : subjectDigests.apply(source.tenant());
    }

    /**
     * Issue 16: the protected resource of this tenant, when it is an OAuth tenant; empty for any other tenant and for
     * one that does not exist, alike (the metadata names only what an OAuth tenant publishes by design).
     */
    public Optional<ProtectedResource> resource(String tenant) {
        Optional<Source> source = tenant == null ? Optional.empty() : tenants.apply(tenant);
        return source.map(s -> forTenant(s).resource());
    }

    private void put(Source source, TenantAuth auth) {
        Installed old = installed.put(source.tenant(), new Installed(source.digest(), auth));
        if (old != null && old.auth() != auth) {
            old.auth().close();
        }
    }

    private static void announce(TenantAuth auth) {
        AuthSettings s = auth.settings();
        if (s.open()) {
            LOG.warnf("auth: tenant %s asks agents for no credential (\"auth\": {\"mode\": \"none\"}): anyone who reaches"
                    + " this port can use its upstreams and their credentials", auth.tenant());
        }
        LOG.infof("auth: tenant %s: %d principal(s), %d JWT issuer(s)%s%s", auth.tenant(), s.principals().size(),
                s.issuers().size(), auth.resource() == null ? "" : ", OAuth resource " + auth.resource().resource() + " ("
                        + s.oauth().servers().size() + " authorization server(s))",
                auth.issuersWithoutKeys().isEmpty() ? ""
                        : "; no keys yet for " + String.join(", ", auth.issuersWithoutKeys()) + " (their JWTs are refused until fetched)");
    }

    private static TenantAuth refusingAll(Source source) {
        try {
            return TenantAuth.create(source.tenant(), new AuthSettings(false, Map.of(), Map.of(), PrincipalLimits.NONE),
                    Runnable::run, false, System::nanoTime, null);
        } catch (AuthSetupException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    private void refreshAll() {
        for (Installed i : installed.values()) {
            try {
                i.auth().refresh();
            } catch (RuntimeException e) {
                LOG.warnf("auth: tenant %s: refresh failed (%s)", i.auth().tenant(), e.getClass().getSimpleName());
            }
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
        installed.values().forEach(i -> i.auth().close());
        replaced.values().forEach(i -> i.auth().close());
    }
}
