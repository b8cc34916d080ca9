package dev.cloakgate.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.marcnuri.helm.LintResult;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;

/**
 * The Helm chart (issue 12), through real Helm: lint --strict and template with the default values and realistic
 * values files, the output read as Kubernetes objects and held to the gateway's contract (DESIGN.md, README):
 * ports, health paths, tenants and data directories, the signing key, the restricted security context, the egress
 * chokepoint, names per release; and the tenant files it renders pass the gateway's own --check.
 */
class HelmChartTest {
    static final String KEY = "2d16554c6206b4c8178423a765982c64f92ff4b17792a26ad07241e54e5d5a21";

    @TempDir
    Path tmp;

    static Path values(String file) {
        return file == null ? null : HelmChart.VALUES.resolve(file);
    }

    /** The values Helm renders with: the chart's defaults with the file merged over them. */
    static JsonNode effective(String file) {
        JsonNode defaults = HelmChart.read(HelmChart.CHART.resolve("values.yaml"));
        return file == null ? defaults : HelmChart.merge(defaults, HelmChart.read(values(file)));
    }

    // ---- lint ----

    @ParameterizedTest
    @ValueSource(strings = {"", "two-tenants.yaml", "existing-secret.yaml", "network-policy.yaml", "service-monitor.yaml",
        "ledger-rotation.yaml", "replicas.yaml"})
    void lintStrictPasses(String file) {
        LintResult r = HelmChart.lintStrict(file.isEmpty() ? null : values(file), tmp);
        assertFalse(r.isFailed(), () -> "helm lint --strict " + file + ": " + r.getMessages());
    }

    /** Helm's lint mode turns {@code fail} into a warning, so the chart's refusals are checked on template. */
    @Test
    void aTenantNameThatIsNoEndpointStopsTheRender() throws Exception {
        Path bad = tmp.resolve("bad.yaml");
        Files.writeString(bad, "tenants:\n  inline:\n    Team_A:\n      upstreams: {}\n");
        Exception e = assertThrows(Exception.class, () -> HelmChart.template("gw", "team-a", bad));
        assertTrue(e.getMessage().contains("tenants.inline.Team_A"), e::getMessage);
    }

    // ---- the gateway's contract, for every values file ----

    @ParameterizedTest
    @ValueSource(strings = {"", "two-tenants.yaml", "existing-secret.yaml", "network-policy.yaml", "service-monitor.yaml",
        "ledger-rotation.yaml", "replicas.yaml"})
    void podKeepsTheGatewaysContract(String file) {
        String f = file.isEmpty() ? null : file;
        JsonNode v = effective(f);
        HelmChart.Rendered r = HelmChart.render("gw", "team-a", values(f));
        StatefulSet sts = r.one(StatefulSet.class);
        assertEquals(v.at("/replicas").asInt(), sts.getSpec().getReplicas());
        PodSpec pod = sts.getSpec().getTemplate().getSpec();
        Container c = onlyContainer(pod);
        Map<String, EnvVar> env = env(c);
        // issue 17: a second replica only with the state shared (one writer per SQLite ledger otherwise)
        if (sts.getSpec().getReplicas() > 1) {
            assertEquals("postgresql", env.get("CLOAKGATE_STORE").getValue());
        }

        // ports: what the gateway listens on is what the container and the Service declare
        int port = v.at("/gateway/port").asInt();
        int management = v.at("/gateway/managementPort").asInt();
        assertEquals(String.valueOf(port), env.get("QUARKUS_HTTP_PORT").getValue());
        assertEquals(String.valueOf(management), env.get("QUARKUS_MANAGEMENT_PORT").getValue());
        assertEquals(port, containerPort(c, "mcp"));
        assertEquals(management, containerPort(c, "management"));
        Service svc = agentsService(r);
        assertEquals(1, svc.getSpec().getPorts().size(), "the agents' Service publishes the MCP port only");
        assertEquals("mcp", svc.getSpec().getPorts().get(0).getTargetPort().getStrVal());
        assertEquals(v.at("/service/port").asInt(), svc.getSpec().getPorts().get(0).getPort());
        assertTrue(matches(svc.getSpec().getSelector(), sts.getSpec().getTemplate().getMetadata().getLabels()));

        // health on the management port
        assertProbe(c.getLivenessProbe(), "/q/health/live");
        assertProbe(c.getReadinessProbe(), "/q/health/ready");
        assertProbe(c.getStartupProbe(), "/q/health/live");

        // tenants where cloakgate.tenants-dir points, read-only, no subPath (so reloads see changes)
        VolumeMount tenants = mountAt(c, env.get("CLOAKGATE_TENANTS_DIR").getValue());
        assertTrue(tenants.getReadOnly());
        assertNull(tenants.getSubPath());
        Volume tv = volume(pod, tenants.getName());
        String configMap = v.at("/tenants/existingConfigMap").asText();
        if (configMap.isEmpty()) {
            configMap = r.one(ConfigMap.class).getMetadata().getName();
            assertEquals(v.at("/tenants/inline").size(), r.one(ConfigMap.class).getData().size());
        }
        assertEquals(configMap, tv.getConfigMap().getName());

        // the data volume where cloakgate.data-dir points: the claim template, writable
        VolumeMount data = mountAt(c, env.get("CLOAKGATE_DATA_DIR").getValue());
        assertFalse(Boolean.TRUE.equals(data.getReadOnly()));
        assertNull(pod.getVolumes().stream().filter(x -> x.getName().equals(data.getName())).findAny().orElse(null),
                "persistence on: the data volume is the StatefulSet's claim, not a pod volume");
        var claim = sts.getSpec().getVolumeClaimTemplates().stream()
                .filter(t -> t.getMetadata().getName().equals(data.getName())).findFirst().orElseThrow();
        assertEquals(v.at("/persistence/size").asText(), claim.getSpec().getResources().getRequests().get("storage").toString());

        // the signing key as the README says: a file from a Secret, cloakgate.ledger.signing-key-file
        assertNull(env.get("CLOAKGATE_LEDGER_SIGNING_KEY"), "the seed is never in the environment");
        String keyFile = env.get("CLOAKGATE_LEDGER_SIGNING_KEY_FILE").getValue();
        String keyDir = keyFile.substring(0, keyFile.lastIndexOf('/'));
        VolumeMount secrets = mountAt(c, keyDir);
        assertTrue(secrets.getReadOnly());
        Volume sv = volume(pod, secrets.getName());
        String secretName = v.at("/secrets/existingSecret").asText();
        if (secretName.isEmpty()) {
            secretName = sts.getMetadata().getName();
        }
        assertEquals(secretName, sv.getSecret().getSecretName());
        assertEquals(v.at("/secrets/ledgerSigningKeyName").asText(), keyFile.substring(keyFile.lastIndexOf('/') + 1));
        for (Secret s : r.all(Secret.class)) {
            assertEquals(secretName, s.getMetadata().getName());
            assertTrue(s.getData().containsKey(v.at("/secrets/ledgerSigningKeyName").asText()));
        }

        assertRestricted(pod, c);
        ServiceAccount sa = r.one(ServiceAccount.class);
        assertEquals(sa.getMetadata().getName(), pod.getServiceAccountName());
        assertFalse(sa.getAutomountServiceAccountToken());
        assertFalse(pod.getAutomountServiceAccountToken(), "no service-account token unless asked");
    }

    /** The restricted Pod Security Standard, and nothing writable but the data volume and /tmp. */
    static void assertRestricted(PodSpec pod, Container c) {
        assertTrue(pod.getSecurityContext().getRunAsNonRoot());
        assertEquals("RuntimeDefault", pod.getSecurityContext().getSeccompProfile().getType());
        assertNotNull(pod.getSecurityContext().getRunAsUser());
        assertTrue(pod.getSecurityContext().getRunAsUser() > 0);
        SecurityContext sc = c.getSecurityContext();
        assertTrue(sc.getRunAsNonRoot());
        assertFalse(sc.getAllowPrivilegeEscalation());
        assertFalse(sc.getPrivileged());
        assertTrue(sc.getReadOnlyRootFilesystem());
        assertEquals(List.of("ALL"), sc.getCapabilities().getDrop());
        assertTrue(sc.getCapabilities().getAdd() == null || sc.getCapabilities().getAdd().isEmpty());
        assertEquals("RuntimeDefault", sc.getSeccompProfile().getType());
        assertFalse(Boolean.TRUE.equals(pod.getHostNetwork()) || Boolean.TRUE.equals(pod.getHostPID())
                || Boolean.TRUE.equals(pod.getHostIPC()));
        assertTrue(pod.getVolumes().stream().noneMatch(x -> x.getHostPath() != null));
        Set<String> writable = c.getVolumeMounts().stream().filter(m -> !Boolean.TRUE.equals(m.getReadOnly()))
                .map(VolumeMount::getName).collect(Collectors.toSet());
        assertEquals(Set.of("data", "tmp"), writable);
        assertNotNull(volume(pod, "tmp").getEmptyDir());
    }

    // ---- the rendered tenant files against the gateway's own --check ----

    @ParameterizedTest
    @ValueSource(strings = {"two-tenants.yaml", "existing-secret.yaml", "network-policy.yaml", "service-monitor.yaml",
        "ledger-rotation.yaml", "replicas.yaml"})
    void renderedTenantsPassTheGatewaysCheck(String file) {
        HelmChart.Rendered r = HelmChart.render("gw", "team-a", values(file));
        // existing-secret.yaml names a Secret the platform team made: laid out here as they would make it
        // replicas.yaml names the database's Secret (CloudNativePG's app Secret)
        PodFiles pod = PodFiles.lay(r, Map.of("payments-cloakgate-keys", Map.of("ledger.key", KEY,
                "ledger-api-token", "ledger-api-token-value"), "pg-app", Map.of("username", "app", "password", "pw")),
                tmp.resolve("root"));
        PodFiles.Result res = pod.run("--check");
        int tenants = effective(file).at("/tenants/inline").size();
        assertEquals(0, res.exit(), () -> "--check refused what the chart rendered:\n" + res.out() + res.err());
        assertTrue(res.out().contains("check passed: " + tenants + " tenant(s)"), res::out);
    }

    /** The gateway's --check in the pod rendered from tenant acme's upstreams, the signing key and {@code more} values. */
    private PodFiles.Result checkOfAcme(String upstreams, String more) throws Exception {
        Path values = tmp.resolve("acme.yaml");
        Files.writeString(values, """
                tenants:
                  inline:
                    acme:
                      upstreams: %s
                      auth: { mode: none }
                secrets:
                  ledgerSigningKey: "%s"
                """.formatted(upstreams, KEY) + more);
        return PodFiles.lay(HelmChart.render("gw", "team-a", values), Map.of(), tmp.resolve("root")).run("--check");
    }

    @Test
    void checkRefusesATenantTheChartWouldShip() throws Exception {
        PodFiles.Result res = checkOfAcme("{ fs: { comand: npx } }", "");
        assertEquals(1, res.exit(), res::out);
        assertTrue(res.err().contains("$.upstreams.fs.comand"), res::err);
    }

    // ---- secrets ----

    @Test
    void existingSecretIsUsedAndNoneIsCreated() {
        HelmChart.Rendered r = HelmChart.render("gw", "payments", values("existing-secret.yaml"));
        assertTrue(r.all(Secret.class).isEmpty(), "an existing Secret is never rendered over");
        PodSpec pod = r.one(StatefulSet.class).getSpec().getTemplate().getSpec();
        Map<String, EnvVar> env = env(onlyContainer(pod));
        var ref = env.get("LEDGER_API_TOKEN").getValueFrom().getSecretKeyRef();
        assertEquals("payments-cloakgate-keys", ref.getName());
        assertEquals("ledger-api-token", ref.getKey());
        assertEquals("/var/run/secrets/cloakgate/ledger.key", env.get("CLOAKGATE_LEDGER_SIGNING_KEY_FILE").getValue());
    }

    // ---- issue 15: the log identity and the previous key of a rotation ----

    @Test
    void logIdentityAndThePreviousKeyReachTheGatewayAsItsSettings() {
        HelmChart.Rendered r = HelmChart.render("gw", "team-a", values("ledger-rotation.yaml"));
        Map<String, EnvVar> env = env(onlyContainer(r.one(StatefulSet.class).getSpec().getTemplate().getSpec()));
        assertEquals("gateway.acme.example/cloakgate-prod", env.get("CLOAKGATE_LEDGER_LOG_IDENTITY").getValue());
        assertEquals("/var/run/secrets/cloakgate/previous-ledger-signing-key",
                env.get("CLOAKGATE_LEDGER_PREVIOUS_SIGNING_KEY_FILE").getValue());
        assertTrue(r.one(Secret.class).getData().containsKey("previous-ledger-signing-key"));

        Map<String, EnvVar> defaults = env(onlyContainer(HelmChart.render("gw", "team-a", null).one(StatefulSet.class)
                .getSpec().getTemplate().getSpec()));
        assertNull(defaults.get("CLOAKGATE_LEDGER_LOG_IDENTITY"), "unset: the gateway generates one and warns");
        assertNull(defaults.get("CLOAKGATE_LEDGER_PREVIOUS_SIGNING_KEY_FILE"));
    }

    @Test
    void aLogIdentityWithASchemeIsRefusedByTheGatewaysCheck() throws Exception {
        PodFiles.Result res = checkOfAcme("{}", "gateway:\n  logIdentity: \"https://gateway.acme.example\"\n");
        assertEquals(1, res.exit(), res::out);
        assertTrue(res.err().contains("invalid_log_identity"), res::err);
    }
    // ---- end issue 15 ----

    @Test
    void thePublicUrlReachesTheGatewayOnlyWhenGiven() throws Exception {
        Path v = Files.createTempFile("public-url", ".yaml");
        try {
            Files.writeString(v, "gateway:\n  publicUrl: \"https://gw.acme.example\"\n");
            Map<String, EnvVar> env = env(onlyContainer(HelmChart.render("gw", "team-a", v).one(StatefulSet.class)
                    .getSpec().getTemplate().getSpec()));
            assertEquals("https://gw.acme.example", env.get("CLOAKGATE_PUBLIC_URL").getValue());
        } finally {
            Files.deleteIfExists(v);
        }
        assertNull(env(onlyContainer(HelmChart.render("gw", "team-a", null).one(StatefulSet.class).getSpec()
                .getTemplate().getSpec())).get("CLOAKGATE_PUBLIC_URL"), "unset by default");
    }

    @Test
    void defaultsRenderNoSecretNoPolicyNoMonitor() {
        HelmChart.Rendered r = HelmChart.render("gw", "team-a", null);
        assertTrue(r.all(Secret.class).isEmpty(), "no key given: the chart makes none (and never generates one)");
        assertTrue(r.all(NetworkPolicy.class).isEmpty());
        assertTrue(r.ofKind("ServiceMonitor").isEmpty());
        // the agents' Service and the headless one that names the StatefulSet's pods (issue 17)
        assertEquals(List.of("gw-cloakgate-peers", "gw-cloakgate"),
                r.all(Service.class).stream().map(s -> s.getMetadata().getName()).toList());
    }

    // ---- the egress chokepoint ----

    @Test
    void networkPolicyEgressIsExactlyDnsAndTheDeclaredUpstreams() {
        JsonNode v = effective("network-policy.yaml");
        NetworkPolicy np = HelmChart.render("gw", "research", values("network-policy.yaml")).one(NetworkPolicy.class);
        assertEquals(List.of("Ingress", "Egress"), np.getSpec().getPolicyTypes());

        Set<JsonNode> rendered = new HashSet<>();
        for (NetworkPolicyEgressRule rule : np.getSpec().getEgress()) {
            assertTrue(rendered.add(HelmChart.YAML.valueToTree(rule)), "duplicate egress rule " + rule);
        }
        Set<JsonNode> expected = new HashSet<>();
        expected.add(rule(v.at("/networkPolicy/dns/to"), portList(53, "UDP", 53, "TCP")));
        for (URI u : declaredUrls(v)) {
            String host = u.getHost().toLowerCase(Locale.ROOT).replaceAll("^\\[|\\]$", "");
            int port = u.getPort() != -1 ? u.getPort() : u.getScheme().equalsIgnoreCase("https") ? 443 : 80;
            JsonNode peer = v.at("/networkPolicy/upstreamPeers").get(host);
            JsonNode to;
            ArrayNode ports = HelmChart.YAML.createArrayNode();
            if (peer != null) {
                to = peer.get("to");
                if (peer.has("ports")) {
                    peer.get("ports").forEach(p -> ports.add(port(p.asInt(), "TCP")));
                } else {
                    ports.add(port(port, "TCP"));
                }
            } else {
                ArrayNode t = HelmChart.YAML.createArrayNode();
                t.addObject().putObject("ipBlock").put("cidr", host + (host.contains(":") ? "/128" : "/32"));
                to = t;
                ports.add(port(port, "TCP"));
            }
            expected.add(rule(to, ports));
        }
        assertEquals(6, expected.size(), "the values declare five host:port destinations besides DNS");
        assertEquals(expected, rendered);

        List<NetworkPolicyIngressRule> ingress = np.getSpec().getIngress();
        assertEquals(1, ingress.size(), "ingress on the agents' port only");
        assertEquals("mcp", ingress.get(0).getPorts().get(0).getPort().getStrVal());
        assertEquals(1, ingress.get(0).getPorts().size());
        assertEquals(HelmChart.YAML.valueToTree(ingress.get(0).getFrom()), v.at("/networkPolicy/ingressFrom"));
    }

    @Test
    void anUpstreamThePolicyCannotSelectStopsTheRender() throws Exception {
        String named = policyRefusal("http://crm.internal:8080/mcp");
        assertTrue(named.contains("networkPolicy.upstreamPeers") && named.contains("crm.internal"), named);
        String fromEnv = policyRefusal("http://${env:CRM_HOST}/mcp");
        assertTrue(fromEnv.contains("tenants.inline.acme.upstreams.crm.url"), fromEnv);
    }

    /** What Helm says when a tenant's only upstream is {@code url} and the network policy is on. */
    String policyRefusal(String url) throws Exception {
        Path f = tmp.resolve("policy-" + Integer.toHexString(url.hashCode()) + ".yaml");
        Files.writeString(f, """
                networkPolicy: { enabled: true }
                tenants:
                  inline:
                    acme:
                      upstreams: { crm: { url: "%s" } }
                      auth: { mode: none }
                """.formatted(url));
        return assertThrows(Exception.class, () -> HelmChart.template("gw", "acme", f)).getMessage();
    }

    // ---- monitoring ----

    @Test
    void serviceMonitorScrapesTheManagementPortThroughItsOwnService() {
        JsonNode v = effective("service-monitor.yaml");
        HelmChart.Rendered r = HelmChart.render("gw", "ops", values("service-monitor.yaml"));
        GenericKubernetesResource sm = (GenericKubernetesResource) r.ofKind("ServiceMonitor").get(0);
        assertEquals("monitoring.coreos.com/v1", sm.getApiVersion());
        assertEquals("kube-prometheus-stack", sm.getMetadata().getLabels().get("release"));
        JsonNode spec = HelmChart.YAML.valueToTree(sm.getAdditionalProperties().get("spec"));
        assertEquals("management", spec.at("/endpoints/0/port").asText());
        assertEquals("/q/metrics", spec.at("/endpoints/0/path").asText());
        Map<String, String> selector = HelmChart.YAML.convertValue(spec.at("/selector/matchLabels"),
                HelmChart.YAML.getTypeFactory().constructMapType(Map.class, String.class, String.class));
        List<Service> selected = r.all(Service.class).stream().filter(s -> matches(selector, s.getMetadata().getLabels())).toList();
        assertEquals(1, selected.size(), "the monitor selects the metrics Service only");
        Service metrics = selected.get(0);
        assertEquals(1, metrics.getSpec().getPorts().size());
        assertEquals("management", metrics.getSpec().getPorts().get(0).getName());
        assertEquals("management", metrics.getSpec().getPorts().get(0).getTargetPort().getStrVal());
        assertEquals(v.at("/gateway/managementPort").asInt(), metrics.getSpec().getPorts().get(0).getPort());
        assertEquals(List.of("mcp"), agentsService(r).getSpec().getPorts().stream().map(p -> p.getName()).toList());
        // the policy admits the monitoring namespace to the management port, and nothing else there
        NetworkPolicy np = r.one(NetworkPolicy.class);
        var scrape = np.getSpec().getIngress().stream()
                .filter(i -> i.getPorts().stream().anyMatch(p -> "management".equals(p.getPort().getStrVal()))).toList();
        assertEquals(1, scrape.size());
        assertEquals(v.at("/networkPolicy/metricsFrom"), HelmChart.YAML.valueToTree(scrape.get(0).getFrom()));
    }

    // ---- many releases in one cluster ----

    @Test
    void releasesNeverCollideNorSelectEachOther() {
        Path file = values("service-monitor.yaml");
        HelmChart.Rendered a = HelmChart.render("team-a", "shared", file);
        HelmChart.Rendered b = HelmChart.render("team-b", "shared", file);
        HelmChart.Rendered c = HelmChart.render("team-a", "other", file);
        Set<String> namespaced = Set.of("ConfigMap", "Secret", "Service", "ServiceAccount", "StatefulSet",
                "NetworkPolicy", "ServiceMonitor");
        for (HelmChart.Rendered r : List.of(a, b, c)) {
            for (HasMetadata o : r.objects()) {
                assertTrue(namespaced.contains(o.getKind()), "not a namespaced kind: " + o.getKind());
                assertNull(o.getMetadata().getNamespace(), "objects go to the release's namespace");
            }
        }
        Set<String> namesA = keys(a);
        Set<String> namesB = keys(b);
        assertEquals(a.objects().size(), namesA.size(), "names unique within a release");
        assertTrue(namesA.stream().noneMatch(namesB::contains), () -> "collisions: " + namesA + " / " + namesB);
        // the same release name in another namespace renders the same names, which a namespace keeps apart
        assertEquals(namesA, keys(c));
        // claims made from the template are named after the StatefulSet
        assertFalse(a.one(StatefulSet.class).getMetadata().getName().equals(b.one(StatefulSet.class).getMetadata().getName()));

        Map<String, String> podsOfB = b.one(StatefulSet.class).getSpec().getTemplate().getMetadata().getLabels();
        for (Map<String, String> selector : selectors(a)) {
            assertFalse(matches(selector, podsOfB), "a selector of release team-a selects team-b's pods: " + selector);
        }
        for (Service s : b.all(Service.class)) {
            for (Map<String, String> selector : selectors(a)) {
                assertFalse(matches(selector, s.getMetadata().getLabels()), "team-a selects team-b's Service " + selector);
            }
        }
    }

    // ---- helpers ----

    static Set<String> keys(HelmChart.Rendered r) {
        return r.objects().stream().map(o -> o.getKind() + "/" + o.getMetadata().getName()).collect(Collectors.toSet());
    }

    static List<Map<String, String>> selectors(HelmChart.Rendered r) {
        List<Map<String, String>> out = new ArrayList<>();
        r.all(Service.class).forEach(s -> out.add(s.getSpec().getSelector()));
        r.all(StatefulSet.class).forEach(s -> out.add(s.getSpec().getSelector().getMatchLabels()));
        r.all(NetworkPolicy.class).forEach(n -> out.add(n.getSpec().getPodSelector().getMatchLabels()));
        for (HasMetadata sm : r.ofKind("ServiceMonitor")) {
            JsonNode spec = HelmChart.YAML.valueToTree(((GenericKubernetesResource) sm).getAdditionalProperties().get("spec"));
            Map<String, String> m = new HashMap<>();
            spec.at("/selector/matchLabels").fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asText()));
            out.add(m);
        }
        out.forEach(s -> assertFalse(s == null || s.isEmpty(), "an empty selector selects everything"));
        return out;
    }

    static boolean matches(Map<String, String> selector, Map<String, String> labels) {
        return labels != null && selector.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }

    /** Every URL the inline tenants declare: HTTP upstreams and JWT issuers' key sets. */
    static Set<URI> declaredUrls(JsonNode values) {
        Set<URI> urls = new LinkedHashSet<>();
        values.at("/tenants/inline").forEach(t -> {
            t.path("upstreams").forEach(u -> {
                if (u.has("url")) {
                    urls.add(URI.create(u.get("url").asText()));
                }
            });
            t.path("auth").path("jwt_issuers").forEach(i -> {
                if (i.has("jwks_url")) {
                    urls.add(URI.create(i.get("jwks_url").asText()));
                }
            });
        });
        return urls;
    }

    static JsonNode rule(JsonNode to, JsonNode ports) {
        ObjectNode r = HelmChart.YAML.createObjectNode();
        r.set("ports", ports);
        r.set("to", to);
        return r;
    }

    static ObjectNode port(int port, String protocol) {
        ObjectNode p = HelmChart.YAML.createObjectNode();
        p.put("port", port);
        p.put("protocol", protocol);
        return p;
    }

    static ArrayNode portList(int p1, String proto1, int p2, String proto2) {
        ArrayNode a = HelmChart.YAML.createArrayNode();
        a.add(port(p1, proto1));
        a.add(port(p2, proto2));
        return a;
    }

    static Container onlyContainer(PodSpec pod) {
        assertEquals(1, pod.getContainers().size());
        return pod.getContainers().get(0);
    }

    static Map<String, EnvVar> env(Container c) {
        Map<String, EnvVar> env = new HashMap<>();
        c.getEnv().forEach(e -> assertNull(env.put(e.getName(), e), "env " + e.getName() + " set twice"));
        return env;
    }

    static int containerPort(Container c, String name) {
        return c.getPorts().stream().filter(p -> name.equals(p.getName())).findFirst().orElseThrow().getContainerPort();
    }

    static Service agentsService(HelmChart.Rendered r) {
        return r.all(Service.class).stream()
                .filter(s -> !"metrics".equals(s.getMetadata().getLabels().get("app.kubernetes.io/component")))
                // issue 17: the headless Service that names the pods for forwarding is no agents' Service
                .filter(s -> !"None".equals(s.getSpec().getClusterIP()))
                .reduce((x, y) -> {
                    throw new AssertionError("two agents' Services");
                }).orElseThrow();
    }

    static void assertProbe(Probe p, String path) {
        assertNotNull(p);
        assertEquals(path, p.getHttpGet().getPath());
        assertEquals("management", p.getHttpGet().getPort().getStrVal(), "health is on the management port");
    }

    static VolumeMount mountAt(Container c, String path) {
        return c.getVolumeMounts().stream().filter(m -> m.getMountPath().equals(path)).findFirst()
                .orElseThrow(() -> new AssertionError("nothing mounted at " + path));
    }

    static Volume volume(PodSpec pod, String name) {
        return pod.getVolumes().stream().filter(v -> v.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no volume " + name));
    }
}
