package dev.cloakgate.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TenantParserTest {
    private final TenantParser parser = new TenantParser(EnvExpander.of(Map.of("CRM_TOKEN", "s3cret")), Path.of("/work"));

    @Test
    void readsBothUpstreamKindsInOrderWithEnvExpansion() throws Exception {
        TenantConfig t = parse("acme", """
                {"upstreams": {
                   "fs": {"command": "npx", "args": ["-y", "server", "/data"], "env": {"A": "b"}, "cwd": "sub"},
                   "crm": {"url": "http://crm.internal:8080/mcp", "headers": {"Authorization": "Bearer ${env:CRM_TOKEN}"}}
                 },
                 "namespace": "prefix"}""");
        assertEquals(List.of("fs", "crm"), List.copyOf(t.upstreams().keySet()));
        UpstreamConfig.Stdio fs = assertInstanceOf(UpstreamConfig.Stdio.class, t.upstreams().get("fs"));
        assertEquals(List.of("-y", "server", "/data"), fs.args());
        assertEquals(Path.of("/work/sub"), fs.cwd());
        UpstreamConfig.Http crm = assertInstanceOf(UpstreamConfig.Http.class, t.upstreams().get("crm"));
        assertEquals("Bearer s3cret", crm.headers().get("Authorization"));
        assertEquals(Namespace.PREFIX, t.namespace());
        assertEquals(64, t.digest().length());
    }

    @Test
    void unknownKeysAreRefusedWithTheirJsonPath() {
        assertEquals("$.upstreams.fs.comand", failure("{\"upstreams\":{\"fs\":{\"command\":\"x\",\"comand\":\"y\"}}}").path());
        assertEquals("$.sanitise", failure("{\"upstreams\":{\"fs\":{\"command\":\"x\"}},\"sanitise\":true}").path());
        assertEquals("$.upstreams.crm.header",
                failure("{\"upstreams\":{\"crm\":{\"url\":\"http://h/mcp\",\"header\":{}}}}").path());
    }

    @Test
    void readsThePolicyBlockWithDefaultsAndRelativeRoots() throws Exception {
        String up = "{\"upstreams\":{\"fs\":{\"command\":\"x\"}}";
        assertEquals(null, parse("acme", up + "}").policy(), "no block, no policy");
        PolicySettings d = parse("acme", up + ",\"policy\":{}}").policy();
        assertEquals(null, d.toolAllowlist());
        assertEquals(null, d.pathRoots());
        assertEquals(PolicySettings.Budget.defaults(), d.budget());
        PolicySettings p = parse("acme", up + ",\"policy\":{\"discovery\":\"strip\",\"tool_allowlist\":[],"
                + "\"path_roots\":[\"data\",\"/srv/x\"],\"egress_allowlist\":[\"example.com\"],"
                + "\"budget\":{\"tool_calls\":3},\"disable\":[\"instruction_injection\"]}}").policy();
        assertTrue(p.stripInstructions());
        assertEquals(List.of(), p.toolAllowlist(), "an empty allowlist is kept: it denies everything");
        assertEquals(List.of("/work/data", "/srv/x"), p.pathRoots());
        assertEquals(3, p.budget().toolCalls());
        assertEquals(PolicySettings.Budget.defaults().sessionCalls(), p.budget().sessionCalls());
        assertFalse(p.on("instruction_injection"));
        assertTrue(p.on("egress_control"));
    }

    @Test
    void readsPathBasesPerUpstreamAndRefusesWhatCannotBeABase() throws Exception {
        String up = "{\"upstreams\":{\"fs\":{\"command\":\"x\"},\"docs\":{\"url\":\"http://h/mcp\"}},\"policy\":";
        assertEquals(Map.of(), parse("acme", up + "{\"path_roots\":[\"/srv\"]}}").policy().pathBase());
        PolicySettings p = parse("acme", up + "{\"path_roots\":[\"/srv/root\"],"
                + "\"path_base\":{\"fs\":\"/srv\",\"docs\":\"demo\"}}}").policy();
        assertEquals(Map.of("fs", "/srv", "docs", "/work/demo"), p.pathBase(), "relative: against the working directory");
        assertTrue(p.fixesPathBase("fs"));
        assertFalse(p.fixesPathBase("other"));
        assertFalse(parse("acme", up + "{\"path_roots\":[\"/srv\"],\"path_base\":{\"fs\":\"/srv\"},"
                + "\"disable\":[\"path_sandbox\"]}}").policy().fixesPathBase("fs"), "no sandbox, no base to keep");

        assertEquals("$.policy.path_base.nope", failure(up + "{\"path_roots\":[\"/srv\"],\"path_base\":{\"nope\":\"/srv\"}}}").path());
        assertEquals("$.policy.path_base.fs", failure(up + "{\"path_roots\":[\"/srv\"],\"path_base\":{\"fs\":7}}}").path());
        assertEquals("$.policy.path_base.fs", failure(up + "{\"path_roots\":[\"/srv\"],\"path_base\":{\"fs\":\"~/x\"}}}").path());
        assertEquals("$.policy.path_base.fs", failure(up + "{\"path_roots\":[\"/srv\"],\"path_base\":{\"fs\":\" \"}}}").path());
        assertEquals("$.policy.path_base", failure(up + "{\"path_roots\":[\"/srv\"],\"path_base\":[\"/srv\"]}}").path());
        assertEquals("$.policy.path_base", failure(up + "{\"path_base\":{\"fs\":\"/srv\"}}}").path(),
                "a base without roots does nothing: refused rather than ignored");
    }

    @Test
    void theLedgerBlockOfAuditorTokensIsRefusedSayingWhereTheyMoved() {
        String up = "{\"upstreams\":{\"fs\":{\"command\":\"x\"}}";
        TenantConfigException e = failure(up + ",\"ledger\":{\"auditor_tokens_sha256\":[\"" + "a".repeat(64) + "\"]}}");
        assertEquals("$.ledger.auditor_tokens_sha256", e.path());
        assertTrue(e.getMessage().contains("auth") && e.getMessage().contains("auditor"), e.getMessage());
        assertEquals("$.ledger", failure(up + ",\"ledger\":{}}").path());
    }

    @Test
    void refusesPolicyTyposAndNonsense() {
        String up = "{\"upstreams\":{\"fs\":{\"command\":\"x\"}},\"policy\":";
        assertEquals("$.policy.tool_allow_list", failure(up + "{\"tool_allow_list\":[]}}").path());
        assertEquals("$.policy.discovery", failure(up + "{\"discovery\":\"hide\"}}").path());
        assertEquals("$.policy.disable[0]", failure(up + "{\"disable\":[\"injection\"]}}").path());
        assertEquals("$.policy.budget.tool_calls", failure(up + "{\"budget\":{\"tool_calls\":0}}}").path());
        assertEquals("$.policy.budget.calls", failure(up + "{\"budget\":{\"calls\":5}}}").path());
        assertEquals("$.policy.path_roots", failure(up + "{\"path_roots\":[]}}").path());
        assertEquals("$.policy.path_roots[0]", failure(up + "{\"path_roots\":[\"~/x\"]}}").path());
        assertEquals("$.policy.egress_allowlist[0]", failure(up + "{\"egress_allowlist\":[\"https://example.com/\"]}}").path());
    }

    @Test
    void refusesWhatCannotWork() {
        assertEquals("$.upstreams.f_s", failure("{\"upstreams\":{\"f_s\":{\"command\":\"x\"}}}").path());
        assertEquals("$.upstreams.fs", failure("{\"upstreams\":{\"fs\":{\"command\":\"x\",\"url\":\"http://h\"}}}").path());
        assertEquals("$.upstreams", failure("{\"upstreams\":{}}").path());
        assertEquals("$.upstreams", failure("{}").path());
        assertEquals("$.namespace", failure(
                "{\"upstreams\":{\"a\":{\"command\":\"x\"},\"b\":{\"command\":\"y\"}},\"namespace\":\"none\"}").path());
        assertEquals("$.namespace", failure("{\"upstreams\":{\"a\":{\"command\":\"x\"}},\"namespace\":\"flat\"}").path());
        assertEquals("$.upstreams.crm.url", failure("{\"upstreams\":{\"crm\":{\"url\":\"ftp://h/x\"}}}").path());
        assertEquals("$.upstreams.crm.headers.Host",
                failure("{\"upstreams\":{\"crm\":{\"url\":\"http://h/\",\"headers\":{\"Host\":\"x\"}}}}").path());
        assertEquals("$", failure("{\"upstreams\":{\"a\":{\"command\":\"x\"}},\"upstreams\":{}}").path());
    }

    @Test
    void missingEnvironmentVariableIsAnErrorNotAnEmptyCredential() {
        TenantConfigException e = failure(
                "{\"upstreams\":{\"crm\":{\"url\":\"http://h/\",\"headers\":{\"Authorization\":\"${env:NOPE}\"}}}}");
        assertEquals("$.upstreams.crm.headers.Authorization", e.path());
        assertTrue(e.getMessage().contains("NOPE"));
    }

    @Test
    void cloakingSettingsAreReadAndTheirTyposRefused() throws Exception {
        TenantConfig t = parse("c", """
                {"upstreams": {"fs": {"command": "x"}}, "sanitize": true, "token_scope": "upstream",
                 "vault_max_entries": 500,
                 "detection": {"detect_ip_addresses": false, "phone_regions": ["FR", "DE"], "key_hints": false,
                               "ner_entity_types": ["PERSON", "ORGANIZATION"],
                               "ner_models": {"ORGANIZATION": "models/org.bin"}, "person_model": "models/p.bin"}}""");
        assertTrue(t.sanitize());
        assertEquals(TokenScope.UPSTREAM, t.tokenScope());
        assertEquals(500, t.vaultMaxEntries());
        DetectionSettings d = t.detection();
        assertFalse(d.ipAddresses());
        assertTrue(d.emails() && d.secrets());
        assertEquals(List.of("FR", "DE"), d.phoneRegions());
        assertEquals(java.util.Set.of("PERSON", "ORGANIZATION"), d.nerEntityTypes());
        assertEquals(Path.of("/work/models/org.bin"), d.nerModels().get("ORGANIZATION"));
        assertEquals(Path.of("/work/models/p.bin"), d.personModel());

        TenantConfig defaults = parse("d", "{\"upstreams\": {\"fs\": {\"command\": \"x\"}}}");
        assertTrue(defaults.sanitize(), "cloaking is on unless a tenant turns it off");
        assertEquals(TokenScope.SESSION, defaults.tokenScope());
        assertEquals(java.util.Set.of("PERSON"), defaults.detection().nerEntityTypes());

        // the worst failure available is a typo the operator believes turned a category on or off
        assertEquals("$.detection.detect_ip_adresses", failure(
                "{\"upstreams\":{\"fs\":{\"command\":\"x\"}},\"detection\":{\"detect_ip_adresses\":false}}").path());
        assertEquals("$.detection.ner_entity_types", failure(
                "{\"upstreams\":{\"fs\":{\"command\":\"x\"}},\"detection\":{\"ner_entity_types\":[\"GPE\"]}}").path());
        assertEquals("$.detection.ner_entity_types", failure(
                "{\"upstreams\":{\"fs\":{\"command\":\"x\"}},\"detection\":{\"ner_entity_types\":[\"LOCATION\"]}}").path(),
                "a type without a model is refused, not silently off");
        assertEquals("$.detection.detect_emails", failure(
                "{\"upstreams\":{\"fs\":{\"command\":\"x\"}},\"detection\":{\"detect_emails\":\"no\"}}").path());
        assertEquals("$.detection.phone_regions", failure(
                "{\"upstreams\":{\"fs\":{\"command\":\"x\"}},\"detection\":{\"phone_regions\":[\"France\"]}}").path());
        assertEquals("$.token_scope", failure("{\"upstreams\":{\"fs\":{\"command\":\"x\"}},\"token_scope\":\"tenant\"}").path());
        assertEquals("$.sanitize", failure("{\"upstreams\":{\"fs\":{\"command\":\"x\"}},\"sanitize\":\"yes\"}").path());
    }

    @Test
    void namespaceNoneWithOneUpstream() throws Exception {
        assertEquals(Namespace.NONE, parse("solo", "{\"upstreams\":{\"a\":{\"command\":\"x\"}},\"namespace\":\"none\"}")
                .namespace());
    }

    @Test
    void registryNamesTheBadFileAndRefusesBadTenantNames(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("good.json"), "{\"upstreams\":{\"a\":{\"command\":\"x\"}},\"auth\":{\"mode\":\"none\"}}");
        assertEquals(1, TenantRegistry.load(dir, parser).all().size());
        Files.writeString(dir.resolve("Bad_Name.json"), "{\"upstreams\":{\"a\":{\"command\":\"x\"}}}");
        TenantConfigException e = assertThrows(TenantConfigException.class, () -> TenantRegistry.load(dir, parser));
        assertTrue(e.file().endsWith("Bad_Name.json"), e.file());
    }

    /** Parses a tenant file; one without an auth block gets {@code "auth": {"mode": "none"}} (AuthBlockParserTest has auth). */
    private TenantConfig parse(String name, String json) throws TenantConfigException {
        String file = json;
        if (!json.contains("\"auth\"") && !json.contains("\"ledger\"") && json.startsWith("{")) {
            String rest = json.substring(1);
            file = "{\"auth\":{\"mode\":\"none\"}" + (rest.strip().startsWith("}") ? "" : ",") + rest;
        }
        return parser.parse(name, name + ".json", file.getBytes(StandardCharsets.UTF_8));
    }

    private TenantConfigException failure(String json) {
        return assertThrows(TenantConfigException.class, () -> parse("t", json));
    }
}
