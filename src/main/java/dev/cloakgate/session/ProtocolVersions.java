package dev.cloakgate.session;

import java.util.List;

/** The MCP protocol versions the gateway serves, newest first. */
public final class ProtocolVersions {
    public static final String LATEST = "2025-11-25";
    public static final List<String> SUPPORTED = List.of("2025-11-25", "2025-06-18", "2025-03-26");
    /** What a request without an {@code MCP-Protocol-Version} header is assumed to speak (per the spec). */
    public static final String HEADERLESS_DEFAULT = "2025-03-26";

    private ProtocolVersions() {
    }

    public static boolean supported(String version) {
        return version != null && SUPPORTED.contains(version);
    }

    /** The version the gateway offers upstreams for a client that asked for {@code requested}. */
    public static String offer(String requested) {
        return supported(requested) ? requested : LATEST;
    }
}
