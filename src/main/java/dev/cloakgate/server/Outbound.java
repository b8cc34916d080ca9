package dev.cloakgate.server;

import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * The front's account of bytes written to clients and not taken by them yet (Netty holds them off-heap until
 * the client reads), with the limits each connection must keep to. Exposed as {@code cloakgate_http_queued_bytes};
 * connections ended for falling behind count in {@code cloakgate_http_streams_ended_total{reason}}.
 */
@ApplicationScoped
public class Outbound {
    private final AtomicLong queued = new AtomicLong();
    private final MeterRegistry metrics;
    private final long maxPerConnection;
    private final long stallMillis;

    public Outbound(GatewayConfig config, MeterRegistry metrics) {
        this.metrics = metrics;
        this.maxPerConnection = config.http().maxQueuedBytes();
        this.stallMillis = Math.max(1, config.http().writeStallTimeout().toMillis());
        metrics.gauge("cloakgate.http.queued.bytes", queued);
        // issue 10, metrics: both reasons exist from the start at 0
        metrics.counter("cloakgate.http.streams.ended", "reason", "backlog");
        metrics.counter("cloakgate.http.streams.ended", "reason", "stalled");
    }

    void queued(long bytes) {
        queued.addAndGet(bytes);
    }

    void taken(long bytes) {
        queued.addAndGet(-bytes);
    }

    /** A connection was ended for falling behind; {@code reason} is {@code backlog} or {@code stalled}. */
    void ended(String reason) {
        metrics.counter("cloakgate.http.streams.ended", "reason", reason).increment();
    }

    long maxPerConnection() {
        return maxPerConnection;
    }

    long stallMillis() {
        return stallMillis;
    }
}
