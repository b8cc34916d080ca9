package dev.cloakgate.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.fabric8.kubernetes.api.model.ConfigMap;

/**
 * {@code deploy/kubernetes/base} is the chart rendered with its default values (release {@value #RELEASE}), one
 * file per template, for people without Helm. This fails when the two drift apart; with
 * {@code -Dcloakgate.regenerate-kubernetes-base=true} it writes the base from the chart instead.
 */
class KubernetesBaseTest {
    static final String RELEASE = "cloakgate";
    static final Path BASE = Path.of("deploy/kubernetes/base");
    static final String HEADER = "# Generated from deploy/helm/cloakgate with its default values (helm template " + RELEASE
            + "); do not edit:\n# KubernetesBaseTest fails when this drifts from the chart, and rewrites it with\n"
            + "# ./mvnw -B -q test -Dtest=KubernetesBaseTest -Dcloakgate.regenerate-kubernetes-base=true\n";
    private static final Pattern SOURCE = Pattern.compile("(?m)^# Source: cloakgate/templates/([a-z0-9.-]+\\.yaml)$");

    @Test
    void baseIsTheChartWithDefaultValues() throws IOException {
        Map<String, String> rendered = byTemplate(HelmChart.template(RELEASE, "default", null));
        assertFalse(rendered.isEmpty());
        if (Boolean.getBoolean("cloakgate.regenerate-kubernetes-base")) {
            write(rendered);
        }
        List<String> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(BASE)) {
            s.map(p -> p.getFileName().toString()).filter(n -> !n.equals("kustomization.yaml")).sorted().forEach(files::add);
        }
        assertEquals(List.copyOf(rendered.keySet()), files, "the base holds one file per rendered template, no other");
        for (var e : rendered.entrySet()) {
            assertEquals(HelmChart.documents(e.getValue()), HelmChart.documents(Files.readString(BASE.resolve(e.getKey()))),
                    () -> BASE.resolve(e.getKey()) + " drifted from the chart's " + e.getKey());
        }
        JsonNode kustomization = HelmChart.read(BASE.resolve("kustomization.yaml"));
        assertEquals("kustomize.config.k8s.io/v1beta1", kustomization.path("apiVersion").asText());
        List<String> resources = new ArrayList<>();
        kustomization.path("resources").forEach(r -> resources.add(r.asText()));
        assertEquals(List.copyOf(rendered.keySet()), resources, "kustomization.yaml lists exactly the base's files");
    }

    /**
     * The example overlay, built by the kustomize inside kubectl (skipped where kubectl is not installed), with a
     * fresh signing key as its README asks: the tenant reaches the pod where it looks, and the gateway's own --check
     * accepts what the pod would see.
     */
    @Test
    void exampleOverlayBuildsAndPassesTheGatewaysCheck(@TempDir Path tmp) throws Exception {
        Path kubectl = onPath("kubectl");
        Assumptions.assumeTrue(kubectl != null, "kubectl is not installed");
        Path copy = tmp.resolve("kubernetes");
        HelmChart.copyTree(BASE.getParent(), copy);
        Files.writeString(copy.resolve("example/ledger.key"), HelmChartTest.KEY + "\n");
        Process p = new ProcessBuilder(kubectl.toString(), "kustomize", copy.resolve("example").toString())
                .redirectError(tmp.resolve("err.txt").toFile()).start();
        String built = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), () -> readQuietly(tmp.resolve("err.txt")));
        HelmChart.Rendered r = HelmChart.Rendered.parse(built);
        r.objects().forEach(o -> assertEquals("team-a", o.getMetadata().getNamespace()));
        assertEquals(java.util.Set.of("acme.json"), r.one(ConfigMap.class).getData().keySet());
        PodFiles.Result check = PodFiles.lay(r, Map.of(), tmp.resolve("root")).run("--check");
        assertEquals(0, check.exit(), () -> check.out() + check.err());
        assertTrue(check.out().contains("check passed: 1 tenant(s)"), check::out);
    }

    private static Path onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path p = Path.of(dir, command);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** The rendered stream, per template file (Helm names each document's source). */
    static Map<String, String> byTemplate(String yaml) {
        Map<String, String> out = new TreeMap<>();
        for (String doc : yaml.split("(?m)^---\\s*$")) {
            Matcher m = SOURCE.matcher(doc);
            if (m.find() && !HelmChart.documents(doc).isEmpty()) {
                out.merge(m.group(1), doc.strip() + "\n", (a, b) -> a + "---\n" + b);
            }
        }
        return out;
    }

    private static void write(Map<String, String> rendered) throws IOException {
        Files.createDirectories(BASE);
        try (Stream<Path> s = Files.list(BASE)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Files.delete(p);
            }
        }
        StringBuilder k = new StringBuilder(HEADER).append("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n");
        for (var e : rendered.entrySet()) {
            Files.writeString(BASE.resolve(e.getKey()), HEADER + e.getValue());
            k.append("  - ").append(e.getKey()).append('\n');
        }
        Files.writeString(BASE.resolve("kustomization.yaml"), k.toString());
    }
}
