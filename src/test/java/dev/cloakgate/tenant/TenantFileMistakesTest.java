package dev.cloakgate.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mistakes people make in tenant files, reported as a person would fix them (issue 10). */
class TenantFileMistakesTest {
    /** Every tenant file says who may call it (issue 10, identity); these say anyone. */
    private static final String OPEN = "\"auth\":{\"mode\":\"none\"}";
    private final TenantParser parser = new TenantParser(EnvExpander.of(Map.of()), Path.of("/work"));

    private TenantConfigException failure(String json) {
        return assertThrows(TenantConfigException.class,
                () -> parser.parse("t", "t.json", json.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<String> paths(TenantConfigException e) {
        return e.problems().stream().map(TenantConfigException.Problem::path).toList();
    }

    @Test
    void aMisspeltCommandIsReportedAsTheUnknownKeyItIs() {
        TenantConfigException e = failure("{\"upstreams\":{\"x\":{\"comand\":\"npx\",\"args\":[]}}," + OPEN + "}");
        assertEquals(List.of("$.upstreams.x.comand"), paths(e), e.getMessage());
        assertTrue(e.getMessage().contains("unknown key"), e.getMessage());
        assertFalse(e.getMessage().contains("exactly one"), "the typo explains the missing command: " + e.getMessage());
        // with neither key and no typo, the rule itself is what to say
        assertEquals(List.of("$.upstreams.x"), paths(failure("{\"upstreams\":{\"x\":{\"args\":[]}}," + OPEN + "}")));
    }

    @Test
    void everyProblemOfAFileIsReportedUnknownKeysFirst() {
        TenantConfigException e = failure("""
                {"upstreams": {"a": {"command": "x", "args": [1]}, "b_c": {"command": "y"},
                               "d": {"url": "ftp://h/"}},
                 "namespace": "flat", "sanitise": true, "token_scope": "tenant",
                 "policy": {"discovery": "hide", "path_roots": ["~/x"], "budget": {"tool_calls": 0, "calls": 1}},
                 "ledger": {"auditor_tokens_sha256": ["not-a-hash"]}, "auth": {"mode": "none"}}""");
        List<String> paths = paths(e);
        assertEquals(List.of("$.sanitise", "$.policy.budget.calls"), paths.subList(0, 2), e.getMessage());
        for (String p : List.of("$.upstreams.a.args[0]", "$.upstreams.b_c", "$.upstreams.d.url", "$.namespace",
                "$.token_scope", "$.policy.discovery", "$.policy.path_roots[0]", "$.policy.budget.tool_calls",
                "$.ledger.auditor_tokens_sha256")) {
            assertTrue(paths.contains(p), p + " missing from " + paths);
        }
        assertEquals(11, paths.size(), e.getMessage());
        assertTrue(e.getMessage().startsWith("11 problems:"), e.getMessage());
        assertFalse(e.getMessage().contains("not-a-hash"), "a value is never quoted back: " + e.getMessage());
    }

    @Test
    void badJsonSaysWhatIsWrongWithoutQuotingTheFile() {
        Map<String, String> cases = Map.of(
                "{\"upstreams\": {\"a\": {\"command\": \"x\"},}}", "trailing comma",
                "{\"upstreams\": {\"a\": {\"command\": \"hunter2-secret", "unterminated string",
                "{\"upstreams\": {'a': {}}}", "single quote",
                "{\"upstreams\": {\"a\": {\"command\": hunter2}}}", "unquoted word",
                "{\"upstreams\": {\"a\": {\"command\": \"x\"} \"b\": {}}}", "missing comma",
                "// hunter2\n{}", "comment",
                "{\"upstreams\": {\"a\": {\"command\": \"x\"}}", "before every { and [ is closed",
                "{\"upstreams\": {}}}", "nothing open to close");
        cases.forEach((json, what) -> {
            TenantConfigException e = failure(json);
            assertEquals("$", e.path());
            assertTrue(e.getMessage().contains(what) && e.getMessage().contains("line "), json + " -> " + e.getMessage());
            assertFalse(e.getMessage().contains("hunter2"), "the file's content is not quoted: " + e.getMessage());
        });
        TenantConfigException trailing = failure("{\n  \"upstreams\": {\n    \"a\": {\"command\": \"x\"},\n  }\n}");
        assertTrue(trailing.getMessage().contains("line 4, column 3"), trailing.getMessage());
    }

    @Test
    void relativePathRootsStayAllowedAgainstTheWorkingDirectory() throws Exception {
        TenantConfig t = parser.parse("t", "t.json", ("{\"upstreams\":{\"fs\":{\"command\":\"x\"}},\"policy\":{\"path_roots\":[\"demo\"]},"
                + OPEN + "}").getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("/work/demo"), t.policy().pathRoots());
    }

    @Test
    void theRegistryReportsEveryProblemOfEveryFile(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("good.json"), "{\"upstreams\":{\"a\":{\"command\":\"x\"}}," + OPEN + "}");
        Files.writeString(dir.resolve("one.json"), "{\"upstreams\":{\"a\":{\"comand\":\"x\"}},\"sanitise\":1," + OPEN + "}");
        Files.writeString(dir.resolve("two.json"), "{\"upstreams\":{\"a\":{\"command\":\"x\"},}}");
        TenantConfigException e = assertThrows(TenantConfigException.class, () -> TenantRegistry.load(dir, parser));
        assertEquals(3, e.problems().size(), e.getMessage());
        assertTrue(e.getMessage().contains("one.json: $.upstreams.a.comand") && e.getMessage().contains("one.json: $.sanitise")
                && e.getMessage().contains("two.json: $: not valid JSON"), e.getMessage());
        TenantRegistry.Read read = TenantRegistry.read(dir, parser);
        assertEquals(List.of("good"), List.copyOf(read.valid().all().keySet()), "what is valid is still read");
    }

    @Test
    void aCommandIsLookedUpAsTheJdkStartsIt(@TempDir Path dir) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path tool = Files.writeString(bin.resolve("mytool"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
        CommandLocator onPath = new CommandLocator(bin.toString(), dir);
        CommandLocator elsewhere = new CommandLocator("/nonexistent", dir);
        assertNull(onPath.warning(stdio("mytool", Map.of(), null)));
        assertTrue(elsewhere.warning(stdio("mytool", Map.of(), null)).contains("not found on the gateway's PATH"));
        assertTrue(elsewhere.warning(stdio("mytool", Map.of("PATH", bin.toString()), null)).contains("only on the upstream's env PATH"),
                "the JDK searches the gateway's PATH, not the child's");
        assertNull(elsewhere.warning(stdio("bin/mytool", Map.of(), null)), "a relative path, against the working directory");
        assertNull(elsewhere.warning(stdio("./mytool", Map.of(), bin)), "against the upstream's cwd");
        assertTrue(elsewhere.warning(stdio("bin/other", Map.of(), null)).contains("not an executable file"));
        Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rw-r--r--"));
        assertTrue(onPath.warning(stdio("mytool", Map.of(), null)) != null, "not executable");
    }

    private static UpstreamConfig.Stdio stdio(String command, Map<String, String> env, Path cwd) {
        return new UpstreamConfig.Stdio("u", command, List.of(), env, cwd);
    }
}
