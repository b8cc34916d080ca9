package dev.cloakgate.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * One tenant's credentials: its principals, the digests of their static tokens, and the issuers whose JWTs it
 * trusts. {@link #authenticate} is what every request of the tenant goes through: it hashes a static token once, or
 * verifies a JWT against keys already in memory, and never blocks on a file or the network. {@link #refresh} (on
 * the gateway's auth thread) re-reads token files and JWKS files and fetches JWKS URLs when due.
 *
 * <p>Nothing here logs or keeps a credential: the log gets the tenant, the principal's name (configuration) and the
 * reason code.
 */
public final class TenantAuth implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(TenantAuth.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** RFC 6750 b64token. */
    private static final Pattern B64TOKEN = Pattern.compile("[A-Za-z0-9\\-._~+/]+=*");
    /** An issuer whose key ids do not match is fetched again, but not more often than this. */
    static final long EARLY_FETCH_NANOS = 30_000_000_000L;
    /** After a failed fetch the next one is tried this soon (or at the refresh interval, if shorter). */
    static final long RETRY_NANOS = 30_000_000_000L;

    private final String tenant;
    private final AuthSettings settings;
    private final Map<String, Principal> principals = new LinkedHashMap<>();
    private final Map<String, Principal> bySubject = new LinkedHashMap<>();
    private final List<TokenFile> tokenFiles = new ArrayList<>();
    private final List<StaticTokens.Entry> fixed = new ArrayList<>();
    private final Map<String, Issuer> byIss = new LinkedHashMap<>();
    private final Executor background;
    private final LongSupplier nanos;
    private volatile StaticTokens statics = StaticTokens.NONE;
    private volatile boolean closed;
    /** Issue 16: the tenant as an OAuth protected resource, or null. */
    private ProtectedResource resource;
    /** Issue 16: a keyed digest (the tenant's secret) that names a subject without revealing it; null without OAuth. */
    private java.util.function.UnaryOperator<String> subjectDigest;

    /** A principal's token file and the digest of what it held when last read (null: unreadable or empty). */
    private static final class TokenFile {
        final Principal owner;
        final java.nio.file.Path file;
        final String path;
        volatile byte[] digest;

        TokenFile(Principal owner, java.nio.file.Path file, String path) {
            this.owner = owner;
            this.file = file;
            this.path = path;
        }
    }

    /** An issuer, where its keys come from, and when they are next fetched. */
    private static final class Issuer {
        final JwtIssuer jwt;
        final JwksSource source;
        final String path;
        /** An OAuth authorization server of the tenant (issue 16): any subject, roles from the token's scopes. */
        final boolean oauth;
        final AtomicBoolean fetching = new AtomicBoolean();
        volatile long nextFetch;
        volatile long lastAttempt = Long.MIN_VALUE / 2;
        volatile boolean failing;

        Issuer(JwtIssuer jwt, JwksSource source, String path, boolean oauth) {
            this.jwt = jwt;
            this.source = source;
            this.path = path;
            this.oauth = oauth;
        }

        /** Where the keys come from, for the log. */
        String keysFrom() {
            AuthSettings.IssuerSettings s = jwt.settings();
            return s.jwksUrl() != null ? s.jwksUrl().toString() : "the metadata of " + s.issuer();
        }
    }

    private TenantAuth(String tenant, AuthSettings settings, Executor background, LongSupplier nanos) {
        this.tenant = tenant;
        this.settings = settings;
        this.background = background;
        this.nanos = nanos;
    }

    /**
     * Sets up a tenant's credentials: reads its token files and JWKS files (an unreadable one stops the tenant,
     * naming the key), and fetches JWKS URLs if {@code fetchNow} (a URL that does not answer only delays JWTs: they
     * are refused, as {@code jwks_unavailable}, until a background fetch succeeds).
     *
     * @param background where early fetches run (an unknown key id), never the caller's thread
     * @param publicUrl the gateway's normalised public URL, which names an OAuth tenant's resource (issue 16); null
     *        when it is not configured (an OAuth tenant is then refused)
     */
    public static TenantAuth create(String tenant, AuthSettings settings, Executor background, boolean fetchNow,
            LongSupplier nanos, String publicUrl) throws AuthSetupException {
        return create(tenant, settings, background, fetchNow, nanos, publicUrl, null);
    }

    /**
     * As above, for a tenant that may be an OAuth resource.
     *
     * @param subjectDigest a keyed digest (HMAC under the tenant's secret) naming an OAuth subject: a plain hash of an
     *        e-mail address is reversed by guessing, so an OAuth tenant without one is refused
     */
    public static TenantAuth create(String tenant, AuthSettings settings, Executor background, boolean fetchNow,
            LongSupplier nanos, String publicUrl, java.util.function.UnaryOperator<String> subjectDigest)
            throws AuthSetupException {
        TenantAuth a = new TenantAuth(tenant, settings, background, nanos);
        a.subjectDigest = subjectDigest;
        for (AuthSettings.PrincipalSettings ps : settings.principals().values()) {
            Principal p = new Principal(tenant, ps.name(), ps.roles(), ps.tools(), ps.limits());
            a.principals.put(p.name(), p);
            String pp = "$.auth.principals." + p.name();
            for (String hex : ps.tokenSha256()) {
                a.fixed.add(new StaticTokens.Entry(java.util.HexFormat.of().parseHex(hex), p));
            }
            if (ps.tokenFile() != null) {
                TokenFile tf = new TokenFile(p, ps.tokenFile(), pp + ".token_file");
                tf.digest = readToken(tf);
                if (tf.digest == null) {
                    throw new AuthSetupException(tf.path, "cannot read a token from " + ps.tokenFile()
                            + " (the file must exist and hold the token)");
                }
                a.tokenFiles.add(tf);
            }
            if (ps.jwt() != null) {
                a.bySubject.put(subjectKey(ps.jwt().issuer(), ps.jwt().subject()), p);
            }
        }
        java.util.List<Map.Entry<String, AuthSettings.IssuerSettings>> all = new ArrayList<>();
        settings.issuers().values().forEach(is -> all.add(Map.entry("$.auth.jwt_issuers." + is.name(), is)));
        if (settings.oauth() != null) {
            if (publicUrl == null) {
                throw new AuthSetupException("$.auth.oauth", "public_url_required: the tenant's OAuth resource is"
                        + " <public-url>/t/" + tenant + "/mcp; set cloakgate.public-url (CLOAKGATE_PUBLIC_URL) to the"
                        + " gateway's external base URL");
            }
            if (subjectDigest == null) {
                throw new AuthSetupException("$.auth.oauth", "the tenant's secret, which names OAuth subjects, is not available");
            }
            a.resource = ProtectedResource.of(publicUrl, tenant, settings.oauth());
            // a token is for this tenant's resource or for nothing here (RFC 8707): exactly that string in aud
            settings.oauth().servers().values().forEach(is -> all.add(Map.entry("$.auth.oauth.authorization_servers."
                    + is.name(), is.forAudiences(java.util.List.of(a.resource.resource())))));
        }
        for (Map.Entry<String, AuthSettings.IssuerSettings> entry : all) {
            AuthSettings.IssuerSettings is = entry.getValue();
            String ip = entry.getKey();
            JwksSource source;
            try {
                source = JwksSource.of(is);
            } catch (IOException | GeneralSecurityException e) {
                throw new AuthSetupException(ip + ".jwks_ca_file", "cannot use the CA certificates: " + e.getClass().getSimpleName());
            }
            Issuer issuer = new Issuer(new JwtIssuer(is), source, ip, !ip.startsWith("$.auth.jwt_issuers."));
            a.byIss.put(is.issuer(), issuer);
            if (!source.remote()) {
                try {
                    issuer.jwt.accept(source.read());
                } catch (IOException | IllegalArgumentException e) {
                    throw new AuthSetupException(ip + ".jwks_file", "cannot use " + is.jwksFile() + ": " + problem(e));
                }
            } else if (fetchNow) {
                a.fetch(issuer);
            }
        }
        a.rebuildStatics();
        return a;
    }

    public String tenant() {
        return tenant;
    }

    public AuthSettings settings() {
        return settings;
    }

    /** Issue 16: the tenant as an OAuth protected resource, or null when it is not one. */
    public ProtectedResource resource() {
        return resource;
    }

    /** Anyone reaches the MCP endpoint as an agent ({@code "mode": "none"}). */
    public boolean open() {
        return settings.open();
    }

    /**
     * Who presents this {@code Authorization} header. A static token is hashed and compared with every digest of
     * the tenant; a JWT is routed by its (unverified) {@code iss} to one of the tenant's issuers and verified there.
     */
    public Authentication authenticate(String authorization) {
        String token = bearer(authorization);
        if (token == null) {
            return new Authentication.Rejected(AuthFailure.MISSING_CREDENTIAL);
        }
        if (!B64TOKEN.matcher(token).matches()) {
            return new Authentication.Rejected(AuthFailure.UNKNOWN_TOKEN);
        }
        Principal p = statics.match(StaticTokens.sha256(token));
        if (p != null) {
            return new Authentication.Authenticated(p);
        }
        if (byIss.isEmpty()) {
            return new Authentication.Rejected(AuthFailure.UNKNOWN_TOKEN);
        }
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3) {
            return new Authentication.Rejected(AuthFailure.UNKNOWN_TOKEN);
        }
        JsonNode header = decode(parts[0]);
        JsonNode claims = decode(parts[1]);
        if (header == null || claims == null) {
            return new Authentication.Rejected(AuthFailure.MALFORMED_JWT);
        }
        if (!header.path("alg").isTextual() || !JwtIssuer.ALGORITHM_NAMES.contains(header.path("alg").textValue())) {
            return new Authentication.Rejected(AuthFailure.ALGORITHM_REFUSED);
        }
        Issuer issuer = claims.path("iss").isTextual() ? byIss.get(claims.path("iss").textValue()) : null;
        if (issuer == null) {
            return new Authentication.Rejected(AuthFailure.ISSUER_UNTRUSTED);
        }
        JwtIssuer.Outcome outcome = issuer.jwt.verify(token);
        if (outcome instanceof JwtIssuer.Outcome.Failed f) {
            if (f.failure() == AuthFailure.KEY_UNKNOWN || f.failure() == AuthFailure.JWKS_UNAVAILABLE) {
                // the issuer may have rotated its keys: look again soon, off this thread
                fetchSoon(issuer);
            }
            return new Authentication.Rejected(f.failure());
        }
        JwtIssuer.Outcome.Verified verified = (JwtIssuer.Outcome.Verified) outcome;
        String subject = verified.subject();
        if (issuer.oauth) {
            return new Authentication.Authenticated(oauthPrincipal(issuer.jwt.settings().issuer(), subject,
                    verified.scopes()), true);
        }
        Principal owner = bySubject.get(subjectKey(issuer.jwt.settings().name(), subject));
        return owner == null ? new Authentication.Rejected(AuthFailure.UNKNOWN_SUBJECT)
                : new Authentication.Authenticated(owner);
    }

    /**
     * Issue 16: the principal an OAuth subject is here: the template's name and a keyed digest of issuer and subject
     * (never the subject, often an e-mail address, which must not reach a log, a metric or the ledger; nor its plain
     * hash, reversed by guessing), so each subject is metered and bound to its sessions apart; its roles are those
     * whose scopes the token carries.
     */
    private Principal oauthPrincipal(String iss, String subject, java.util.Set<String> scopes) {
        AuthSettings.OAuthSettings o = settings.oauth();
        java.util.Set<Role> roles = java.util.EnumSet.noneOf(Role.class);
        for (Role r : o.roleScopes().keySet()) {
            if (resource.grants(r, scopes)) {
                roles.add(r);
            }
        }
        String digest = subjectDigest.apply("oauth-subject:" + subjectKey(iss, subject)).substring(0, 24);
        return new Principal(tenant, o.principal() + Principal.SUBJECT_SEPARATOR + digest, roles, o.tools(), o.limits());
    }

    /** Re-reads token files and JWKS files, and fetches JWKS URLs that are due. Runs on the gateway's auth thread. */
    public void refresh() {
        if (closed) {
            return;
        }
        boolean changed = false;
        for (TokenFile tf : tokenFiles) {
            byte[] now = readToken(tf);
            if (!java.util.Arrays.equals(now, tf.digest)) {
                if (now == null) {
                    LOG.warnf("auth: tenant %s: principal %s's token file %s can no longer be read; that token is refused",
                            tenant, tf.owner.name(), tf.file);
                } else {
                    LOG.infof("auth: tenant %s: principal %s's token file changed; the new token is in use", tenant,
                            tf.owner.name());
                }
                tf.digest = now;
                changed = true;
            }
        }
        if (changed) {
            rebuildStatics();
        }
        long now = nanos.getAsLong();
        for (Issuer issuer : byIss.values()) {
            if (!issuer.source.remote()) {
                try {
                    if (issuer.jwt.accept(issuer.source.read())) {
                        LOG.infof("auth: tenant %s: issuer %s's JWKS file changed (%d key(s))", tenant,
                                issuer.jwt.settings().name(), issuer.jwt.keyCount());
                    }
                    issuer.failing = false;
                } catch (IOException | IllegalArgumentException e) {
                    if (!issuer.failing) {
                        LOG.warnf("auth: tenant %s: issuer %s's JWKS file %s cannot be used (%s); the keys read before stay",
                                tenant, issuer.jwt.settings().name(), issuer.jwt.settings().jwksFile(), problem(e));
                    }
                    issuer.failing = true;
                }
            } else if (now - issuer.nextFetch >= 0) {
                fetch(issuer);
            }
        }
    }

    /** Whether every issuer has keys (a JWT can be verified); for the start log. */
    public List<String> issuersWithoutKeys() {
        List<String> out = new ArrayList<>();
        byIss.values().forEach(i -> {
            if (!i.jwt.loaded()) {
                out.add(i.jwt.settings().name());
            }
        });
        return out;
    }

    private void fetchSoon(Issuer issuer) {
        if (!issuer.source.remote() || nanos.getAsLong() - issuer.lastAttempt < EARLY_FETCH_NANOS || closed) {
            return;
        }
        background.execute(() -> {
            if (nanos.getAsLong() - issuer.lastAttempt >= EARLY_FETCH_NANOS) {
                fetch(issuer);
            }
        });
    }

    /** One fetch of an issuer's JWKS URL; at most one at a time per issuer. */
    private void fetch(Issuer issuer) {
        if (!issuer.fetching.compareAndSet(false, true)) {
            return;
        }
        AuthSettings.IssuerSettings s = issuer.jwt.settings();
        long start = nanos.getAsLong();
        issuer.lastAttempt = start;
        try {
            boolean changed = issuer.jwt.accept(issuer.source.read());
            issuer.nextFetch = start + s.refresh().toNanos();
            if (changed || issuer.failing) {
                LOG.infof("auth: tenant %s: issuer %s: %d key(s) from %s", tenant, s.name(), issuer.jwt.keyCount(), issuer.keysFrom());
            }
            issuer.failing = false;
        } catch (IOException | RuntimeException e) {
            issuer.nextFetch = start + Math.min(RETRY_NANOS, s.refresh().toNanos());
            LOG.warnf("auth: tenant %s: issuer %s: fetching %s failed (%s); %s", tenant, s.name(), issuer.keysFrom(), problem(e),
                    issuer.jwt.loaded() ? "the keys fetched before stay in use" : "its JWTs are refused until a fetch succeeds");
            issuer.failing = true;
        } finally {
            issuer.fetching.set(false);
        }
    }

    private void rebuildStatics() {
        List<StaticTokens.Entry> all = new ArrayList<>(fixed);
        for (TokenFile tf : tokenFiles) {
            if (tf.digest != null) {
                all.add(new StaticTokens.Entry(tf.digest, tf.owner));
            }
        }
        statics = new StaticTokens(all);
    }

    /** The digest of a token file's content (trimmed), or null when it cannot be read or is empty. */
    private static byte[] readToken(TokenFile tf) {
        try {
            if (Files.size(tf.file) > 16384) {
                return null;
            }
            String token = Files.readString(tf.file, StandardCharsets.UTF_8).strip();
            return token.isEmpty() ? null : StaticTokens.sha256(token);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The credential of an {@code Authorization: Bearer} header, or null when there is none. */
    static String bearer(String header) {
        if (header == null || header.length() < 7 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String token = header.substring(7).strip();
        return token.isEmpty() ? null : token;
    }

    private static JsonNode decode(String part) {
        try {
            JsonNode n = JSON.readTree(Base64.getUrlDecoder().decode(part));
            return n != null && n.isObject() ? n : null;
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
    }

    private static String subjectKey(String issuer, String subject) {
        return issuer + "\u0000" + subject;
    }

    /** What went wrong, without an exception's text (which may quote what was read). */
    private static String problem(Exception e) {
        if (e instanceof IllegalArgumentException && e.getMessage() != null) {
            return e.getMessage();
        }
        if (e instanceof java.net.http.HttpTimeoutException) {
            return "timed out";
        }
        if (e instanceof IOException && e.getMessage() != null
                && (e.getMessage().startsWith("HTTP ") || e.getMessage().startsWith("larger than"))) {
            return e.getMessage();
        }
        return e.getClass().getSimpleName();
    }

    @Override
    public void close() {
        closed = true;
    }

    Map<String, Principal> principals() {
        return principals;
    }
}
