package dev.cloakgate.tenant;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.jsonrpc.JsonCodec;

/**
 * Reads one tenant file. Unknown keys are refused with their JSON path: a typo in a security setting is the
 * worst failure available, because the operator believes the setting is on.
 */
public final class TenantParser {
    public static final Pattern TENANT_NAME = Pattern.compile("[a-z0-9-]+");
    /** No {@code _}: that is what makes splitting {@code fs__read__all} on the first {@code __} unambiguous. */
    public static final Pattern UPSTREAM_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9-]{0,31}");

    private static final Set<String> TOP_KEYS = Set.of("upstreams", "namespace");
    private static final Set<String> STDIO_KEYS = Set.of("command", "args", "env", "cwd");
    private static final Set<String> HTTP_KEYS = Set.of("url", "headers");
    /** Headers the gateway owns toward an HTTP upstream (transport and MCP session); a tenant may not set them. */
    private static final Set<String> RESERVED_HEADERS = Set.of("host", "connection", "content-length", "expect",
            "upgrade", "content-type", "accept", "mcp-session-id", "mcp-protocol-version", "last-event-id",
            "transfer-encoding", "te", "trailer");

    private final JsonCodec codec = new JsonCodec(new JsonCodec.Limits(32, 1 << 20));
    private final EnvExpander env;
    private final Path workingDir;

    public TenantParser(EnvExpander env, Path workingDir) {
        this.env = env;
        this.workingDir = workingDir;
    }

    public TenantConfig parse(String tenant, String file, byte[] bytes) throws TenantConfigException {
        if (!TENANT_NAME.matcher(tenant).matches()) {
            throw new TenantConfigException(file, "$", "tenant name \"" + tenant
                    + "\" (the file name) must match [a-z0-9-]+");
        }
        JsonNode root;
        try {
            root = codec.parse(bytes);
        } catch (JsonCodec.MalformedJson e) {
            throw new TenantConfigException(file, "$", e.getMessage());
        }
        Ctx c = new Ctx(file);
        c.object(root, "$");
        c.onlyKeys(root, "$", TOP_KEYS);

        JsonNode ups = root.get("upstreams");
        if (ups == null) {
            throw new TenantConfigException(file, "$.upstreams", "required: at least one upstream server");
        }
        c.object(ups, "$.upstreams");
        if (ups.isEmpty()) {
            throw new TenantConfigException(file, "$.upstreams", "at least one upstream server is required");
        }
        Map<String, UpstreamConfig> upstreams = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = ups.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String path = "$.upstreams." + e.getKey();
            if (!UPSTREAM_NAME.matcher(e.getKey()).matches()) {
                throw new TenantConfigException(file, path,
                        "upstream name must be letters, digits and '-' (no '_'), at most 32 characters");
            }
            upstreams.put(e.getKey(), upstream(c, e.getKey(), e.getValue(), path));
        }

        Namespace ns = Namespace.PREFIX;
        JsonNode nsNode = root.get("namespace");
        if (nsNode != null) {
            String v = c.string(nsNode, "$.namespace");
            ns = switch (v) {
                case "prefix" -> Namespace.PREFIX;
                case "none" -> Namespace.NONE;
                default -> throw new TenantConfigException(file, "$.namespace", "must be \"prefix\" or \"none\"");
            };
            if (ns == Namespace.NONE && upstreams.size() != 1) {
                throw new TenantConfigException(file, "$.namespace",
                        "\"none\" is allowed only with exactly one upstream (names would collide)");
            }
        }
        return new TenantConfig(tenant, upstreams, ns, sha256(bytes));
    }

    private UpstreamConfig upstream(Ctx c, String name, JsonNode node, String path) throws TenantConfigException {
        c.object(node, path);
        boolean stdio = node.has("command");
        boolean http = node.has("url");
        if (stdio == http) {
            throw new TenantConfigException(c.file, path, "give exactly one of \"command\" (stdio) or \"url\" (HTTP)");
        }
        if (stdio) {
            c.onlyKeys(node, path, STDIO_KEYS);
            String command = c.expand(c.string(node.get("command"), path + ".command"), path + ".command");
            if (command.isBlank()) {
                throw new TenantConfigException(c.file, path + ".command", "must not be empty");
            }
            List<String> args = new ArrayList<>();
            JsonNode a = node.get("args");
            if (a != null) {
                if (!a.isArray()) {
                    throw new TenantConfigException(c.file, path + ".args", "must be an array of strings");
                }
                for (int i = 0; i < a.size(); i++) {
                    args.add(c.expand(c.string(a.get(i), path + ".args[" + i + "]"), path + ".args[" + i + "]"));
                }
            }
            Map<String, String> envVars = c.stringMap(node.get("env"), path + ".env");
            Path cwd = null;
            if (node.has("cwd")) {
                cwd = workingDir.resolve(c.expand(c.string(node.get("cwd"), path + ".cwd"), path + ".cwd")).normalize();
            }
            return new UpstreamConfig.Stdio(name, command, args, envVars, cwd);
        }
        c.onlyKeys(node, path, HTTP_KEYS);
        String url = c.expand(c.string(node.get("url"), path + ".url"), path + ".url");
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new TenantConfigException(c.file, path + ".url", "not a valid URL");
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw new TenantConfigException(c.file, path + ".url", "must be an absolute http:// or https:// URL");
        }
        Map<String, String> headers = c.stringMap(node.get("headers"), path + ".headers");
        for (String h : headers.keySet()) {
            if (RESERVED_HEADERS.contains(h.toLowerCase(java.util.Locale.ROOT)) || !h.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
                throw new TenantConfigException(c.file, path + ".headers." + h,
                        "header is set by the gateway itself or is not a valid header name");
            }
        }
        return new UpstreamConfig.Http(name, uri, headers);
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Validation helpers that know which file they report against. */
    private final class Ctx {
        final String file;

        Ctx(String file) {
            this.file = file;
        }

        void object(JsonNode n, String path) throws TenantConfigException {
            if (n == null || !n.isObject()) {
                throw new TenantConfigException(file, path, "must be an object");
            }
        }

        void onlyKeys(JsonNode n, String path, Set<String> allowed) throws TenantConfigException {
            Iterator<String> names = n.fieldNames();
            while (names.hasNext()) {
                String k = names.next();
                if (!allowed.contains(k)) {
                    throw new TenantConfigException(file, path + "." + k,
                            "unknown key (allowed here: " + String.join(", ", new java.util.TreeSet<>(allowed)) + ")");
                }
            }
        }

        String string(JsonNode n, String path) throws TenantConfigException {
            if (n == null || !n.isTextual()) {
                throw new TenantConfigException(file, path, "must be a string");
            }
            return n.textValue();
        }

        String expand(String value, String path) throws TenantConfigException {
            try {
                return env.expand(value);
            } catch (IllegalArgumentException e) {
                throw new TenantConfigException(file, path, e.getMessage());
            }
        }

        Map<String, String> stringMap(JsonNode n, String path) throws TenantConfigException {
            Map<String, String> out = new LinkedHashMap<>();
            if (n == null) {
                return out;
            }
            object(n, path);
            Iterator<Map.Entry<String, JsonNode>> it = n.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                String p = path + "." + e.getKey();
                out.put(e.getKey(), expand(string(e.getValue(), p), p));
            }
            return out;
        }
    }
}
