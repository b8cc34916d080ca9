package dev.cloakgate.gate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.cloakgate.crypto.Jcs;
import dev.cloakgate.crypto.StrictJson;

/**
 * Reads a release manifest or tool contract written as JSON or YAML into one JSON tree, strictly: a duplicate key
 * is refused (two readers could pick different values of a signed document), and so is anything but one object.
 * JSON is read by the strict reader the ledger uses; YAML by Jackson with duplicate detection, its aliases refused
 * (a billion-laughs document must not expand). The hash of the document is over the JCS of this tree, so the
 * same manifest hashes the same in either syntax.
 */
public final class GateDocuments {
    private static final ObjectMapper YAML = YAMLMapper.builder(YAMLFactory.builder()
            .loaderOptions(loaderOptions()).build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    public static final int MAX_BYTES = 1024 * 1024;

    private GateDocuments() {
    }

    private static org.yaml.snakeyaml.LoaderOptions loaderOptions() {
        org.yaml.snakeyaml.LoaderOptions o = new org.yaml.snakeyaml.LoaderOptions();
        o.setMaxAliasesForCollections(0);
        o.setAllowDuplicateKeys(false);
        o.setCodePointLimit(MAX_BYTES);
        return o;
    }

    /** Anchors and aliases have no JSON form a hash could agree on, and expand without bound: refused. */
    private static void refuseAliases(String text, String what) {
        try {
            for (org.yaml.snakeyaml.events.Event e : new org.yaml.snakeyaml.Yaml(loaderOptions()).parse(
                    new java.io.StringReader(text))) {
                if (e instanceof org.yaml.snakeyaml.events.AliasEvent
                        || e instanceof org.yaml.snakeyaml.events.NodeEvent n && n.getAnchor() != null) {
                    throw new IllegalArgumentException(what + ": YAML anchors and aliases are not accepted");
                }
            }
        } catch (org.yaml.snakeyaml.error.YAMLException e) {
            throw new IllegalArgumentException(what + ": not readable YAML (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** A document file's bytes, one byte past {@link #MAX_BYTES} at most: {@link #read} then refuses it, saying so. */
    public static byte[] readFile(java.nio.file.Path file) throws IOException {
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
            return in.readNBytes(MAX_BYTES + 1);
        }
    }

    /**
     * The document as a JSON object; {@code what} names it in the refusal ("release manifest release.yaml").
     *
     * @throws IllegalArgumentException saying what is wrong, never quoting the document
     */
    public static JsonNode read(byte[] bytes, String what) {
        if (bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException(what + ": over " + MAX_BYTES + " bytes");
        }
        String text = new String(bytes, StandardCharsets.UTF_8).stripLeading();
        JsonNode tree;
        if (text.startsWith("{")) {
            if (!(Jcs.parseStrict(bytes) instanceof StrictJson.Parsed p)) {
                throw new IllegalArgumentException(what + ": not strict JSON (duplicate keys, bad numbers or syntax)");
            }
            tree = p.value();
        } else {
            refuseAliases(text, what);
            try (JsonParser parser = YAML.createParser(bytes)) {
                tree = YAML.readTree(parser);
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException(what + ": not readable YAML (" + e.getClass().getSimpleName()
                        + (e.getMessage() != null && e.getMessage().contains("Duplicate") ? ", duplicate key" : "") + ")");
            }
        }
        if (tree == null || !tree.isObject()) {
            throw new IllegalArgumentException(what + ": must be one object (a mapping)");
        }
        return tree;
    }
}
