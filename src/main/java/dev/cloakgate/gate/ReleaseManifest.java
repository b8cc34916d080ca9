package dev.cloakgate.gate;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.policy.control.ToolPinning;
import dev.cloakgate.tenant.TenantParser;

/**
 * A release manifest: which tools (by the name the agent sees) and which policies (tool contracts, by hash) make up
 * a release, and which identity each upstream must present. Read strictly, JSON or YAML alike: an unknown key, a
 * malformed reference or a tool listed twice is refused with its path, never ignored (an ignored key would be
 * certified without meaning anything). The release hash is over the whole tree, so a certification names exactly
 * this manifest, labels and annotations included.
 */
public final class ReleaseManifest {
    public static final Set<String> API_VERSIONS = Set.of("cloakpipe.co/v1alpha1", "cloakgate.dev/v1alpha1");
    public static final String KIND = "Release";
    /** The metadata name: the in-toto subject name of its certifications. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,252}");
    /** An exposed tool name (MCP's tool-name characters, 1 to 128 of them), '@', an opaque version label. */
    private static final Pattern TOOL = Pattern.compile("tool:([A-Za-z0-9_.-]{1,128})@([\\x21-\\x7e]{1,128})");
    private static final Pattern POLICY = Pattern.compile("policy:([A-Za-z0-9][A-Za-z0-9._-]{0,252})@sha256:([0-9a-f]{64})");
    private static final Pattern DIGEST = Pattern.compile("sha256:[0-9a-f]{64}");
    private static final Set<String> TOP = Set.of("apiVersion", "kind", "metadata", "spec");
    private static final Set<String> METADATA = Set.of("name", "labels", "annotations");
    private static final Set<String> SPEC = Set.of("tools", "policies", "mcpServers");
    private static final Set<String> SERVER = Set.of("serverInfo", "toolsDigest");
    private static final Set<String> SERVER_INFO = Set.of("name", "version");

    /** {@code tool:<name>@<version>}: the exposed name and its certified version label. */
    public record ToolRef(String name, String version) {
    }

    /** {@code policy:<name>@sha256:<hex>}: a tool contract bound into the release by its hash. */
    public record PolicyRef(String name, String sha256Hex) {
        public String ref() {
            return "policy:" + name + "@sha256:" + sha256Hex;
        }
    }

    /**
     * The identity an upstream must present at initialize: its {@code serverInfo.name}, its {@code serverInfo.version}
     * when given (null: any), and the {@link #toolsDigest} of its tool declarations when given (null: not checked).
     */
    public record ServerIdentity(String name, String version, String toolsDigest) {
    }

    private final JsonNode tree;
    private final String name;
    private final Map<String, ToolRef> tools;
    private final List<PolicyRef> policies;
    private final Map<String, ServerIdentity> mcpServers;
    private final String releaseHex;

    private ReleaseManifest(JsonNode tree, String name, Map<String, ToolRef> tools, List<PolicyRef> policies,
            Map<String, ServerIdentity> mcpServers) {
        this.tree = tree;
        this.name = name;
        this.tools = Collections.unmodifiableMap(tools);
        this.policies = List.copyOf(policies);
        this.mcpServers = Collections.unmodifiableMap(mcpServers);
        this.releaseHex = Domains.hash(Domains.RELEASE, tree);
    }

    /** Reads a manifest file (at most {@link GateDocuments#MAX_BYTES}); the refusal names the file. */
    public static ReleaseManifest read(Path file) throws IOException {
        return parse(GateDocuments.readFile(file), "release manifest " + file);
    }

    /**
     * Parses a manifest, JSON or YAML.
     *
     * @param what names the document in a refusal ("release manifest release.yaml")
     * @throws IllegalArgumentException naming the path of what is wrong and what it should be
     */
    public static ReleaseManifest parse(byte[] bytes, String what) {
        JsonNode tree = GateDocuments.read(bytes, what);
        Refusal r = new Refusal(what);
        only(tree, TOP, "", r);
        String api = text(tree, "apiVersion", "", r);
        if (!API_VERSIONS.contains(api)) {
            throw r.at("apiVersion", "must be one of " + API_VERSIONS.stream().sorted().toList());
        }
        if (!KIND.equals(text(tree, "kind", "", r))) {
            throw r.at("kind", "must be " + KIND);
        }
        JsonNode metadata = object(tree, "metadata", "", r);
        only(metadata, METADATA, "metadata.", r);
        String name = text(metadata, "name", "metadata.", r);
        if (!NAME.matcher(name).matches()) {
            throw r.at("metadata.name", "must match " + NAME.pattern());
        }
        for (String map : List.of("labels", "annotations")) {
            if (metadata.has(map)) {
                JsonNode m = object(metadata, map, "metadata.", r);
                m.fields().forEachRemaining(e -> {
                    if (!e.getValue().isTextual()) {
                        throw r.at("metadata." + map + "." + e.getKey(), "must be a string");
                    }
                });
            }
        }
        JsonNode spec = object(tree, "spec", "", r);
        only(spec, SPEC, "spec.", r);
        Map<String, ToolRef> tools = new LinkedHashMap<>();
        JsonNode list = array(spec, "tools", "spec.", r);
        for (int i = 0; i < list.size(); i++) {
            Matcher m = entry(list.get(i), TOOL, "spec.tools[" + i + "]", "tool:<exposed name>@<version>", r);
            if (tools.putIfAbsent(m.group(1), new ToolRef(m.group(1), m.group(2))) != null) {
                throw r.at("spec.tools[" + i + "]", "tool " + m.group(1) + " is listed twice");
            }
        }
        List<PolicyRef> policies = new ArrayList<>();
        if (spec.has("policies")) {
            JsonNode refs = array(spec, "policies", "spec.", r);
            for (int i = 0; i < refs.size(); i++) {
                Matcher m = entry(refs.get(i), POLICY, "spec.policies[" + i + "]", "policy:<name>@sha256:<64 hex>", r);
                String policy = m.group(1);
                if (policies.stream().anyMatch(p -> p.name().equals(policy))) {
                    throw r.at("spec.policies[" + i + "]", "policy " + policy + " is listed twice");
                }
                policies.add(new PolicyRef(policy, m.group(2)));
            }
        }
        Map<String, ServerIdentity> servers = new LinkedHashMap<>();
        if (spec.has("mcpServers")) {
            JsonNode map = object(spec, "mcpServers", "spec.", r);
            for (Iterator<Map.Entry<String, JsonNode>> it = map.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                String at = "spec.mcpServers." + e.getKey() + ".";
                if (!TenantParser.UPSTREAM_NAME.matcher(e.getKey()).matches()) {
                    throw r.at("spec.mcpServers." + e.getKey(), "is not an upstream name ("
                            + TenantParser.UPSTREAM_NAME.pattern() + ")");
                }
                JsonNode server = object(map, e.getKey(), "spec.mcpServers.", r);
                only(server, SERVER, at, r);
                JsonNode info = object(server, "serverInfo", at, r);
                only(info, SERVER_INFO, at + "serverInfo.", r);
                String serverName = text(info, "name", at + "serverInfo.", r);
                String version = info.has("version") ? text(info, "version", at + "serverInfo.", r) : null;
                String digest = server.has("toolsDigest") ? text(server, "toolsDigest", at, r) : null;
                if (digest != null && !DIGEST.matcher(digest).matches()) {
                    throw r.at(at + "toolsDigest", "must be sha256:<64 lower-case hex>");
                }
                if (serverName.isEmpty()) {
                    throw r.at(at + "serverInfo.name", "must not be empty");
                }
                servers.put(e.getKey(), new ServerIdentity(serverName, version, digest));
            }
        }
        return new ReleaseManifest(tree, name, tools, policies, servers);
    }

    /**
     * The digest of an upstream's tool declarations, as {@code spec.mcpServers.*.toolsDigest} names it:
     * {@code "sha256:" + hex(SHA-256(Domains.MCP_TOOLS + "\n" + JCS(array)))}, where the array holds, for every
     * declaration of every page of the upstream's {@code tools/list}, its pinned parts (name, title, description,
     * inputSchema, annotations: {@link ToolPinning#definition}), sorted by name (UTF-16 code units, as JCS sorts keys).
     * The upstream's own names, not the exposed ones; order and paging do not change it.
     *
     * @throws IllegalArgumentException for a declaration without a string name, or a name declared twice
     */
    public static String toolsDigest(List<? extends JsonNode> declarations) {
        List<ObjectNode> parts = new ArrayList<>(declarations.size());
        for (JsonNode d : declarations) {
            if (!(d instanceof ObjectNode o) || !(o.get("name") != null && o.get("name").isTextual())) {
                throw new IllegalArgumentException("a tool declaration is an object with a string name");
            }
            parts.add(ToolPinning.definition(o));
        }
        parts.sort(Comparator.comparing(p -> p.get("name").textValue()));
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < parts.size(); i++) {
            if (i > 0 && parts.get(i).get("name").textValue().equals(parts.get(i - 1).get("name").textValue())) {
                throw new IllegalArgumentException("tool " + parts.get(i).get("name").textValue() + " is declared twice");
            }
            array.add(parts.get(i));
        }
        return "sha256:" + Domains.hash(Domains.MCP_TOOLS, array);
    }

    public String name() {
        return name;
    }

    /** The declared tools by exposed name, in the manifest's order. */
    public Map<String, ToolRef> tools() {
        return tools;
    }

    public boolean declares(String exposedTool) {
        return tools.containsKey(exposedTool);
    }

    public List<PolicyRef> policies() {
        return policies;
    }

    /** The identities upstreams must present, by upstream name; empty when the manifest declares none. */
    public Map<String, ServerIdentity> mcpServers() {
        return mcpServers;
    }

    /** A copy of the manifest as read (its JCS is what the release hash covers). */
    public JsonNode tree() {
        return tree.deepCopy();
    }

    /** {@code sha256:<hex>}: SHA-256 over {@link Domains#RELEASE}, a newline and the JCS bytes of the manifest. */
    public String releaseHash() {
        return "sha256:" + releaseHex;
    }

    /** The release hash's 64 hex digits (the in-toto subject digest of its certifications). */
    public String releaseHex() {
        return releaseHex;
    }

    /** Builds the refusal: "what: path: problem". */
    private record Refusal(String what) {
        IllegalArgumentException at(String path, String problem) {
            return new IllegalArgumentException(what + ": " + path + " " + problem);
        }
    }

    private static void only(JsonNode o, Set<String> allowed, String at, Refusal r) {
        for (Iterator<String> it = o.fieldNames(); it.hasNext();) {
            String k = it.next();
            if (!allowed.contains(k)) {
                throw r.at(at + k, "is not a known key (expected one of " + allowed.stream().sorted().toList() + ")");
            }
        }
    }

    private static String text(JsonNode o, String key, String at, Refusal r) {
        JsonNode v = o.get(key);
        if (v == null || !v.isTextual()) {
            throw r.at(at + key, "must be a string");
        }
        return v.textValue();
    }

    private static JsonNode object(JsonNode o, String key, String at, Refusal r) {
        JsonNode v = o.get(key);
        if (v == null || !v.isObject()) {
            throw r.at(at + key, "must be an object");
        }
        return v;
    }

    private static JsonNode array(JsonNode o, String key, String at, Refusal r) {
        JsonNode v = o.get(key);
        if (v == null || !v.isArray()) {
            throw r.at(at + key, "must be a list");
        }
        return v;
    }

    private static Matcher entry(JsonNode v, Pattern p, String at, String form, Refusal r) {
        Matcher m = v != null && v.isTextual() ? p.matcher(v.textValue()) : null;
        if (m == null || !m.matches()) {
            throw r.at(at, "must be " + form);
        }
        return m;
    }
}
