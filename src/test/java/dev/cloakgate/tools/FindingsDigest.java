package dev.cloakgate.tools;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.cloak.Cloak;
import dev.cloakgate.cloak.Cloaking;
import dev.cloakgate.cloak.Detection;
import dev.cloakgate.cloak.DetectionFactory;
import dev.cloakgate.cloak.Finding;
import dev.cloakgate.cloak.eval.LabelledText;
import dev.cloakgate.evidence.Evidence;
import dev.cloakgate.tenant.DetectionSettings;
import dev.cloakgate.tenant.TokenScope;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * A digest of everything detection finds on every text the project has (issue 14, PERSON throughput): a change
 * meant to make detection faster must leave it unchanged. For every file of {@code src/test/resources/detection/**}
 * (markup removed) and for the cloak benchmark's generated texts (when {@code CloakBench} is on the class path:
 * {@code bench/findings-digest.sh} puts it there), every category and PERSON on: the findings of
 * {@link Detection#find} (category, start, end) and the whole cloaked result of {@link Cloak#toAgent} (what
 * propagation across a message and a session adds is in it). Prints one SHA-256 per set and one over all;
 * {@code --spans FILE} also writes every finding, one a line, to diff two builds.
 */
public final class FindingsDigest {
    private static final ObjectMapper M = new ObjectMapper();

    private FindingsDigest() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 && !args[0].startsWith("--") ? args[0] : "src/test/resources/detection");
        PrintWriter spans = null;
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals("--spans")) {
                spans = new PrintWriter(Files.newBufferedWriter(Path.of(args[i + 1])));
            }
        }
        DetectionSettings d = DetectionSettings.defaults();
        DetectionSettings s = new DetectionSettings(d.emails(), d.phoneNumbers(), d.creditCards(), d.ibans(),
                d.usSsns(), d.ipAddresses(), d.secrets(), Set.of("PERSON"), null, Map.of(), d.phoneRegions(),
                d.keyHints());
        Detection detection = new DetectionFactory().build(s);
        Cloaking cloaking = new Cloaking("digest", detection, TokenScope.SESSION, 1_000_000,
                new SimpleMeterRegistry(), Evidence.NONE);
        Map<String, List<String[]>> sets = texts(root);
        MessageDigest all = MessageDigest.getInstance("SHA-256");
        for (Map.Entry<String, List<String[]>> set : sets.entrySet()) {
            MessageDigest one = MessageDigest.getInstance("SHA-256");
            // one session per set: propagation from earlier results of the session is part of what is compared
            Cloak session = cloaking.session(set.getKey());
            int findings = 0;
            for (String[] named : set.getValue()) {
                String name = named[0];
                String text = named[1];
                StringBuilder line = new StringBuilder();
                for (Finding f : detection.find(text)) {
                    line.append(name).append('\t').append(f.category()).append('\t').append(f.start()).append('\t')
                            .append(f.end()).append('\n');
                    findings++;
                }
                ObjectNode result = M.createObjectNode();
                result.putArray("content").addObject().put("type", "text").put("text", text);
                session.toAgent("digest", "tools/call", result);
                line.append(name).append("\tcloaked\t").append(result.toString()).append('\n');
                byte[] bytes = line.toString().getBytes(StandardCharsets.UTF_8);
                one.update(bytes);
                all.update(bytes);
                if (spans != null) {
                    spans.print(line);
                }
            }
            System.out.printf("%-12s %4d texts %6d findings  %s%n", set.getKey(), set.getValue().size(), findings,
                    HexFormat.of().formatHex(one.digest()));
        }
        System.out.println("all          " + HexFormat.of().formatHex(all.digest()));
        if (spans != null) {
            spans.close();
        }
    }

    /** Set name to (file name, text) pairs: each detection set, then the benchmark's texts. */
    private static Map<String, List<String[]>> texts(Path root) throws IOException {
        Map<String, List<String[]>> sets = new TreeMap<>();
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path dir : dirs.filter(Files::isDirectory).sorted().toList()) {
                List<String[]> texts = new ArrayList<>();
                try (Stream<Path> files = Files.list(dir)) {
                    for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                        String marked = Files.readString(f, StandardCharsets.UTF_8);
                        texts.add(new String[] { f.getFileName().toString(),
                                LabelledText.parse(f.getFileName().toString(), marked).text() });
                    }
                }
                sets.put(dir.getFileName().toString(), texts);
            }
        }
        List<String[]> bench = benchTexts();
        if (!bench.isEmpty()) {
            sets.put("~bench", bench);
        }
        return sets;
    }

    /** The cloak benchmark's texts (ASCII, non-ASCII, no names), when its class is on the class path. */
    private static List<String[]> benchTexts() {
        List<String[]> out = new ArrayList<>();
        try {
            java.lang.reflect.Method text = Class.forName("CloakBench").getDeclaredMethod("text", int.class,
                    long.class, boolean.class, boolean.class);
            text.setAccessible(true);
            for (int seed = 1; seed <= 3; seed++) {
                for (int variant = 0; variant < 3; variant++) {
                    String t = (String) text.invoke(null, 200_000, (long) seed, variant == 1, variant == 2);
                    out.add(new String[] { "bench-" + seed + "-" + variant, t });
                }
            }
        } catch (ReflectiveOperationException e) {
            System.out.println("(CloakBench not on the class path: its texts are not in the digest)");
        }
        return out;
    }
}
