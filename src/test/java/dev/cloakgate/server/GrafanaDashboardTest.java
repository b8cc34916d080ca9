package dev.cloakgate.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.Metrics;

/**
 * The shipped Grafana dashboard (issue 10) queries only metrics the README documents, under the names they are
 * exposed as, and shows every one of them: a renamed or undocumented metric would leave a panel silently empty.
 */
class GrafanaDashboardTest {
    private static final Path DASHBOARD = Path.of("docs/grafana/cloakgate.json");
    private static final Pattern NAME = Pattern.compile("\\bcloakgate_[a-z0-9_]+");

    @Test
    void everyQueryUsesDocumentedMetricsAndEveryDocumentedMetricIsShown() throws Exception {
        JsonNode dashboard = Json.parse(Files.readString(DASHBOARD));
        Map<String, String> documented = Metrics.documented();
        Set<String> exposed = new TreeSet<>();
        documented.forEach((name, type) -> exposed.addAll(Metrics.exposedAs(name, type)));

        List<String> queries = new ArrayList<>();
        collect(dashboard, queries);
        assertTrue(queries.size() >= 20, "the dashboard's queries were found: " + queries);
        Set<String> undocumented = new TreeSet<>();
        Set<String> shown = new TreeSet<>();
        for (String q : queries) {
            Matcher m = NAME.matcher(q);
            while (m.find()) {
                String n = m.group();
                if (exposed.contains(n)) {
                    shown.add(documented.containsKey(n) ? n : n.substring(0, n.lastIndexOf('_')));
                } else {
                    undocumented.add(n);
                }
            }
        }
        assertEquals(Set.of(), undocumented, "queried by the dashboard but not documented in README.md (Metrics)");
        Set<String> notShown = new TreeSet<>(documented.keySet());
        notShown.removeAll(shown);
        assertEquals(Set.of(), notShown, "documented in README.md (Metrics) but on no panel of " + DASHBOARD);
    }

    /** Every PromQL text: panel targets ({@code expr}) and template variable queries. */
    private static void collect(JsonNode node, List<String> out) {
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> {
                if (("expr".equals(e.getKey()) || "query".equals(e.getKey()) || "definition".equals(e.getKey()))
                        && e.getValue().isTextual()) {
                    out.add(e.getValue().asText());
                } else {
                    collect(e.getValue(), out);
                }
            });
        } else if (node.isArray()) {
            node.forEach(n -> collect(n, out));
        }
    }
}
