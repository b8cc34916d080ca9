package dev.cloakgate.server;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import dev.cloakgate.jsonrpc.ErrorCodes;
import dev.cloakgate.jsonrpc.RpcError;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.quarkus.vertx.http.HttpServerStart;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.impl.VertxInternal;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.core.net.impl.TCPServerBase;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * What a client may hold of the HTTP front, and for how long: connections per address and overall (refused with
 * 503), the time to send a request's headers (see {@link ConnectionGuard}) and its body (408). Without these a
 * client that opens thousands of connections and sends a byte every few seconds holds the process's file
 * descriptors forever: an idle timeout never fires on a connection that is never idle.
 *
 * <p>Connections are guarded from their first byte by a handler on the listening socket's pipeline, which puts a
 * {@link ConnectionGuard} in front of every accepted connection. Quarkus gives no hook there, so the listening
 * channel is taken from Vert.x's server (an internal field, checked at startup); a connection that was accepted
 * before that (only during startup) is adopted when its first request arrives. Request bodies are timed by a
 * route ahead of every other, health and metrics included.
 */
@ApplicationScoped
public class HttpLimits {
    private static final Logger LOG = Logger.getLogger(HttpLimits.class);
    private static final String ACCEPT_HOOK = "cloakgate-accept-guard";

    private final Vertx vertx;
    private final MeterRegistry metrics;
    private final ConnectionLimits limits;
    private final long headerTimeoutMillis;
    private final long bodyTimeoutMillis;
    private final AcceptHook hook = new AcceptHook();
    private final byte[] fullAnswer;
    private final byte[] addressFullAnswer;
    private final byte[] headerTimeoutAnswer;
    private final Buffer bodyTimeoutBody;

    public HttpLimits(GatewayConfig config, Vertx vertx, MeterRegistry metrics) {
        GatewayConfig.Http http = config.http();
        this.vertx = vertx;
        this.metrics = metrics;
        this.limits = new ConnectionLimits(http.maxConnections(), http.maxConnectionsPerAddress());
        this.headerTimeoutMillis = Math.max(1, http.headerTimeout().toMillis());
        this.bodyTimeoutMillis = Math.max(1, http.bodyTimeout().toMillis());
        this.fullAnswer = ConnectionGuard.rawAnswer(503, "Service Unavailable", RpcError.of(ErrorCodes.INTERNAL_ERROR,
                "too_many_connections", "the gateway is at its connection limit (cloakgate.http.max-connections); "
                        + "retry later"), "Retry-After: 1\r\n");
        this.addressFullAnswer = ConnectionGuard.rawAnswer(503, "Service Unavailable", RpcError.of(
                ErrorCodes.INTERNAL_ERROR, "too_many_connections_per_address", "too many open connections from your "
                        + "address (cloakgate.http.max-connections-per-address); close idle ones or retry later"),
                "Retry-After: 1\r\n");
        this.headerTimeoutAnswer = ConnectionGuard.rawAnswer(408, "Request Timeout", ConnectionGuard.timeoutError(
                "header_timeout", "request headers not complete within " + headerTimeoutMillis
                        + " ms (cloakgate.http.header-timeout)"), "");
        this.bodyTimeoutBody = Buffer.buffer(ConnectionGuard.timeoutError("body_timeout", "request body not complete "
                + "within " + bodyTimeoutMillis + " ms of its headers (cloakgate.http.body-timeout)").toResponse(null)
                .toString());
        metrics.gauge("cloakgate.http.connections", limits, ConnectionLimits::open);
        // issue 10, metrics: every reason exists from the start at 0, so a rate() or an alert has a series to read
        for (String reason : java.util.List.of("too_many_connections", "too_many_connections_per_address",
                "header_timeout", "body_timeout")) {
            metrics.counter("cloakgate.http.refused", "reason", reason);
        }
    }

    // ---- connections: guarded from the listening socket ----

    /** The server is listening: put the accept hook on every listening channel Vert.x holds. */
    void listening(@Observes HttpServerStart started) {
        List<Channel> channels = listeningChannels();
        if (channels.isEmpty()) {
            LOG.warn("connection limits: no listening channel found; connections are guarded from their first request only");
        }
        // issue 10, management interface: probes and scrapes on the management port are not agents' connections; a
        // kubelet must reach /q/health while agents hold every connection the limits allow
        int management = org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getOptionalValue("quarkus.management.port", Integer.class).orElse(-1);
        channels.stream().filter(ch -> !(ch.localAddress() instanceof java.net.InetSocketAddress a && a.getPort() == management))
                .forEach(this::hookInto);
    }

    @SuppressWarnings("unchecked")
    private List<Channel> listeningChannels() {
        List<Channel> out = new ArrayList<>();
        if (!(vertx instanceof VertxInternal internal)) {
            return out;
        }
        try {
            Field bound = TCPServerBase.class.getDeclaredField("bindFuture");
            bound.setAccessible(true);
            Map<?, ? extends TCPServerBase> servers = internal.sharedHttpServers();
            synchronized (servers) {
                for (TCPServerBase server : servers.values()) {
                    Future<Channel> f = (Future<Channel>) bound.get(server);
                    if (f != null && f.succeeded() && f.result() != null) {
                        out.add(f.result());
                    }
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warnf("connection limits: cannot reach Vert.x's listening channel (%s)", e.toString());
        }
        return out;
    }

    private synchronized void hookInto(Channel listening) {
        if (listening.pipeline().get(ACCEPT_HOOK) == null) {
            listening.pipeline().addFirst(ACCEPT_HOOK, hook);
            LOG.debugf("connection limits on %s", listening.localAddress());
        }
    }

    /** Admits each accepted connection (or marks it refused) and puts its guard first in its pipeline. */
    @ChannelHandler.Sharable
    private final class AcceptHook extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Channel child) {
                ConnectionLimits.Client client = ConnectionLimits.clientOf(child.remoteAddress());
                ConnectionLimits.Admission a = limits.admit(client);
                if (a == ConnectionLimits.Admission.ADMITTED) {
                    child.closeFuture().addListener(f -> limits.release(client));
                }
                child.pipeline().addFirst(ConnectionGuard.NAME, new ConnectionGuard(HttpLimits.this, a));
            }
            ctx.fireChannelRead(msg);
        }
    }

    /** The guard of the connection a request came on, adopting a connection accepted before the hook was in. */
    private ConnectionGuard guardOf(HttpConnection connection) {
        if (!(connection instanceof ConnectionBase base)) {
            return null;
        }
        Channel ch = base.channel();
        ChannelHandler g = ch.pipeline().get(ConnectionGuard.NAME);
        if (g instanceof ConnectionGuard guard) {
            return guard;
        }
        if (ch.parent() != null) {
            hookInto(ch.parent());
        }
        ConnectionLimits.Client client = ConnectionLimits.clientOf(ch.remoteAddress());
        limits.adopt(client);
        ch.closeFuture().addListener(f -> limits.release(client));
        ConnectionGuard guard = new ConnectionGuard(this, ConnectionLimits.Admission.ADMITTED);
        ch.pipeline().addFirst(ConnectionGuard.NAME, guard);
        return guard;
    }

    // ---- requests: headers arrived, the body is timed ----

    void routes(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(this::requestArrived);
    }

    private void requestArrived(RoutingContext rc) {
        HttpServerRequest req = rc.request();
        ConnectionGuard guard = guardOf(req.connection());
        if (guard != null) {
            guard.requestStarted();
            rc.addEndHandler(ar -> guard.requestEnded());
        }
        if (!req.isEnded() && hasBody(req)) {
            long timer = vertx.setTimer(bodyTimeoutMillis, id -> bodyTimedOut(rc));
            req.end().onComplete(ar -> vertx.cancelTimer(timer));
        }
        rc.next();
    }

    /**
     * Whether the request sends a body to wait for. A request that declares none (a GET opening an event stream)
     * is not timed: its end may never be read if nobody resumes it, and it has nothing to dribble.
     */
    private static boolean hasBody(HttpServerRequest req) {
        String length = req.getHeader("Content-Length");
        if (length != null) {
            return !length.trim().equals("0");
        }
        if (req.getHeader("Transfer-Encoding") != null) {
            return true;
        }
        // HTTP/2 need not declare a body's length: judge by method
        return req.version() == HttpVersion.HTTP_2 && (req.method() == HttpMethod.POST || req.method() == HttpMethod.PUT
                || req.method() == HttpMethod.PATCH);
    }

    private void bodyTimedOut(RoutingContext rc) {
        HttpServerRequest req = rc.request();
        if (req.isEnded()) {
            return;
        }
        refused("body_timeout");
        HttpConnection connection = req.connection();
        HttpServerResponse resp = rc.response();
        if (resp.headWritten() || resp.ended() || resp.closed()) {
            // answered already (a refusal that did not wait for the body): the rest of it is not worth waiting for
            connection.close();
            return;
        }
        resp.setStatusCode(408).putHeader("Content-Type", "application/json").putHeader("Connection", "close")
                .end(bodyTimeoutBody).onComplete(ar -> connection.close());
    }

    // ---- shared with the guards ----

    void refused(String reason) {
        metrics.counter("cloakgate.http.refused", "reason", reason).increment();
    }

    long headerTimeoutMillis() {
        return headerTimeoutMillis;
    }

    byte[] fullAnswer() {
        return fullAnswer;
    }

    byte[] addressFullAnswer() {
        return addressFullAnswer;
    }

    byte[] headerTimeoutAnswer() {
        return headerTimeoutAnswer;
    }
}
