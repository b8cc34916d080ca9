package dev.cloakgate.tenant;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** One upstream MCP server of a tenant, as the operator wrote it. Nothing an upstream says changes this. */
public sealed interface UpstreamConfig {

    String name();

    /** A server spawned as a child process, speaking newline-delimited JSON-RPC on stdin/stdout. */
    record Stdio(String name, String command, List<String> args, Map<String, String> env, Path cwd)
            implements UpstreamConfig {
        public Stdio {
            args = List.copyOf(args);
            env = Map.copyOf(env);
        }
    }

    /** A server reached over MCP streamable HTTP. */
    record Http(String name, URI url, Map<String, String> headers) implements UpstreamConfig {
        public Http {
            headers = Map.copyOf(headers);
        }
    }
}
