package dev.cloakgate.tenant;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** One upstream MCP server of a tenant, as the operator wrote it. Nothing an upstream says changes this. */
public sealed interface UpstreamConfig {

    String name();

    /**
     * A server spawned as a child process, speaking newline-delimited JSON-RPC on stdin/stdout.
     *
     * @param shared the operator declares the server stateless: one child serves every session of the tenant
     *        (per protocol version) instead of one child per session
     */
    record Stdio(String name, String command, List<String> args, Map<String, String> env, Path cwd, boolean shared)
            implements UpstreamConfig {
        public Stdio {
            args = List.copyOf(args);
            env = Map.copyOf(env);
        }

        /** A server spawned once per session. */
        public Stdio(String name, String command, List<String> args, Map<String, String> env, Path cwd) {
            this(name, command, args, env, cwd, false);
        }
    }

    /** How an HTTP upstream speaks MCP. */
    enum HttpTransport {
        /** Streamable HTTP (2025-03-26 and later): POST per message, an optional GET stream. */
        STREAMABLE_HTTP,
        /** The HTTP+SSE transport of 2024-11-05: a GET event stream names an endpoint that messages are POSTed to. */
        SSE
    }

    /**
     * A server reached over HTTP, by default MCP streamable HTTP.
     *
     * @param oauth how the gateway gets a token for it as an OAuth client (issue 16), or null: static headers only
     */
    record Http(String name, URI url, Map<String, String> headers, HttpTransport transport,
            dev.cloakgate.upstream.oauth.OAuthSettings oauth) implements UpstreamConfig {
        public Http {
            headers = Map.copyOf(headers);
        }

        public Http(String name, URI url, Map<String, String> headers, HttpTransport transport) {
            this(name, url, headers, transport, null);
        }

        /** A streamable-HTTP server. */
        public Http(String name, URI url, Map<String, String> headers) {
            this(name, url, headers, HttpTransport.STREAMABLE_HTTP);
        }
    }
}
