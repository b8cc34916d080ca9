package dev.cloakgate.session;

import java.time.Duration;

import dev.cloakgate.jsonrpc.JsonCodec;

/** Gateway-wide limits and timeouts (application properties; see README "Configuration"). */
public record GatewaySettings(
        String version,
        Duration initializeTimeout,
        Duration requestTimeout,
        Duration connectTimeout,
        Duration sessionIdleTimeout,
        Duration upstreamIdleTimeout,
        Duration backoffInitial,
        Duration backoffMax,
        int eventBufferEvents,
        long eventBufferBytes,
        JsonCodec.Limits clientLimits,
        JsonCodec.Limits upstreamLimits,
        int maxSessions,
        long maxQueuedBytes) {

    /** Defaults suitable for tests and the demo. */
    public static GatewaySettings defaults() {
        return new GatewaySettings("dev", Duration.ofSeconds(60), Duration.ofSeconds(120), Duration.ofSeconds(10),
                Duration.ofMinutes(30), Duration.ofMinutes(10), Duration.ofMillis(500), Duration.ofSeconds(30), 512,
                8L << 20, new JsonCodec.Limits(64, 8 << 20), new JsonCodec.Limits(256, 8 << 20), 10_000, 16L << 20);
    }
}
