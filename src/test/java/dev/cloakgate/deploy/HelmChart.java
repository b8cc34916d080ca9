package dev.cloakgate.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;

/**
 * The chart {@code deploy/helm/cloakgate} driven through real Helm (helm-java embeds Helm's Go library), its output
 * read into the fabric8 Kubernetes model.
 */
final class HelmChart {
    static final Path CHART = Path.of("deploy/helm/cloakgate");
    static final Path VALUES = Path.of("src/test/resources/helm");
    static final YAMLMapper YAML = new YAMLMapper();

    private HelmChart() {
    }

    /** {@code helm template} of the chart as release {@code release} in {@code namespace}; values file optional. */
    static String template(String release, String namespace, Path valuesFile) {
        var t = new Helm(CHART).template().withName(release).withNamespace(namespace);
        if (valuesFile != null) {
            t = t.withValuesFile(valuesFile);
        }
        return t.call();
    }

    static Rendered render(String release, String namespace, Path valuesFile) {
        return Rendered.parse(template(release, namespace, valuesFile));
    }

    /**
     * {@code helm lint --strict} with a values file: helm-java's lint reads only the chart's own values.yaml, so the
     * chart is copied and its values.yaml replaced by the defaults with the file merged over them, as Helm merges.
     */
    static LintResult lintStrict(Path valuesFile, Path scratch) {
        Path chart = CHART;
        if (valuesFile != null) {
            chart = scratch.resolve("cloakgate");
            copyTree(CHART, chart);
            JsonNode merged = merge(read(CHART.resolve("values.yaml")), read(valuesFile));
            write(chart.resolve("values.yaml"), merged);
        }
        return new Helm(chart).lint().strict().call();
    }

    /** The documents of {@code yaml} (a multi-document stream), empty ones skipped. */
    static List<JsonNode> documents(String yaml) {
        List<JsonNode> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(yaml)) {
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc != null && !doc.isNull() && !doc.isMissingNode() && !doc.isEmpty()) {
                    docs.add(doc);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docs;
    }

    static JsonNode read(Path file) {
        try {
            return YAML.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Helm's merge of values: maps merge key by key, anything else (lists included) is replaced. */
    static JsonNode merge(JsonNode base, JsonNode over) {
        if (!(base instanceof ObjectNode b) || !(over instanceof ObjectNode o)) {
            return over == null || over.isNull() ? base : over;
        }
        ObjectNode out = b.deepCopy();
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext();) {
            var e = it.next();
            out.set(e.getKey(), merge(out.get(e.getKey()), e.getValue()));
        }
        return out;
    }

    private static void write(Path file, JsonNode tree) {
        try {
            YAML.writeValue(file.toFile(), tree);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void copyTree(Path from, Path to) {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What one {@code helm template} rendered, as fabric8 objects (kinds the model lacks are generic resources). */
    record Rendered(List<HasMetadata> objects) {
        static Rendered parse(String yaml) {
            List<HasMetadata> objects = new ArrayList<>();
            for (JsonNode doc : documents(yaml)) {
                try {
                    objects.add((HasMetadata) YAML.treeToValue(doc, KubernetesResource.class));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return new Rendered(List.copyOf(objects));
        }

        <T extends HasMetadata> List<T> all(Class<T> type) {
            return objects.stream().filter(type::isInstance).map(type::cast).toList();
        }

        <T extends HasMetadata> T one(Class<T> type) {
            List<T> found = all(type);
            if (found.size() != 1) {
                throw new AssertionError("expected one " + type.getSimpleName() + ", rendered " + found.size());
            }
            return found.get(0);
        }

        List<HasMetadata> ofKind(String kind) {
            return objects.stream().filter(o -> kind.equals(o.getKind())).toList();
        }
    }
}
