package dev.cloakgate.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metrics the README documents (its Metrics section's table, the contract a dashboard and alerts are built
 * on) and a reader of Prometheus text scrapes (issue 10).
 */
public final class Metrics {
    private static final Pattern ROW = Pattern.compile("^\\| `(cloakgate_[a-z0-9_]+)` \\| (\\w+)", Pattern.MULTILINE);
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})? (\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private Metrics() {
    }

    /** Documented names with their type ({@code counter}, {@code gauge}, {@code histogram}), in README order. */
    public static Map<String, String> documented() {
        String readme;
        try {
            readme = Files.readString(Path.of("README.md"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int from = readme.indexOf("\n### Metrics\n");
        if (from < 0) {
            throw new IllegalStateException("README.md has no '### Metrics' section");
        }
        int to = readme.indexOf("\n#", from + 2);
        Matcher m = ROW.matcher(readme.substring(from, to < 0 ? readme.length() : to));
        Map<String, String> names = new LinkedHashMap<>();
        while (m.find()) {
            names.put(m.group(1), m.group(2));
        }
        return names;
    }

    /** The names a series of this documented metric is exposed under (a histogram's buckets, count and sum). */
    public static List<String> exposedAs(String name, String type) {
        return "histogram".equals(type) ? List.of(name + "_bucket", name + "_count", name + "_sum") : List.of(name);
    }

    /** One sample of a scrape. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    /** Every sample of a Prometheus text scrape (comments skipped). */
    public static List<Sample> parse(String scrape) {
        List<Sample> out = new ArrayList<>();
        for (String line : scrape.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line.strip());
            if (!m.matches()) {
                throw new IllegalArgumentException("not a sample line: " + line);
            }
            Map<String, String> labels = new TreeMap<>();
            if (m.group(2) != null) {
                Matcher l = LABEL.matcher(m.group(2));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            out.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3))));
        }
        return out;
    }

    /** The value of the one sample of {@code name} with exactly these labels, or NaN when there is none. */
    public static double value(List<Sample> samples, String name, Map<String, String> labels) {
        return samples.stream().filter(s -> s.name().equals(name) && s.labels().equals(new TreeMap<>(labels)))
                .mapToDouble(Sample::value).findFirst().orElse(Double.NaN);
    }
}
