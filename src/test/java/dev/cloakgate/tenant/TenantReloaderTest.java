package dev.cloakgate.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * What a reload does with each file the watcher reports, and the status an operator reads: a valid file is
 * swapped in, a refused one leaves the previous configuration serving and is kept with its file, JSON path and a
 * message without the file's values, an undone edit clears it, a removed file stops new sessions.
 */
class TenantReloaderTest {
    private static final Path DIR = Path.of("/srv/tenants");
    private final TenantParser parser = new TenantParser(EnvExpander.of(Map.of()), Path.of("/work"));
    private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    private final List<String> activated = new ArrayList<>();
    private final List<String> removed = new ArrayList<>();
    /** A config whose first upstream has this name is refused by the activation (as a failed self-check is). */
    private static final String REFUSED_BY_ACTIVATION = "broken";

    private final TenantReloader.Activation activation = new TenantReloader.Activation() {
        @Override
        public void activate(TenantConfig config, String file) throws TenantConfigException {
            if (config.upstreams().containsKey(REFUSED_BY_ACTIVATION)) {
                throw new TenantConfigException(file, "$.detection", "detection self-check failed");
            }
            activated.add(config.name() + " " + config.digest());
        }

        @Override
        public void removed(String tenant, String file) {
            removed.add(tenant);
        }
    };

    private static String file(String upstream, String extra) {
        return "{\"upstreams\":{\"" + upstream + "\":{\"command\":\"node\",\"args\":[\"server.mjs\"]}},"
                + "\"auth\":{\"mode\":\"none\"}" + extra + "}";
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private double count(String tenant, String outcome) {
        var c = metrics.find("cloakgate.config.reloads").tag("tenant", tenant).tag("outcome", outcome).counter();
        return c == null ? 0 : c.count();
    }

    private TenantRegistry start(String content) throws TenantConfigException {
        return TenantRegistry.of(parser.parse("acme", DIR.resolve("acme.json").toString(), bytes(content)));
    }

    private TenantReloader reloader(TenantRegistry registry) {
        return new TenantReloader(registry, parser, activation, metrics,
                Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC));
    }

    @Test
    void aValidFileIsSwappedInWhole() throws Exception {
        TenantRegistry registry = start(file("fs", ""));
        TenantReloader r = reloader(registry);
        String v2 = file("fs", ",\"namespace\":\"none\"");
        r.written("acme", DIR.resolve("acme.json"), bytes(v2));
        TenantConfig now = registry.get("acme").orElseThrow();
        assertEquals(Namespace.NONE, now.namespace());
        assertEquals(List.of("acme " + TenantParser.sha256(bytes(v2))), activated);
        TenantStatus s = registry.status("acme").orElseThrow();
        assertEquals(TenantParser.sha256(bytes(v2)), s.digest());
        assertEquals(Instant.parse("2026-12-01T10:00:00Z"), s.loadedAt());
        assertTrue(s.acceptingSessions());
        assertFalse(s.fileRejected());
        assertEquals(1, count("acme", "accepted"));
    }

    @Test
    void aRefusedFileLeavesTheOldConfigurationServingAndSaysWhereWithoutItsValues() throws Exception {
        String v1 = file("fs", "");
        TenantRegistry registry = start(v1);
        TenantConfig before = registry.get("acme").orElseThrow();
        TenantReloader r = reloader(registry);

        // a value of the file in the problem: the unknown control's name is the operator's text, not the gateway's
        String bad = file("fs", ",\"policy\":{\"disable\":[\"injection_scan-7731\"]}");
        r.written("acme", DIR.resolve("acme.json"), bytes(bad));
        assertTrue(registry.get("acme").orElseThrow() == before, "the previous configuration still serves");
        assertTrue(activated.isEmpty(), "nothing was built from the refused file");
        TenantStatus s = registry.status("acme").orElseThrow();
        assertTrue(s.fileRejected());
        assertTrue(s.acceptingSessions());
        assertEquals(before.digest(), s.digest());
        TenantStatus.Rejection why = s.lastRejected();
        assertNotNull(why);
        assertEquals(DIR.resolve("acme.json").toString(), why.file());
        assertEquals("$.policy.disable[0]", why.path());
        assertTrue(why.message().contains("unknown control"), why.message());
        assertFalse(why.message().contains("injection_scan-7731"), "no value of the file: " + why.message());
        assertEquals(TenantParser.sha256(bytes(bad)), why.digest());
        assertEquals(1, count("acme", "rejected"));

        // the edit undone: the file is again what serves, the last refusal stays on record
        r.written("acme", DIR.resolve("acme.json"), bytes(v1));
        s = registry.status("acme").orElseThrow();
        assertFalse(s.fileRejected());
        assertNotNull(s.lastRejected());
        assertEquals(0, count("acme", "accepted"), "nothing was reloaded");
    }

    @Test
    void whatTheActivationRefusesIsRefusedLikeABadFile() throws Exception {
        TenantRegistry registry = start(file("fs", ""));
        TenantConfig before = registry.get("acme").orElseThrow();
        reloader(registry).written("acme", DIR.resolve("acme.json"), bytes(file(REFUSED_BY_ACTIVATION, "")));
        assertTrue(registry.get("acme").orElseThrow() == before);
        assertEquals("$.detection", registry.status("acme").orElseThrow().lastRejected().path());
        assertEquals(1, count("acme", "rejected"));
    }

    @Test
    void aRemovedFileTakesNoNewSessionsAndItsReturnIsAReload() throws Exception {
        String v1 = file("fs", "");
        TenantRegistry registry = start(v1);
        TenantReloader r = reloader(registry);
        r.removed("acme", DIR.resolve("acme.json"));
        assertTrue(registry.get("acme").isEmpty(), "no new sessions");
        assertFalse(registry.accepting("acme"));
        assertTrue(registry.lastAccepted("acme").isPresent(), "existing sessions still find their configuration");
        TenantStatus s = registry.status("acme").orElseThrow();
        assertFalse(s.acceptingSessions());
        assertNotNull(s.removedAt());
        assertEquals(List.of("acme"), removed);
        assertEquals(1, count("acme", "removed"));

        r.written("acme", DIR.resolve("acme.json"), bytes(v1)); // the same file back: loaded again
        assertTrue(registry.accepting("acme"));
        assertNull(registry.status("acme").orElseThrow().removedAt());
        assertEquals(1, count("acme", "accepted"));
    }

    @Test
    void aNewFileAddsATenantUnlessItIsInvalid() throws Exception {
        TenantRegistry registry = start(file("fs", ""));
        TenantReloader r = reloader(registry);
        r.written("beta", DIR.resolve("beta.json"), bytes(file("crm", "")));
        assertTrue(registry.accepting("beta"));
        assertEquals(List.of("acme", "beta"), List.copyOf(registry.all().keySet()));

        r.written("gamma", DIR.resolve("gamma.json"), bytes("{\"upstreams\":{},\"auth\":{\"mode\":\"none\"}}"));
        assertFalse(registry.accepting("gamma"));
        TenantStatus g = registry.status("gamma").orElseThrow();
        assertNull(g.digest(), "never accepted");
        assertEquals("$.upstreams", g.lastRejected().path());

        r.written("Bad Name", DIR.resolve("Bad Name.json"), bytes(file("fs", "")));
        assertFalse(registry.accepting("Bad Name"));
        assertEquals(1, count("~invalid", "rejected"), "a file name that is no tenant name is not a label");
    }

    @Test
    void everyOutcomeIsCountedFromZeroBeforeAnyReload() throws Exception {
        TenantRegistry registry = start(file("fs", ""));
        TenantReloader r = reloader(registry);
        for (String outcome : List.of("accepted", "rejected", "removed")) {
            assertNotNull(metrics.find("cloakgate.config.reloads").tag("tenant", "acme").tag("outcome", outcome).counter(),
                    "a scrape shows " + outcome + " at 0 before the first reload");
        }
        r.written("beta", DIR.resolve("beta.json"), bytes(file("crm", "")));
        assertEquals(1, count("beta", "accepted"));
        assertNotNull(metrics.find("cloakgate.config.reloads").tag("tenant", "beta").tag("outcome", "rejected").counter(),
                "and for a tenant added while running");
        assertEquals(0, count("acme", "accepted"));
    }
}
