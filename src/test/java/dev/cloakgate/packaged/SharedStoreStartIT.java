package dev.cloakgate.packaged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.TextNode;

import dev.cloakgate.testing.GatewayProcess;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.NodeFixtures;
import dev.cloakgate.testing.TestPostgres;

/**
 * Issue 17: {@code cloakgate.store} and the datasource must agree. {@code postgresql} with a reachable database starts
 * and reports the database in readiness; every disagreement stops the start with its code, so replicas never keep
 * their own state while the operator believes it is shared.
 */
class SharedStoreStartIT {

    private static List<String> base(Path dir) throws Exception {
        Path tenants = Files.createDirectories(dir.resolve("tenants"));
        Files.writeString(tenants.resolve("team-s.json"), "{\"upstreams\":{\"alpha\":{\"command\":\"node\",\"args\":["
                + Json.write(TextNode.valueOf(NodeFixtures.PROBE.toString())) + ",\"stdio\"]}},\"sanitize\":false,"
                + "\"auth\":{\"mode\":\"none\"}}");
        List<String> props = new ArrayList<>(List.of("-Dcloakgate.tenants-dir=" + tenants,
                "-Dcloakgate.data-dir=" + dir.resolve("data"), "-Dcloakgate.ledger.dev-key=true"));
        return props;
    }

    @Test
    void postgresqlWithADatabaseStartsAndReadinessIncludesIt(@TempDir Path dir) throws Exception {
        List<String> props = base(dir);
        props.addAll(TestPostgres.server().database("start").gatewayProperties());
        props.add("-Dcloakgate.cluster.key-file=" + clusterKey(dir)); // issue 17, shared stores: seals the tenant secrets
        try (GatewayProcess gw = GatewayProcess.start(props)) {
            assertTrue(gw.awaitReady(Duration.ofSeconds(120)), gw.log());
            HttpResponse<String> ready = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(gw.managementUrl("/q/health/ready")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, ready.statusCode(), ready.body());
            assertTrue(ready.body().contains("Database connections health check"), ready.body());
            assertTrue(gw.log().contains("store: postgresql"), gw.log());
        }
    }

    @Test
    void postgresqlWithoutAUrlStopsTheStart(@TempDir Path dir) throws Exception {
        List<String> props = base(dir);
        props.add("-Dcloakgate.store=postgresql");
        assertRefused(props, "store_postgresql_url_missing: cloakgate.store=postgresql needs the database");
    }

    @Test
    void aUrlWithTheSqliteDefaultStopsTheStart(@TempDir Path dir) throws Exception {
        List<String> props = base(dir);
        TestPostgres.Database db = TestPostgres.server().database("mismatch");
        props.add("-Dquarkus.datasource.jdbc.url=" + db.url());
        props.add("-Dquarkus.datasource.username=" + db.user());
        props.add("-Dquarkus.datasource.password=" + db.password());
        assertRefused(props, "store_mismatch: quarkus.datasource.jdbc.url is set but cloakgate.store is sqlite");
    }

    @Test
    void anUnknownStoreStopsTheStart(@TempDir Path dir) throws Exception {
        List<String> props = base(dir);
        props.add("-Dcloakgate.store=mysql");
        assertRefused(props, "store_invalid: cloakgate.store must be sqlite or postgresql");
    }

    @Test
    void theCheckSaysWhatTheStartWould(@TempDir Path dir) throws Exception {
        List<String> props = base(dir);
        GatewayProcess.Result ok = GatewayProcess.run(props, "--check");
        assertEquals(0, ok.exit(), ok.output());
        assertTrue(ok.output().contains("ok: store sqlite"), ok.output());
        props.add("-Dcloakgate.store=postgresql");
        GatewayProcess.Result missing = GatewayProcess.run(props, "--check");
        assertNotEquals(0, missing.exit(), missing.output());
        assertTrue(missing.output().contains("store_postgresql_url_missing"), missing.output());
    }

    // ---- issue 17, shared stores: tenant secrets are sealed under the cluster key ----
    @Test
    void postgresqlWithoutAClusterKeyStopsTheStart(@TempDir Path dir) throws Exception {
        List<String> props = base(dir);
        props.addAll(TestPostgres.server().database("nokey").gatewayProperties());
        assertRefused(props, "cluster_key_missing: cloakgate.store=postgresql keeps each tenant's secret in the shared database");
    }

    private static String clusterKey(Path dir) throws Exception {
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        return Files.writeString(dir.resolve("cluster.key"), java.util.Base64.getEncoder().encodeToString(key)).toString();
    }
    // ---- end issue 17, shared stores ----

    private static void assertRefused(List<String> props, String expected) throws Exception {
        try (GatewayProcess gw = GatewayProcess.start(props)) {
            assertNotEquals(0, gw.awaitExit(Duration.ofSeconds(120)), gw.log());
            assertTrue(gw.log().contains(expected), gw.log());
        }
    }
}
