package dev.cloakgate.policy.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.policy.Action;
import dev.cloakgate.policy.Decision;
import dev.cloakgate.policy.Policy;
import dev.cloakgate.policy.PolicySession;
import dev.cloakgate.policy.control.StandardControls;
import dev.cloakgate.tenant.EnvExpander;
import dev.cloakgate.tenant.TenantConfig;
import dev.cloakgate.tenant.TenantParser;

/**
 * The README's demo under the demo tenant's own policy: every file the demo serves passes the response stage as
 * a read_text_file result. A detector change that refuses the demo's data (a CSV row read as a request, once)
 * fails here instead of in the first command a new user runs.
 */
class DemoFilesPolicyTest {
    private static final ObjectMapper M = new ObjectMapper();

    @Test
    void everyDemoFilePassesTheDemoPolicy() throws Exception {
        // parsed as the gateway parses it, relative roots against the working directory the README starts it in
        TenantConfig demo = new TenantParser(EnvExpander.ofSystem(), Path.of("").toAbsolutePath()).parse("demo",
                "demo.json", Files.readAllBytes(Path.of("config/tenants/demo.json")));
        List<Path> files;
        try (Stream<Path> walk = Files.walk(Path.of("demo"))) {
            files = walk.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().equals("README.md"))
                    .sorted().toList();
        }
        assertTrue(files.size() >= 2, files::toString);
        try (Policy policy = Policy.create("demo", List.copyOf(demo.upstreams().keySet()), demo.policy(),
                Files.createTempDirectory("demo-policy"), null, new StandardControls())) {
            PolicySession s = policy.session("demo-files");
            for (Path f : files) {
                ObjectNode result = M.createObjectNode();
                result.putArray("content").addObject().put("type", "text")
                        .put("text", Files.readString(f, StandardCharsets.UTF_8));
                Decision d = s.response("fs__read_text_file", "fs", "read_text_file", result, false);
                assertEquals(Action.ALLOW, d.action(), () -> f + " -> " + d);
            }
        }
    }
}
