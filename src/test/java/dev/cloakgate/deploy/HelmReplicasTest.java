package dev.cloakgate.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;

/**
 * Issue 17: {@code replicas > 1} renders a cluster (shared state in PostgreSQL, the replicas' shared key, a stable
 * identity per pod, peer URLs through a headless Service) or nothing at all: the chart refuses to render a second
 * replica that would keep its own state behind the same Service.
 */
class HelmReplicasTest {
    @TempDir
    Path tmp;

    private Path values(String yaml) throws Exception {
        Path v = Files.createTempFile(tmp, "values", ".yaml");
        Files.writeString(v, yaml);
        return v;
    }

    private static Map<String, EnvVar> env(HelmChart.Rendered r) {
        return HelmChartTest.env(HelmChartTest.onlyContainer(r.one(StatefulSet.class).getSpec().getTemplate().getSpec()));
    }

    @Test
    void threeReplicasShareStateAndKnowTheirPeers() {
        HelmChart.Rendered r = HelmChart.render("gw", "team-a", HelmChart.VALUES.resolve("replicas.yaml"));
        StatefulSet sts = r.one(StatefulSet.class);
        assertEquals(3, sts.getSpec().getReplicas());
        assertEquals("gw-cloakgate-peers", sts.getSpec().getServiceName(), "pods are named through the headless Service");

        Service peers = r.all(Service.class).stream().filter(s -> s.getMetadata().getName().equals("gw-cloakgate-peers"))
                .findFirst().orElseThrow();
        assertEquals("None", peers.getSpec().getClusterIP(), "headless: one DNS name per pod");
        assertTrue(peers.getSpec().getPublishNotReadyAddresses(), "a draining owner still receives its sessions' requests");
        assertEquals(sts.getSpec().getSelector().getMatchLabels(), peers.getSpec().getSelector());
        Service agents = r.all(Service.class).stream().filter(s -> s.getMetadata().getName().equals("gw-cloakgate"))
                .findFirst().orElseThrow();
        String affinity = agents.getSpec().getSessionAffinity();
        assertTrue(affinity == null || affinity.equals("None"), "no sticky sessions needed: requests are forwarded");

        Map<String, EnvVar> env = env(r);
        assertEquals("postgresql", env.get("CLOAKGATE_STORE").getValue());
        assertEquals("jdbc:postgresql://pg-rw.team-a.svc:5432/app", env.get("QUARKUS_DATASOURCE_JDBC_URL").getValue());
        assertEquals("pg-app", env.get("QUARKUS_DATASOURCE_USERNAME").getValueFrom().getSecretKeyRef().getName());
        assertEquals("username", env.get("QUARKUS_DATASOURCE_USERNAME").getValueFrom().getSecretKeyRef().getKey());
        var password = env.get("QUARKUS_DATASOURCE_PASSWORD").getValueFrom().getSecretKeyRef();
        assertEquals("pg-app", password.getName());
        assertEquals("password", password.getKey());
        assertEquals("metadata.name", env.get("CLOAKGATE_CLUSTER_REPLICA_ID").getValueFrom().getFieldRef().getFieldPath());
        assertEquals("/var/run/secrets/cloakgate/cluster-key", env.get("CLOAKGATE_CLUSTER_KEY_FILE").getValue());
        assertEquals("http://{replica}.gw-cloakgate-peers.team-a.svc.cluster.local:8080",
                env.get("CLOAKGATE_CLUSTER_PEER_URL").getValue());
        assertEquals("3", env.get("CLOAKGATE_CLUSTER_REPLICAS").getValue());
        assertTrue(r.one(Secret.class).getData().containsKey("cluster-key"), "the shared key is mounted with the signing key");

        GenericKubernetesResource pdb = (GenericKubernetesResource) r.ofKind("PodDisruptionBudget").get(0);
        JsonNode spec = HelmChart.YAML.valueToTree(pdb.getAdditionalProperties().get("spec"));
        assertEquals(1, spec.get("maxUnavailable").asInt());
    }

    @Test
    void theGatewaysCheckAcceptsTheClusterThePodIsGiven() {
        HelmChart.Rendered r = HelmChart.render("gw", "team-a", HelmChart.VALUES.resolve("replicas.yaml"));
        PodFiles.Result res = PodFiles.lay(r, Map.of("pg-app", Map.of("username", "app", "password", "pw")),
                tmp.resolve("root")).run("--check");
        assertEquals(0, res.exit(), () -> res.out() + res.err());
        assertTrue(res.out().contains("ok: store postgresql"), res::out);
    }

    @Test
    void thePolicyAdmitsThePeersAndTheDatabaseAndNothingMore() {
        NetworkPolicy np = HelmChart.render("gw", "team-a", HelmChart.VALUES.resolve("replicas.yaml")).one(NetworkPolicy.class);
        Map<String, String> self = Map.of("app.kubernetes.io/name", "cloakgate", "app.kubernetes.io/instance", "gw");
        List<NetworkPolicyIngressRule> fromPeers = np.getSpec().getIngress().stream()
                .filter(i -> i.getFrom() != null && i.getFrom().stream().anyMatch(p -> p.getPodSelector() != null
                        && self.equals(p.getPodSelector().getMatchLabels())))
                .toList();
        assertEquals(1, fromPeers.size(), "forwarded requests from the release's own pods");
        List<NetworkPolicyEgressRule> egress = np.getSpec().getEgress();
        assertTrue(egress.stream().anyMatch(e -> e.getTo().stream().anyMatch(p -> p.getPodSelector() != null
                && self.equals(p.getPodSelector().getMatchLabels()))
                && e.getPorts().get(0).getPort().getIntVal() == 8080), "forwarding to the owner's MCP port");
        assertTrue(egress.stream().anyMatch(e -> e.getTo().stream().anyMatch(p -> p.getPodSelector() != null
                && Map.of("cnpg.io/cluster", "pg").equals(p.getPodSelector().getMatchLabels()))
                && e.getPorts().get(0).getPort().getIntVal() == 5432), "the database on the URL's port");
        // DNS, the one upstream, the peers, the database
        assertEquals(4, egress.size(), () -> egress.toString());
    }

    @Test
    void aSecondReplicaWithoutSharedStateIsNotRendered() throws Exception {
        Exception noDb = assertThrows(Exception.class, () -> HelmChart.template("gw", "team-a", values("replicas: 2\n")));
        assertTrue(noDb.getMessage().contains("replicas > 1 needs postgresql.url"), noDb::getMessage);

        Exception noKey = assertThrows(Exception.class, () -> HelmChart.template("gw", "team-a", values("""
                replicas: 2
                postgresql: { url: "jdbc:postgresql://pg:5432/app", username: app, existingSecret: pg-app }
                secrets: { ledgerSigningKey: "1111111111111111111111111111111111111111111111111111111111111111" }
                """)));
        assertTrue(noKey.getMessage().contains("replicas > 1 needs secrets.clusterKey"), noKey::getMessage);

        Exception noSigningKey = assertThrows(Exception.class, () -> HelmChart.template("gw", "team-a", values("""
                replicas: 2
                postgresql: { url: "jdbc:postgresql://pg:5432/app", username: app, existingSecret: pg-app }
                secrets: { clusterKey: "q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=" }
                """)));
        assertTrue(noSigningKey.getMessage().contains("replicas > 1 needs secrets.ledgerSigningKey"), noSigningKey::getMessage);

        Exception noPassword = assertThrows(Exception.class, () -> HelmChart.template("gw", "team-a", values("""
                postgresql: { url: "jdbc:postgresql://pg:5432/app", username: app }
                """)));
        assertTrue(noPassword.getMessage().contains("postgresql.url needs postgresql.existingSecret"), noPassword::getMessage);

        Exception notJdbc = assertThrows(Exception.class, () -> HelmChart.template("gw", "team-a", values("""
                postgresql: { url: "postgres://pg:5432/app", username: app, existingSecret: pg-app }
                """)));
        assertTrue(notJdbc.getMessage().contains("postgresql.url must be a JDBC URL"), notJdbc::getMessage);

        Exception unselectable = assertThrows(Exception.class, () -> HelmChart.template("gw", "team-a", values("""
                postgresql: { url: "jdbc:postgresql://pg.team-a.svc:5432/app", username: app, existingSecret: pg-app }
                networkPolicy: { enabled: true }
                """)));
        assertTrue(unselectable.getMessage().contains("add networkPolicy.postgresql.to"), unselectable::getMessage);
    }

    @Test
    void oneReplicaStaysTheEmbeddedDefault() throws Exception {
        HelmChart.Rendered r = HelmChart.render("gw", "team-a", null);
        Map<String, EnvVar> env = env(r);
        for (String name : List.of("CLOAKGATE_STORE", "QUARKUS_DATASOURCE_JDBC_URL", "CLOAKGATE_CLUSTER_REPLICA_ID",
                "CLOAKGATE_CLUSTER_KEY_FILE", "CLOAKGATE_CLUSTER_PEER_URL", "CLOAKGATE_CLUSTER_REPLICAS")) {
            assertFalse(env.containsKey(name), name);
        }
        assertTrue(r.ofKind("PodDisruptionBudget").isEmpty());
        // one replica may still keep its state in PostgreSQL (no cluster settings then)
        Map<String, EnvVar> pg = env(HelmChart.render("gw", "team-a", values("""
                postgresql: { url: "jdbc:postgresql://10.1.2.3/app", username: app, existingSecret: pg-app }
                """)));
        assertEquals("postgresql", pg.get("CLOAKGATE_STORE").getValue());
        assertEquals("app", pg.get("QUARKUS_DATASOURCE_USERNAME").getValue());
        assertFalse(pg.containsKey("CLOAKGATE_CLUSTER_REPLICA_ID"));
    }
}
