package dev.cloakgate.session;

import java.time.Duration;

import dev.cloakgate.jsonrpc.JsonCodec;

/**
 * Gateway-wide limits and timeouts (application properties; see README "Configuration").
 *
 * @param maxSessionsPerTenant sessions one tenant may hold unless its file says otherwise
 * @param maxStdioChildrenPerTenant stdio children one tenant's sessions may hold unless its file says otherwise
 * @param streamlessIdleTimeout a session with no open stream and no traffic for this long is ended
 *        ({@code sessionIdleTimeout} applies to one whose client keeps a stream open)
 */
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
        long maxQueuedBytes,
        int maxSessionsPerTenant,
        int maxStdioChildrenPerTenant,
        Duration streamlessIdleTimeout) {

    public static final int DEFAULT_MAX_SESSIONS_PER_TENANT = 1000;
    public static final int DEFAULT_MAX_STDIO_CHILDREN_PER_TENANT = 100;
    public static final Duration DEFAULT_STREAMLESS_IDLE_TIMEOUT = Duration.ofMinutes(5);

    /** With the default per-tenant limits and stream-less idle timeout. */
    public GatewaySettings(String version, Duration initializeTimeout, Duration requestTimeout, Duration connectTimeout,
            Duration sessionIdleTimeout, Duration upstreamIdleTimeout, Duration backoffInitial, Duration backoffMax,
            int eventBufferEvents, long eventBufferBytes, JsonCodec.Limits clientLimits, JsonCodec.Limits upstreamLimits,
            int maxSessions, long maxQueuedBytes) {
        this(version, initializeTimeout, requestTimeout, connectTimeout, sessionIdleTimeout, upstreamIdleTimeout,
                backoffInitial, backoffMax, eventBufferEvents, eventBufferBytes, clientLimits, upstreamLimits, maxSessions,
                maxQueuedBytes, DEFAULT_MAX_SESSIONS_PER_TENANT, DEFAULT_MAX_STDIO_CHILDREN_PER_TENANT,
                DEFAULT_STREAMLESS_IDLE_TIMEOUT);
    }

    /** Defaults suitable for tests and the demo. */
    public static GatewaySettings defaults() {
        return new GatewaySettings("dev", Duration.ofSeconds(60), Duration.ofSeconds(120), Duration.ofSeconds(10),
                Duration.ofMinutes(30), Duration.ofMinutes(10), Duration.ofMillis(500), Duration.ofSeconds(30), 512,
                8L << 20, new JsonCodec.Limits(64, 8 << 20), new JsonCodec.Limits(256, 8 << 20), 10_000, 16L << 20);
    }
}
