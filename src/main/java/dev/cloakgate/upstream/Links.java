package dev.cloakgate.upstream;

import java.util.concurrent.Executor;

import dev.cloakgate.jsonrpc.JsonCodec;
import dev.cloakgate.tenant.UpstreamConfig;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;

/** Creates the link each upstream's transport needs, sharing the HTTP client, timers and writer threads. */
public final class Links implements LinkFactory {
    private final JsonCodec codec;
    private final Vertx vertx;
    private final HttpClient http;
    private final Executor writers;
    private final HttpLink.Timeouts timeouts;
    private final MessageLanes lanes;
    /** Issue 16: the OAuth clients of upstreams with an {@code oauth} block (null: none configured anywhere). */
    private final dev.cloakgate.upstream.oauth.UpstreamAuthorizers authorizers;

    /**
     * @param maxConnections upper bound on pooled HTTP connections per upstream host: each session's GET
     *        stream holds one for its lifetime, so this must exceed the sessions an upstream serves
     * @param lanes where the links' messages are parsed and passed on
     */
    public Links(JsonCodec codec, Vertx vertx, Executor writers, HttpLink.Timeouts timeouts, int maxConnections,
            MessageLanes lanes) {
        this(codec, vertx, writers, timeouts, maxConnections, lanes, null);
    }

    public Links(JsonCodec codec, Vertx vertx, Executor writers, HttpLink.Timeouts timeouts, int maxConnections,
            MessageLanes lanes, dev.cloakgate.upstream.oauth.UpstreamAuthorizers authorizers) {
        this.authorizers = authorizers;
        this.codec = codec;
        this.vertx = vertx;
        this.writers = writers;
        this.timeouts = timeouts;
        this.lanes = lanes;
        this.http = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true)
                .setConnectTimeout((int) timeouts.connect().toMillis()),
                new PoolOptions().setHttp1MaxSize(maxConnections).setMaxWaitQueueSize(-1));
    }

    @Override
    public UpstreamLink create(UpstreamConfig config, String label, MessageLimit limit, UpstreamLink.Inbound inbound) {
        if (config instanceof UpstreamConfig.Stdio s) {
            return new StdioLink(s, label, codec, inbound, new SerialExecutor(writers), limit, lanes);
        }
        UpstreamConfig.Http h = (UpstreamConfig.Http) config;
        if (h.transport() == UpstreamConfig.HttpTransport.SSE) {
            return new SseLink(h, label, http, codec, inbound, timeouts, limit, lanes);
        }
        if (h.oauth() != null && authorizers != null) {
            return new HttpLink(h, label, http, vertx, codec, inbound, timeouts, limit, lanes,
                    authorizers.of(h.oauth(), h.url()), writers);
        }
        return new HttpLink(h, label, http, vertx, codec, inbound, timeouts, limit, lanes);
    }
}
