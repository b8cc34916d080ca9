package dev.cloakgate.upstream;

import java.net.ConnectException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

import dev.cloakgate.tenant.UpstreamConfig;
import dev.cloakgate.upstream.oauth.OAuthFailure;
import dev.cloakgate.upstream.oauth.UpstreamAuthorizer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

/**
 * What both HTTP transports (streamable HTTP, and the older HTTP+SSE) send with every request, and how their
 * transport failures read. Every request goes to the origin of the configured URL: its scheme, host and port are
 * set here from the tenant file, never from anything the upstream sent.
 */
final class HttpBasics {
    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(HttpBasics.class);

    private final UpstreamConfig.Http config;
    private final HttpLink.Timeouts timeouts;
    private final Oversized oversized;
    /** The upstream's OAuth client (issue 16), or null: static headers only. */
    private final UpstreamAuthorizer auth;

    HttpBasics(UpstreamConfig.Http config, HttpLink.Timeouts timeouts, Oversized oversized, UpstreamAuthorizer auth) {
        this.config = config;
        this.timeouts = timeouts;
        this.oversized = oversized;
        this.auth = auth;
    }

    /** A request to the configured URL, with the tenant's headers; {@code idle} null for a long-lived stream. */
    RequestOptions options(HttpMethod method, Duration idle) {
        return headers(new RequestOptions().setMethod(method).setAbsoluteURI(config.url().toString()), idle);
    }

    /** A request to another path (and query) of the configured URL's origin. */
    RequestOptions options(HttpMethod method, String pathAndQuery, Duration idle) {
        URI url = config.url();
        boolean tls = "https".equalsIgnoreCase(url.getScheme());
        String host = url.getHost();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return headers(new RequestOptions().setMethod(method).setSsl(tls).setHost(host).setPort(port(url))
                .setURI(pathAndQuery), idle);
    }

    /** The URL's port, or its scheme's default. */
    static int port(URI url) {
        return url.getPort() >= 0 ? url.getPort() : "https".equalsIgnoreCase(url.getScheme()) ? 443 : 80;
    }

    private RequestOptions headers(RequestOptions o, Duration idle) {
        o.setConnectTimeout(timeouts.connect().toMillis());
        if (idle != null) {
            o.setIdleTimeout(idle.toMillis());
        }
        for (Map.Entry<String, String> h : config.headers().entrySet()) {
            o.putHeader(h.getKey(), h.getValue());
        }
        String bearer = auth == null ? null : auth.bearer();
        if (bearer != null) {
            o.putHeader("Authorization", "Bearer " + bearer);
        }
        return o;
    }

    /** The OAuth client could not get a token: the error a caller gets, under the failure's stable code. */
    UpstreamException authFailure(OAuthFailure f) {
        return new UpstreamException(config.name(), UpstreamException.Reason.valueOf(f.code().name()), f.getMessage());
    }

    /** A transport failure as the error a caller gets: which of unreachable, silent or over the limit it was. */
    UpstreamException failure(Throwable t) {
        if (t instanceof UpstreamException u) {
            return u;
        }
        String type = t.getClass().getName();
        String message = t.getMessage() == null ? "" : t.getMessage();
        if (type.contains("ConnectTimeout")) {
            return new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_UNAVAILABLE,
                    "did not accept a connection within " + timeouts.connect().toMillis() + " ms");
        }
        if (t instanceof ConnectException) {
            return new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_UNAVAILABLE,
                    "is unreachable (connection refused)");
        }
        if (type.contains("Timeout") || message.contains("timeout period")) {
            return new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_TIMEOUT,
                    "sent nothing for " + timeouts.read().toMillis() + " ms");
        }
        if (t instanceof HttpLink.BodyTooLarge big) {
            return oversized.error(big.bytes);
        }
        // an unexpected kind of failure: its trace (no payload: Vert.x and JDK exceptions) for whoever debugs it
        LOG.debugf(t, "upstream %s: connection failed", config.name());
        return new UpstreamException(config.name(), UpstreamException.Reason.UPSTREAM_UNAVAILABLE,
                "connection failed (" + t.getClass().getSimpleName() + ")");
    }
}
