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
 * worst failure available, because the operator believes the setting is on. The whole file is read and every
 * problem reported at once, unknown keys first (a misspelt {@code "comand"} is the cause of the missing command,
 * not the other way round).
 */
public final class TenantParser {
    public static final Pattern TENANT_NAME = Pattern.compile("[a-z0-9-]+");
    /** No {@code _}: that is what makes splitting {@code fs__read__all} on the first {@code __} unambiguous. */
    public static final Pattern UPSTREAM_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9-]{0,31}");

    private static final Set<String> TOP_KEYS = Set.of("upstreams", "namespace", "sanitize", "detection", "token_scope", "policy", "gate",
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
    private static final Set<String> HTTP_KEYS = Set.of("url", "headers", "transport", "oauth");
    private static final Set<String> UPSTREAM_KEYS = Set.of("command", "args", "env", "cwd", "shared", "url", "headers",
            "transport", "oauth");
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
            // say what is wrong, not only where: the codec's message gives the position alone (it must not quote)
            String what = JsonSyntax.describe(bytes);
            throw new TenantConfigException(file, "$", what == null ? e.getMessage() : "not valid JSON at " + what);
        }
        Ctx c = new Ctx(file);
        c.tenant = tenant;
        c.object(root, "$");
        // issue 10, identity: the ledger block held only auditor tokens, which are principals of the auth block now
        // (reported as moved, not also as an unknown key; the rest of the file is still read)
        if (root.has("ledger")) {
            c.report(root.path("ledger").has("auditor_tokens_sha256")
                    ? "$.ledger.auditor_tokens_sha256" : "$.ledger", "moved: auditors are principals with the auditor"
                            + " role, \"auth\": {\"principals\": {\"auditor\": {\"roles\": [\"auditor\"], \"tokens_sha256\":"
                            + " [...]}}}; the ledger block is gone");
        }
        JsonNode keys = root;
        if (root.has("ledger")) {
            keys = root.deepCopy();
            ((com.fasterxml.jackson.databind.node.ObjectNode) keys).remove("ledger");
        }
        c.onlyKeys(keys, "$", TOP_KEYS);

        JsonNode ups = root.get("upstreams");
        Map<String, UpstreamConfig> upstreams = new LinkedHashMap<>();
        if (ups == null) {
            c.report("$.upstreams", "required: at least one upstream server");
        } else {
            c.part(() -> {
                c.object(ups, "$.upstreams");
                if (ups.isEmpty()) {
                    throw new TenantConfigException(file, "$.upstreams", "at least one upstream server is required");
                }
                return null;
            }, null);
            Iterator<Map.Entry<String, JsonNode>> it = ups.isObject() ? ups.fields() : java.util.Collections.emptyIterator();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                String path = "$.upstreams." + e.getKey();
                if (!UPSTREAM_NAME.matcher(e.getKey()).matches()) {
                    c.report(path, "upstream name must be letters, digits and '-' (no '_'), at most 32 characters");
                    continue;
                }
                UpstreamConfig u = c.part(() -> upstream(c, e.getKey(), e.getValue(), path), null);
                if (u != null) {
                    upstreams.put(e.getKey(), u);
                }
            }
        }
        int declared = ups != null && ups.isObject() ? ups.size() : 0;
        Namespace ns = c.part(() -> namespace(c, root.get("namespace"), declared), Namespace.PREFIX);
        boolean sanitize = c.part(() -> c.bool(root.get("sanitize"), "$.sanitize", true), true);
        DetectionSettings detection = c.part(() -> detection(c, root.get("detection")), DetectionSettings.defaults());
        TokenScope scope = c.part(() -> tokenScope(c, root.get("token_scope")), TokenScope.SESSION);
        int vault = c.part(() -> vaultMaxEntries(c, root.get("vault_max_entries")), TenantConfig.DEFAULT_VAULT_MAX_ENTRIES);
        Set<String> upstreamNames = ups != null && ups.isObject() ? names(ups) : Set.of();
        PolicySettings policy = root.has("policy") ? c.part(() -> policy(c, root.get("policy"), upstreamNames), null) : null;
        AuthSettings auth = c.part(() -> new AuthBlockParser(c, workingDir).parse(root.get("auth"), ns, upstreamNames), null);
        TenantLimits limits = root.has("limits") ? c.part(() -> limits(c, root.get("limits")), TenantLimits.defaults())
                : TenantLimits.defaults();
        // issue 11: the action gate
        GateSettings gate = root.has("gate") ? c.part(() -> new GateBlockParser(c).parse(root.get("gate")), null) : null;
        c.done();
        return new TenantConfig(tenant, upstreams, ns, sha256(bytes), sanitize, detection, scope, vault, policy, auth,
                limits, gate);
    }

    /** Issue 10: what the tenant may hold of the gateway; an absent key takes the gateway-wide default. */
    private TenantLimits limits(Ctx c, JsonNode node) throws TenantConfigException {
        String p = "$.limits";
        c.object(node, p);
        c.onlyKeys(node, p, LIMITS_KEYS);
        return new TenantLimits(c.optionalPositiveInt(node.get("max_sessions"), p + ".max_sessions"),
                c.optionalPositiveInt(node.get("max_stdio_children"), p + ".max_stdio_children"));
    }

    private static Set<String> names(JsonNode object) {
        Set<String> out = new java.util.LinkedHashSet<>();
        object.fieldNames().forEachRemaining(out::add);
        return out;
    }

    private Namespace namespace(Ctx c, JsonNode node, int upstreamCount) throws TenantConfigException {
        if (node == null) {
            return Namespace.PREFIX;
        }
        Namespace ns = switch (c.string(node, "$.namespace")) {
            case "prefix" -> Namespace.PREFIX;
            case "none" -> Namespace.NONE;
            default -> throw new TenantConfigException(c.file, "$.namespace", "must be \"prefix\" or \"none\"");
        };
        if (ns == Namespace.NONE && upstreamCount != 1) {
            throw new TenantConfigException(c.file, "$.namespace",
                    "\"none\" is allowed only with exactly one upstream (names would collide)");
        }
        return ns;
    }

    private TokenScope tokenScope(Ctx c, JsonNode node) throws TenantConfigException {
        if (node == null) {
            return TokenScope.SESSION;
        }
        return switch (c.string(node, "$.token_scope")) {
            case "session" -> TokenScope.SESSION;
            case "upstream" -> TokenScope.UPSTREAM;
            default -> throw new TenantConfigException(c.file, "$.token_scope", "must be \"session\" or \"upstream\"");
        };
    }

    private int vaultMaxEntries(Ctx c, JsonNode v) throws TenantConfigException {
        if (v == null) {
            return TenantConfig.DEFAULT_VAULT_MAX_ENTRIES;
        }
        if (!v.canConvertToInt() || !v.isIntegralNumber() || v.asInt() < 16) {
            throw new TenantConfigException(c.file, "$.vault_max_entries", "must be an integer of at least 16");
        }
        return v.asInt();
    }

    private PolicySettings policy(Ctx c, JsonNode node, Set<String> upstreamNames) throws TenantConfigException {
        String p = "$.policy";
        c.object(node, p);
        c.onlyKeys(node, p, POLICY_KEYS);
        PolicySettings d = PolicySettings.defaults();
        boolean strip = c.part(() -> !node.has("discovery") ? false : switch (c.string(node.get("discovery"), p + ".discovery")) {
            case "withhold" -> false;
            case "strip" -> true;
            default -> throw new TenantConfigException(c.file, p + ".discovery", "must be \"withhold\" or \"strip\"");
        }, false);
        List<String> allow = c.part(() -> node.has("tool_allowlist")
                ? c.strings(node.get("tool_allowlist"), p + ".tool_allowlist") : null, null);
        List<String> destructive = c.part(() -> node.has("destructive_tools")
                ? c.strings(node.get("destructive_tools"), p + ".destructive_tools") : List.of(), List.of());
        List<String> roots = !node.has("path_roots") ? null : c.part(() -> {
            List<String> given = c.strings(node.get("path_roots"), p + ".path_roots");
            if (given.isEmpty()) {
                throw new TenantConfigException(c.file, p + ".path_roots",
                        "give at least one root, or leave the key out to switch path_sandbox off");
            }
            List<String> resolved = new ArrayList<>();
            for (int i = 0; i < given.size(); i++) {
                String rp = p + ".path_roots[" + i + "]";
                String root = given.get(i);
                resolved.add(c.part(() -> directory(c, root, rp), root));
            }
            return resolved;
        }, List.of());
        Map<String, String> bases = new LinkedHashMap<>();
        if (node.has("path_base")) {
            c.part(() -> {
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
                        c.report(bp, "no upstream of this tenant is named \"" + b.getKey()
                                + "\" (a base is declared per upstream: " + String.join(", ", upstreamNames) + ")");
                        continue;
                    }
                    c.part(() -> bases.put(b.getKey(), directory(c, c.string(b.getValue(), bp), bp)), null);
                }
                return null;
            }, null);
        }
        List<String> egress = !node.has("egress_allowlist") ? null : c.part(() -> {
            List<String> hosts = c.strings(node.get("egress_allowlist"), p + ".egress_allowlist");
            for (int i = 0; i < hosts.size(); i++) {
                String h = hosts.get(i);
                if (h.isBlank() || h.contains("/") || h.contains("@") || h.contains(" ")) {
                    c.report(p + ".egress_allowlist[" + i + "]",
                            "must be a host name or an IP address, without scheme, path or user");
                }
            }
            return hosts;
        }, List.of());
        Set<String> disabled = new java.util.LinkedHashSet<>();
        if (node.has("disable")) {
            List<String> names = c.part(() -> c.strings(node.get("disable"), p + ".disable"), List.of());
            for (int i = 0; i < names.size(); i++) {
                if (!PolicySettings.CONTROLS.contains(names.get(i))) {
                    c.report(p + ".disable[" + i + "]", "unknown control \""
                            + names.get(i) + "\" (known: " + String.join(", ", new java.util.TreeSet<>(PolicySettings.CONTROLS)) + ")");
                } else {
                    disabled.add(names.get(i));
                }
            }
        }
        PolicySettings.Budget b0 = d.budget();
        JsonNode bn = node.get("budget");
        PolicySettings.Budget b = bn == null ? b0 : c.part(() -> {
            String bp = p + ".budget";
            c.object(bn, bp);
            c.onlyKeys(bn, bp, BUDGET_KEYS);
            return new PolicySettings.Budget(
                    c.part(() -> c.positiveInt(bn.get("session_calls"), bp + ".session_calls", b0.sessionCalls()), 1),
                    c.part(() -> c.positiveInt(bn.get("tool_calls"), bp + ".tool_calls", b0.toolCalls()), 1),
                    c.part(() -> c.positiveInt(bn.get("tenant_calls_per_minute"), bp + ".tenant_calls_per_minute",
                            b0.tenantCallsPerMinute()), 1),
                    c.part(() -> c.positiveInt(bn.get("output_bytes"), bp + ".output_bytes",
                            (int) Math.min(Integer.MAX_VALUE, b0.outputBytes())), 1),
                    c.part(() -> c.positiveInt(bn.get("breaker_errors"), bp + ".breaker_errors", b0.breakerErrors()), 1),
                    c.part(() -> c.positiveInt(bn.get("breaker_seconds"), bp + ".breaker_seconds", b0.breakerSeconds()), 1));
        }, b0);
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
        JsonNode t = node.get("ner_entity_types");
        Set<String> types = t == null ? d.nerEntityTypes() : c.part(() -> {
            Set<String> listed = new java.util.LinkedHashSet<>();
            for (String type : c.strings(t, p + ".ner_entity_types")) {
                String up = type.toUpperCase(java.util.Locale.ROOT);
                if (!NER_TYPES.contains(up)) {
                    c.report(p + ".ner_entity_types",
                            "unknown entity type \"" + type + "\" (known: " + String.join(", ", new java.util.TreeSet<>(NER_TYPES)) + ")");
                } else {
                    listed.add(up);
                }
            }
            return listed;
        }, d.nerEntityTypes());
        Path personModel = !node.has("person_model") ? null : c.part(() -> workingDir.resolve(c.expand(
                c.string(node.get("person_model"), p + ".person_model"), p + ".person_model")).normalize(), null);
        Map<String, Path> models = new LinkedHashMap<>();
        for (Map.Entry<String, String> m : c.part(() -> c.stringMap(node.get("ner_models"), p + ".ner_models"),
                Map.<String, String>of()).entrySet()) {
            String type = m.getKey().toUpperCase(java.util.Locale.ROOT);
            if (!types.contains(type) || "PERSON".equals(type)) {
                c.report(p + ".ner_models." + m.getKey(), "a model for a type not listed in"
                        + " ner_entity_types (PERSON's model is person_model)");
            } else {
                models.put(type, workingDir.resolve(m.getValue()).normalize());
            }
        }
        for (String type : types) {
            if (!"PERSON".equals(type) && !models.containsKey(type)) {
                c.report(p + ".ner_entity_types", type
                        + " needs a model: add it under detection.ner_models (only PERSON has a bundled model)");
            }
        }
        List<String> regions = !node.has("phone_regions") ? d.phoneRegions() : c.part(() -> {
            List<String> listed = new ArrayList<>();
            for (String r : c.strings(node.get("phone_regions"), p + ".phone_regions")) {
                if (!r.matches("[A-Z]{2}")) {
                    c.report(p + ".phone_regions", "\"" + r + "\" is not an ISO 3166 region code (two capital letters, e.g. FR)");
                } else {
                    listed.add(r);
                }
            }
            return listed;
        }, d.phoneRegions());
        return new DetectionSettings(flag(c, node, p, "detect_emails"), flag(c, node, p, "detect_phone_numbers"),
                flag(c, node, p, "detect_credit_cards"), flag(c, node, p, "detect_ibans"), flag(c, node, p, "detect_us_ssns"),
                flag(c, node, p, "detect_ip_addresses"), flag(c, node, p, "detect_secrets"),
                types, personModel, models, regions, flag(c, node, p, "key_hints"));
    }

    /** A detection switch, on unless set false; a value that is not a boolean is reported and read as on. */
    private static boolean flag(Ctx c, JsonNode node, String p, String key) {
        return c.part(() -> c.bool(node.get(key), p + "." + key, true), true);
    }

    private UpstreamConfig upstream(Ctx c, String name, JsonNode node, String path) throws TenantConfigException {
        c.object(node, path);
        boolean stdio = node.has("command");
        boolean http = node.has("url");
        int before = c.count();
        if (stdio == http) {
            // unknown keys first: a misspelt "comand" is why there is no command, so it is all there is to say
            boolean typos = c.onlyKeys(node, path, UPSTREAM_KEYS);
            if (stdio || !typos) {
                c.report(path, "give exactly one of \"command\" (stdio) or \"url\" (HTTP)");
            }
            return null;
        }
        if (stdio) {
            c.onlyKeys(node, path, STDIO_KEYS);
            String command = c.part(() -> {
                String v = c.expand(c.string(node.get("command"), path + ".command"), path + ".command");
                if (v.isBlank()) {
                    throw new TenantConfigException(c.file, path + ".command", "must not be empty");
                }
                return v;
            }, null);
            List<String> args = new ArrayList<>();
            JsonNode a = node.get("args");
            if (a != null) {
                if (!a.isArray()) {
                    c.report(path + ".args", "must be an array of strings");
                } else {
                    for (int i = 0; i < a.size(); i++) {
                        String ap = path + ".args[" + i + "]";
                        JsonNode one = a.get(i);
                        args.add(c.part(() -> c.expand(c.string(one, ap), ap), ""));
                    }
                }
            }
            Map<String, String> envVars = c.part(() -> c.stringMap(node.get("env"), path + ".env"), Map.of());
            Path cwd = !node.has("cwd") ? null : c.part(() -> workingDir.resolve(c.expand(c.string(node.get("cwd"),
                    path + ".cwd"), path + ".cwd")).normalize(), null);
            // issue 10: one child for every session of the tenant, for a server the operator declares stateless
            boolean shared = c.part(() -> c.bool(node.get("shared"), path + ".shared", false), false);
            return c.count() > before ? null : new UpstreamConfig.Stdio(name, command, args, envVars, cwd, shared);
        }
        c.onlyKeys(node, path, HTTP_KEYS);
        URI uri = c.part(() -> {
            String url = c.expand(c.string(node.get("url"), path + ".url"), path + ".url");
            URI parsed;
            try {
                parsed = new URI(url);
            } catch (URISyntaxException e) {
                throw new TenantConfigException(c.file, path + ".url", "not a valid URL");
            }
            if (!("http".equals(parsed.getScheme()) || "https".equals(parsed.getScheme())) || parsed.getHost() == null) {
                throw new TenantConfigException(c.file, path + ".url", "must be an absolute http:// or https:// URL");
            }
            return parsed;
        }, null);
        Map<String, String> headers = c.part(() -> c.stringMap(node.get("headers"), path + ".headers"), Map.of());
        for (String h : headers.keySet()) {
            if (RESERVED_HEADERS.contains(h.toLowerCase(java.util.Locale.ROOT)) || !h.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
                c.report(path + ".headers." + h, "header is set by the gateway itself or is not a valid header name");
            }
        }
        // issue 10, legacy HTTP+SSE upstreams: streamable HTTP unless the file says otherwise
        UpstreamConfig.HttpTransport transport = !node.has("transport") ? UpstreamConfig.HttpTransport.STREAMABLE_HTTP
                : c.part(() -> switch (c.string(node.get("transport"), path + ".transport")) {
                    case "streamable-http" -> UpstreamConfig.HttpTransport.STREAMABLE_HTTP;
                    case "sse" -> UpstreamConfig.HttpTransport.SSE;
                    default -> throw new TenantConfigException(c.file, path + ".transport",
                            "must be \"streamable-http\" (the default) or \"sse\" (the HTTP+SSE transport of 2024-11-05)");
                }, null);
        // issue 16, upstream OAuth: the gateway as an OAuth client of this upstream
        dev.cloakgate.upstream.oauth.OAuthSettings oauth = !node.has("oauth") ? null
                : c.part(() -> new UpstreamOAuthBlockParser(c).parse(name, node.get("oauth"), path + ".oauth",
                        headers.keySet()), null);
        if (oauth != null && transport == UpstreamConfig.HttpTransport.SSE) {
            c.report(path + ".oauth", "applies to streamable-http upstreams only (not the HTTP+SSE transport)");
        }
        return c.count() > before ? null : new UpstreamConfig.Http(name, uri, headers, transport, oauth);
    }

    /** Hex SHA-256 of a tenant file's bytes: its digest in the status, the ledger and the log. */
    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A piece of a tenant file read on its own: its problem is recorded and reading goes on. */
    private interface Part<T> {
        T read() throws TenantConfigException;
    }

    /**
     * Validation helpers that know which file they report against, and the problems found so far: a piece that
     * cannot be read is recorded and the rest of the file is still read, so one pass reports everything.
     */
    final class Ctx {
        final String file;
        private final List<TenantConfigException.Problem> unknownKeys = new ArrayList<>();
        private final List<TenantConfigException.Problem> others = new ArrayList<>();

        /** The tenant the file is for (issue 16: an upstream's OAuth client is bound to it). */
        String tenant;

        Ctx(String file) {
            this.file = file;
        }

        /** Reads {@code p}; when it fails, records why and answers {@code fallback} so reading can go on. */
        <T> T part(Part<T> p, T fallback) {
            try {
                return p.read();
            } catch (TenantConfigException e) {
                others.addAll(e.problems());
                return fallback;
            }
        }

        void report(String path, String problem) {
            others.add(new TenantConfigException.Problem(file, path, problem));
        }

        int count() {
            return unknownKeys.size() + others.size();
        }

        /** Throws every problem found, unknown keys first; returns when there was none. */
        void done() throws TenantConfigException {
            if (count() > 0) {
                List<TenantConfigException.Problem> all = new ArrayList<>(unknownKeys);
                all.addAll(others);
                throw new TenantConfigException(all);
            }
        }

        void object(JsonNode n, String path) throws TenantConfigException {
            if (n == null || !n.isObject()) {
                throw new TenantConfigException(file, path, "must be an object");
            }
        }

        /** Records every key of {@code n} that is not {@code allowed}; whether there was one. */
        boolean onlyKeys(JsonNode n, String path, Set<String> allowed) {
            boolean any = false;
            Iterator<String> names = n.fieldNames();
            while (names.hasNext()) {
                String k = names.next();
                if (!allowed.contains(k)) {
                    unknownKeys.add(new TenantConfigException.Problem(file, path + "." + k,
                            "unknown key (allowed here: " + String.join(", ", new java.util.TreeSet<>(allowed)) + ")"));
                    any = true;
                }
            }
            return any;
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
                String p = path + "[" + i + "]";
                JsonNode one = n.get(i);
                out.add(part(() -> string(one, p), ""));
            }
            return out;
        }

        java.time.Duration seconds(JsonNode n, String p, java.time.Duration fallback, int min, int max) throws TenantConfigException {
            if (n == null) {
                return fallback;
            }
            if (!n.isIntegralNumber() || !n.canConvertToInt() || n.asInt() < min || n.asInt() > max) {
                throw new TenantConfigException(file, p, "must be an integer from " + min + " to " + max);
            }
            return java.time.Duration.ofSeconds(n.asInt());
        }

        /** A file path: absolute, or relative to the gateway's working directory (as an upstream's cwd is). */
        java.nio.file.Path file(JsonNode n, String p) throws TenantConfigException {
            String v = expand(string(n, p), p);
            if (v.isBlank() || v.contains("\u0000")) {
                throw new TenantConfigException(file, p, "must be a file path");
            }
            return workingDir.resolve(v).normalize();
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
                String v = part(() -> expand(string(e.getValue(), p), p), null);
                if (v != null) {
                    out.put(e.getKey(), v);
                }
            }
            return out; // an entry with a problem is recorded and left out
        }
    }
}
