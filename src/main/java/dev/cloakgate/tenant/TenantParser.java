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

import dev.cloakgate.auth.AuthSettings;
import dev.cloakgate.jsonrpc.JsonCodec;

/**
 * Reads one tenant file. Unknown keys are refused with their JSON path: a typo in a security setting is the
 * worst failure available, because the operator believes the setting is on.
 */
public final class TenantParser {
    public static final Pattern TENANT_NAME = Pattern.compile("[a-z0-9-]+");
    /** No {@code _}: that is what makes splitting {@code fs__read__all} on the first {@code __} unambiguous. */
    public static final Pattern UPSTREAM_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9-]{0,31}");

    private static final Set<String> TOP_KEYS = Set.of("upstreams", "namespace", "sanitize", "detection", "token_scope", "policy",
            "vault_max_entries", "auth", "limits");
    /** Issue 10, per-tenant fairness. */
    private static final Set<String> LIMITS_KEYS = Set.of("max_sessions", "max_stdio_children");
    private static final Set<String> DETECTION_KEYS = Set.of("detect_emails", "detect_phone_numbers",
            "detect_credit_cards", "detect_ibans", "detect_us_ssns", "detect_ip_addresses", "detect_secrets",
            "ner_entity_types", "person_model", "ner_models", "phone_regions", "key_hints");
    /** The entity types an OpenNLP name-finder model can carry; only PERSON has a bundled model. */
    public static final Set<String> NER_TYPES = Set.of("PERSON", "ORGANIZATION", "LOCATION", "DATE", "TIME", "MONEY",
            "PERCENTAGE");
    private static final Set<String> POLICY_KEYS = Set.of("discovery", "tool_allowlist", "destructive_tools",
            "path_roots", "path_base", "egress_allowlist", "budget", "disable");
    private static final Set<String> BUDGET_KEYS = Set.of("session_calls", "tool_calls", "tenant_calls_per_minute",
            "output_bytes", "breaker_errors", "breaker_seconds");
    private static final Set<String> STDIO_KEYS = Set.of("command", "args", "env", "cwd", "shared");
    private static final Set<String> HTTP_KEYS = Set.of("url", "headers", "transport");
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
        // issue 10, identity: the ledger block held only auditor tokens, which are principals of the auth block now
        if (root.has("ledger")) {
            throw new TenantConfigException(file, root.path("ledger").has("auditor_tokens_sha256")
                    ? "$.ledger.auditor_tokens_sha256" : "$.ledger", "moved: auditors are principals with the auditor"
                            + " role, \"auth\": {\"principals\": {\"auditor\": {\"roles\": [\"auditor\"], \"tokens_sha256\":"
                            + " [...]}}}; the ledger block is gone");
        }
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
        boolean sanitize = c.bool(root.get("sanitize"), "$.sanitize", true);
        DetectionSettings detection = detection(c, root.get("detection"));
        TokenScope scope = TokenScope.SESSION;
        JsonNode sc = root.get("token_scope");
        if (sc != null) {
            scope = switch (c.string(sc, "$.token_scope")) {
                case "session" -> TokenScope.SESSION;
                case "upstream" -> TokenScope.UPSTREAM;
                default -> throw new TenantConfigException(file, "$.token_scope", "must be \"session\" or \"upstream\"");
            };
        }
        int vault = TenantConfig.DEFAULT_VAULT_MAX_ENTRIES;
        JsonNode v = root.get("vault_max_entries");
        if (v != null) {
            if (!v.canConvertToInt() || !v.isIntegralNumber() || v.asInt() < 16) {
                throw new TenantConfigException(file, "$.vault_max_entries", "must be an integer of at least 16");
            }
            vault = v.asInt();
        }
        PolicySettings policy = root.has("policy") ? policy(c, root.get("policy"), upstreams.keySet()) : null;
        AuthSettings auth = new AuthBlockParser(c, workingDir).parse(root.get("auth"), ns, upstreams.keySet());
        TenantLimits limits = root.has("limits") ? limits(c, root.get("limits")) : TenantLimits.defaults();
        return new TenantConfig(tenant, upstreams, ns, sha256(bytes), sanitize, detection, scope, vault, policy, auth,
                limits);
    }

    /** Issue 10: what the tenant may hold of the gateway; an absent key takes the gateway-wide default. */
    private TenantLimits limits(Ctx c, JsonNode node) throws TenantConfigException {
        String p = "$.limits";
        c.object(node, p);
        c.onlyKeys(node, p, LIMITS_KEYS);
        return new TenantLimits(c.optionalPositiveInt(node.get("max_sessions"), p + ".max_sessions"),
                c.optionalPositiveInt(node.get("max_stdio_children"), p + ".max_stdio_children"));
    }

    private PolicySettings policy(Ctx c, JsonNode node, Set<String> upstreamNames) throws TenantConfigException {
        String p = "$.policy";
        c.object(node, p);
        c.onlyKeys(node, p, POLICY_KEYS);
        PolicySettings d = PolicySettings.defaults();
        boolean strip = false;
        if (node.has("discovery")) {
            strip = switch (c.string(node.get("discovery"), p + ".discovery")) {
                case "withhold" -> false;
                case "strip" -> true;
                default -> throw new TenantConfigException(c.file, p + ".discovery", "must be \"withhold\" or \"strip\"");
            };
        }
        List<String> allow = node.has("tool_allowlist") ? c.strings(node.get("tool_allowlist"), p + ".tool_allowlist") : null;
        List<String> destructive = node.has("destructive_tools")
                ? c.strings(node.get("destructive_tools"), p + ".destructive_tools") : List.of();
        List<String> roots = null;
        if (node.has("path_roots")) {
            roots = c.strings(node.get("path_roots"), p + ".path_roots");
            if (roots.isEmpty()) {
                throw new TenantConfigException(c.file, p + ".path_roots",
                        "give at least one root, or leave the key out to switch path_sandbox off");
            }
            List<String> resolved = new ArrayList<>();
            for (int i = 0; i < roots.size(); i++) {
                resolved.add(directory(c, roots.get(i), p + ".path_roots[" + i + "]"));
            }
            roots = resolved;
        }
        Map<String, String> bases = new LinkedHashMap<>();
        if (node.has("path_base")) {
            if (roots == null) {
                throw new TenantConfigException(c.file, p + ".path_base",
                        "a base only matters to path_sandbox: add path_roots, or remove path_base");
            }
            JsonNode declared = node.get("path_base");
            c.object(declared, p + ".path_base");
            Iterator<Map.Entry<String, JsonNode>> each = declared.fields();
            while (each.hasNext()) {
                Map.Entry<String, JsonNode> b = each.next();
                String bp = p + ".path_base." + b.getKey();
                if (!upstreamNames.contains(b.getKey())) {
                    throw new TenantConfigException(c.file, bp, "no upstream of this tenant is named \"" + b.getKey()
                            + "\" (a base is declared per upstream: " + String.join(", ", upstreamNames) + ")");
                }
                bases.put(b.getKey(), directory(c, c.string(b.getValue(), bp), bp));
            }
        }
        List<String> egress = null;
        if (node.has("egress_allowlist")) {
            egress = c.strings(node.get("egress_allowlist"), p + ".egress_allowlist");
            for (int i = 0; i < egress.size(); i++) {
                String h = egress.get(i);
                if (h.isBlank() || h.contains("/") || h.contains("@") || h.contains(" ")) {
                    throw new TenantConfigException(c.file, p + ".egress_allowlist[" + i + "]",
                            "must be a host name or an IP address, without scheme, path or user");
                }
            }
        }
        Set<String> disabled = new java.util.LinkedHashSet<>();
        if (node.has("disable")) {
            List<String> names = c.strings(node.get("disable"), p + ".disable");
            for (int i = 0; i < names.size(); i++) {
                if (!PolicySettings.CONTROLS.contains(names.get(i))) {
                    throw new TenantConfigException(c.file, p + ".disable[" + i + "]", "unknown control \""
                            + names.get(i) + "\" (known: " + String.join(", ", new java.util.TreeSet<>(PolicySettings.CONTROLS)) + ")");
                }
                disabled.add(names.get(i));
            }
        }
        PolicySettings.Budget b = d.budget();
        JsonNode bn = node.get("budget");
        if (bn != null) {
            String bp = p + ".budget";
            c.object(bn, bp);
            c.onlyKeys(bn, bp, BUDGET_KEYS);
            b = new PolicySettings.Budget(c.positiveInt(bn.get("session_calls"), bp + ".session_calls", b.sessionCalls()),
                    c.positiveInt(bn.get("tool_calls"), bp + ".tool_calls", b.toolCalls()),
                    c.positiveInt(bn.get("tenant_calls_per_minute"), bp + ".tenant_calls_per_minute", b.tenantCallsPerMinute()),
                    c.positiveInt(bn.get("output_bytes"), bp + ".output_bytes", (int) Math.min(Integer.MAX_VALUE, b.outputBytes())),
                    c.positiveInt(bn.get("breaker_errors"), bp + ".breaker_errors", b.breakerErrors()),
                    c.positiveInt(bn.get("breaker_seconds"), bp + ".breaker_seconds", b.breakerSeconds()));
        }
        return new PolicySettings(strip, allow, destructive, roots, bases, egress, b, disabled);
    }

    /** A sandbox directory: absolute, or relative to the gateway's working directory (as an upstream's cwd is). */
    private String directory(Ctx c, String value, String path) throws TenantConfigException {
        if (value.isBlank() || value.startsWith("~") || value.contains("\u0000")) {
            throw new TenantConfigException(c.file, path,
                    "must be a directory path (/srv/data, C:\\data, \\\\server\\share, or relative to the gateway's working directory)");
        }
        boolean absolute = value.startsWith("/") || value.matches("[A-Za-z]:[\\\\/].*") || value.startsWith("\\\\");
        return absolute ? value : workingDir.resolve(value).normalize().toString();
    }

    private DetectionSettings detection(Ctx c, JsonNode node) throws TenantConfigException {
        DetectionSettings d = DetectionSettings.defaults();
        if (node == null) {
            return d;
        }
        String p = "$.detection";
        c.object(node, p);
        c.onlyKeys(node, p, DETECTION_KEYS);
        Set<String> types = d.nerEntityTypes();
        JsonNode t = node.get("ner_entity_types");
        if (t != null) {
            types = new java.util.LinkedHashSet<>();
            for (String type : c.strings(t, p + ".ner_entity_types")) {
                String up = type.toUpperCase(java.util.Locale.ROOT);
                if (!NER_TYPES.contains(up)) {
                    throw new TenantConfigException(c.file, p + ".ner_entity_types",
                            "unknown entity type \"" + type + "\" (known: " + String.join(", ", new java.util.TreeSet<>(NER_TYPES)) + ")");
                }
                types.add(up);
            }
        }
        Path personModel = null;
        if (node.has("person_model")) {
            personModel = workingDir.resolve(c.expand(c.string(node.get("person_model"), p + ".person_model"),
                    p + ".person_model")).normalize();
        }
        Map<String, Path> models = new LinkedHashMap<>();
        for (Map.Entry<String, String> m : c.stringMap(node.get("ner_models"), p + ".ner_models").entrySet()) {
            String type = m.getKey().toUpperCase(java.util.Locale.ROOT);
            if (!types.contains(type) || "PERSON".equals(type)) {
                throw new TenantConfigException(c.file, p + ".ner_models." + m.getKey(), "a model for a type not listed in"
                        + " ner_entity_types (PERSON's model is person_model)");
            }
            models.put(type, workingDir.resolve(m.getValue()).normalize());
        }
        for (String type : types) {
            if (!"PERSON".equals(type) && !models.containsKey(type)) {
                throw new TenantConfigException(c.file, p + ".ner_entity_types", type
                        + " needs a model: add it under detection.ner_models (only PERSON has a bundled model)");
            }
        }
        List<String> regions = d.phoneRegions();
        if (node.has("phone_regions")) {
            regions = new ArrayList<>();
            for (String r : c.strings(node.get("phone_regions"), p + ".phone_regions")) {
                if (!r.matches("[A-Z]{2}")) {
                    throw new TenantConfigException(c.file, p + ".phone_regions", "\"" + r
                            + "\" is not an ISO 3166 region code (two capital letters, e.g. FR)");
                }
                regions.add(r);
            }
        }
        return new DetectionSettings(c.bool(node.get("detect_emails"), p + ".detect_emails", true),
                c.bool(node.get("detect_phone_numbers"), p + ".detect_phone_numbers", true),
                c.bool(node.get("detect_credit_cards"), p + ".detect_credit_cards", true),
                c.bool(node.get("detect_ibans"), p + ".detect_ibans", true),
                c.bool(node.get("detect_us_ssns"), p + ".detect_us_ssns", true),
                c.bool(node.get("detect_ip_addresses"), p + ".detect_ip_addresses", true),
                c.bool(node.get("detect_secrets"), p + ".detect_secrets", true),
                types, personModel, models, regions,
                c.bool(node.get("key_hints"), p + ".key_hints", true));
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
            // issue 10: one child for every session of the tenant, for a server the operator declares stateless
            boolean shared = c.bool(node.get("shared"), path + ".shared", false);
            return new UpstreamConfig.Stdio(name, command, args, envVars, cwd, shared);
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
        // issue 10, legacy HTTP+SSE upstreams: streamable HTTP unless the file says otherwise
        UpstreamConfig.HttpTransport transport = UpstreamConfig.HttpTransport.STREAMABLE_HTTP;
        if (node.has("transport")) {
            transport = switch (c.string(node.get("transport"), path + ".transport")) {
                case "streamable-http" -> UpstreamConfig.HttpTransport.STREAMABLE_HTTP;
                case "sse" -> UpstreamConfig.HttpTransport.SSE;
                default -> throw new TenantConfigException(c.file, path + ".transport",
                        "must be \"streamable-http\" (the default) or \"sse\" (the HTTP+SSE transport of 2024-11-05)");
            };
        }
        return new UpstreamConfig.Http(name, uri, headers, transport);
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Validation helpers that know which file they report against. */
    final class Ctx {
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

        int positiveInt(JsonNode n, String path, int fallback) throws TenantConfigException {
            if (n == null) {
                return fallback;
            }
            if (!n.isIntegralNumber() || !n.canConvertToInt() || n.asInt() < 1) {
                throw new TenantConfigException(file, path, "must be a positive integer");
            }
            return n.asInt();
        }

        java.util.OptionalInt optionalPositiveInt(JsonNode n, String path) throws TenantConfigException {
            return n == null ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(positiveInt(n, path, 0));
        }

        boolean bool(JsonNode n, String path, boolean fallback) throws TenantConfigException {
            if (n == null) {
                return fallback;
            }
            if (!n.isBoolean()) {
                throw new TenantConfigException(file, path, "must be true or false");
            }
            return n.booleanValue();
        }

        List<String> strings(JsonNode n, String path) throws TenantConfigException {
            if (n == null || !n.isArray()) {
                throw new TenantConfigException(file, path, "must be an array of strings");
            }
            List<String> out = new ArrayList<>();
            for (int i = 0; i < n.size(); i++) {
                out.add(string(n.get(i), path + "[" + i + "]"));
            }
            return out;
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
