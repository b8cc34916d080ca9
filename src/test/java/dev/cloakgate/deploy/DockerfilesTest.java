package dev.cloakgate.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

import dev.cloakgate.deploy.Dockerfile.Instruction;
import dev.cloakgate.deploy.Dockerfile.Stage;

/**
 * The images promise what README "Deploy" says: a non-root numeric user, the gateway's ports exposed, pinned
 * bases, the data directory a volume, and an entry point that runs exactly what the Maven build produces. The
 * names are read from the pom and application.properties, so a renamed artifact or a moved port fails here
 * instead of in a cluster. No container engine runs here: nothing is built, only read.
 */
class DockerfilesTest {

    private static final Path BASE = Path.of("").toAbsolutePath();
    private static final Pattern ENV_PAIR = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|\\S+)");
    private static final Pattern FULL_VERSION = Pattern.compile("\\d+\\.\\d+\\.\\d+");

    private static Dockerfile dockerfile(String name) throws IOException {
        return Dockerfile.parse(BASE.resolve(name));
    }

    private static Properties applicationProperties() throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(BASE.resolve("src/main/resources/application.properties"))) {
            p.load(r);
        }
        return p;
    }

    private static Element pom() throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document d = f.newDocumentBuilder().parse(BASE.resolve("pom.xml").toFile());
        return d.getDocumentElement();
    }

    /** The text of the first child element path under {@code e} (direct children only), if present. */
    private static Optional<String> child(Element e, String... path) {
        Element cur = e;
        for (String name : path) {
            Element next = null;
            for (var n = cur.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element c && c.getTagName().equals(name)) {
                    next = c;
                    break;
                }
            }
            if (next == null) {
                return Optional.empty();
            }
            cur = next;
        }
        return Optional.of(cur.getTextContent().strip());
    }

    /** The environment a stage sets, in order. */
    private static Map<String, String> env(Stage stage) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Instruction i : stage.all("ENV")) {
            Matcher m = ENV_PAIR.matcher(i.rest());
            while (m.find()) {
                out.put(m.group(1), m.group(2).replaceAll("^\"|\"$", ""));
            }
        }
        return out;
    }

    /** Docker's COPY glob (Go's filepath.Match): {@code *} and {@code ?} never cross a {@code /}. */
    private static boolean globMatches(String glob, String path) {
        StringBuilder re = new StringBuilder();
        for (char c : glob.toCharArray()) {
            switch (c) {
                case '*' -> re.append("[^/]*");
                case '?' -> re.append("[^/]");
                default -> re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return path.matches(re.toString());
    }

    private static String stripSlash(String p) {
        return p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
    }

    private record Copy(Optional<String> from, List<String> sources, String destination) {
        static Copy of(Instruction i) {
            List<String> words = i.words();
            return new Copy(i.flag("from"), words.subList(0, words.size() - 1), words.get(words.size() - 1));
        }
    }

    private static List<Copy> copies(Stage stage) {
        return stage.all("COPY").stream().map(Copy::of).toList();
    }

    /** Where a COPY of {@code sourceFile} (a path in the build context or the source stage) lands, if one copies it. */
    private static Optional<String> landing(List<Copy> copies, Optional<String> from, String sourceFile) {
        Optional<String> found = Optional.empty();
        for (Copy c : copies) {
            if (!c.from().equals(from)) {
                continue;
            }
            for (String src : c.sources()) {
                String s = stripSlash(src);
                if (globMatches(s, sourceFile)) {
                    // a file onto a directory destination keeps its name; onto a file path, takes that one
                    String name = sourceFile.substring(sourceFile.lastIndexOf('/') + 1);
                    found = Optional.of(c.destination().endsWith("/") ? c.destination() + name : c.destination());
                } else if (sourceFile.startsWith(s + "/") && !s.contains("*")) {
                    // a directory copied: its contents go under the destination
                    found = Optional.of(stripSlash(c.destination()) + sourceFile.substring(s.length()));
                }
            }
        }
        return found;
    }

    @ParameterizedTest
    @ValueSource(strings = {"Dockerfile.jvm", "Dockerfile.native"})
    void theFinalStageRunsAsANonRootNumericUser(String file) throws IOException {
        Stage last = dockerfile(file).finalStage();
        Instruction user = last.last("USER").orElseThrow(() -> new AssertionError(file + ": no USER in the final stage"));
        String uid = user.rest().strip().split(":")[0];
        assertTrue(uid.matches("\\d+"), file + ": USER " + uid + " is not numeric (Kubernetes' runAsNonRoot "
                + "can only verify a numeric user)");
        assertTrue(Long.parseLong(uid) > 0, file + ": USER is root");
        // nothing after USER may switch back
        int at = last.instructions().indexOf(user);
        assertTrue(last.instructions().subList(at, last.instructions().size()).stream()
                .noneMatch(i -> i.keyword().equals("RUN")), file + ": RUN after USER runs as the user, keep setup above it");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Dockerfile.jvm", "Dockerfile.native"})
    void itExposesTheGatewaysPortAndTheManagementPort(String file) throws IOException {
        Properties app = applicationProperties();
        List<String> exposed = new ArrayList<>();
        for (Instruction i : dockerfile(file).finalStage().all("EXPOSE")) {
            for (String w : i.words()) {
                exposed.add(w.replace("/tcp", ""));
            }
        }
        assertTrue(exposed.contains(app.getProperty("quarkus.http.port")),
                file + ": EXPOSE " + exposed + " lacks quarkus.http.port " + app.getProperty("quarkus.http.port"));
        assertTrue(exposed.contains(app.getProperty("quarkus.management.port")),
                file + ": EXPOSE " + exposed + " lacks quarkus.management.port " + app.getProperty("quarkus.management.port"));
        // the image's own health check asks the management interface, the only port health is served on
        String health = dockerfile(file).finalStage().last("HEALTHCHECK").orElseThrow().rest();
        assertTrue(health.contains(":" + app.getProperty("quarkus.management.port") + "/q/health/"),
                file + ": HEALTHCHECK does not ask the management port: " + health);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Dockerfile.jvm", "Dockerfile.native"})
    void everyBaseImageIsPinned(String file) throws IOException {
        Dockerfile d = dockerfile(file);
        for (Stage s : d.stages()) {
            if (!d.isImage(s.base())) {
                continue;
            }
            String ref = s.base();
            if (ref.contains("@sha256:")) {
                continue;
            }
            String lastPart = ref.substring(ref.lastIndexOf('/') + 1);
            assertTrue(lastPart.contains(":"), file + ": " + ref + " has no tag (it means latest)");
            String tag = lastPart.substring(lastPart.indexOf(':') + 1);
            assertFalse(tag.equals("latest") || tag.contains("$"), file + ": " + ref + " is not pinned");
        }
        // what runs in production is pinned to a full release, not a moving major line
        String runtime = d.finalStage().base();
        assertTrue(FULL_VERSION.matcher(runtime.substring(runtime.lastIndexOf(':') + 1)).find(),
                file + ": the runtime base " + runtime + " is not pinned to a full version");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Dockerfile.jvm", "Dockerfile.native"})
    void theDataDirectoryIsAVolumeAndTheTenantsDirIsSet(String file) throws IOException {
        Stage last = dockerfile(file).finalStage();
        Map<String, String> env = env(last);
        String data = env.get("CLOAKGATE_DATA_DIR");
        assertTrue(data != null && data.startsWith("/"), file + ": CLOAKGATE_DATA_DIR must be an absolute path");
        assertTrue(env.getOrDefault("CLOAKGATE_TENANTS_DIR", "").startsWith("/"), file + ": CLOAKGATE_TENANTS_DIR unset");
        assertTrue(last.all("VOLUME").stream().flatMap(v -> v.words().stream()).anyMatch(data::equals),
                file + ": the data directory " + data + " is not a VOLUME");
    }

    @Test
    void theJvmImageRunsTheJarTheBuildProduces() throws Exception {
        // the packaged ITs run the same jar: the pom names it once, for failsafe
        String jar = failsafeJar();
        String sourceJar = jar.replace("${project.build.directory}", "target");
        String sourceDir = sourceJar.substring(0, sourceJar.lastIndexOf('/'));

        Stage last = dockerfile("Dockerfile.jvm").finalStage();
        Instruction entry = last.last("ENTRYPOINT").orElseThrow();
        assertTrue(entry.execForm(), "ENTRYPOINT in exec form, so SIGTERM reaches the process (the gateway drains on it)");
        List<String> argv = entry.words();
        int j = argv.indexOf("-jar");
        assertTrue(j >= 0 && j + 1 < argv.size(), "ENTRYPOINT does not run a jar: " + argv);
        String runs = argv.get(j + 1);

        List<Copy> copies = copies(last);
        Optional<String> landed = landing(copies, Optional.empty(), sourceJar);
        assertEquals(Optional.of(runs), landed, "the entry point runs " + runs + " but the build's " + sourceJar
                + " lands at " + landed);
        // fast-jar: quarkus-run.jar finds the rest in lib/, app/ and quarkus/ beside it
        String runsDir = runs.substring(0, runs.lastIndexOf('/'));
        for (String sub : List.of("lib/main/x.jar", "lib/boot/x.jar", "app/x.jar", "quarkus/x.dat")) {
            assertEquals(Optional.of(runsDir + "/" + sub), landing(copies, Optional.empty(), sourceDir + "/" + sub),
                    sourceDir + "/" + sub + " must land beside the jar, as the fast-jar layout expects");
        }
    }

    private static String failsafeJar() throws Exception {
        var nodes = pom().getElementsByTagName("cloakgate.jar");
        if (nodes.getLength() != 1) {
            fail("the pom names the packaged jar once, as failsafe's cloakgate.jar; found " + nodes.getLength());
        }
        return nodes.item(0).getTextContent().strip();
    }

    @Test
    void theNativeImageRunsTheBinaryTheBuildProduces() throws Exception {
        Element pom = pom();
        Properties app = applicationProperties();
        String finalName = child(pom, "build", "finalName").orElse(
                child(pom, "artifactId").orElseThrow() + "-" + child(pom, "version").orElseThrow());
        String outputName = app.getProperty("quarkus.package.output-name", finalName);
        String binary = "target/" + outputName + app.getProperty("quarkus.package.runner-suffix", "-runner");

        Dockerfile d = dockerfile("Dockerfile.native");
        Stage last = d.finalStage();
        Copy fromBuild = copies(last).stream().filter(c -> c.from().isPresent()).findFirst()
                .orElseThrow(() -> new AssertionError("the final stage copies nothing from the build stage"));
        Stage build = d.stage(fromBuild.from().get()).orElseThrow();
        assertTrue(build.all("RUN").stream().anyMatch(r -> r.rest().contains("package")
                && r.rest().contains("-Dquarkus.native.enabled=true")), "the build stage does not run the native build");
        String workdir = stripSlash(build.last("WORKDIR").orElseThrow().rest().strip());
        Optional<String> landed = landing(copies(last), fromBuild.from(), workdir + "/" + binary);

        Instruction entry = last.last("ENTRYPOINT").orElseThrow();
        assertTrue(entry.execForm(), "ENTRYPOINT in exec form, so SIGTERM reaches the process (the gateway drains on it)");
        assertTrue(landed.isPresent(), "no COPY takes the build's " + workdir + "/" + binary);
        assertTrue(entry.words().contains(landed.get()), "the entry point " + entry.words() + " does not run "
                + landed.get() + ", where the build's " + binary + " lands");
    }

    @Test
    void theBuildContextAdmitsEveryFileTheImagesCopyFromIt() throws IOException {
        List<String> patterns = Files.readAllLines(BASE.resolve(".dockerignore")).stream()
                .map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        for (String file : List.of("Dockerfile.jvm", "Dockerfile.native")) {
            for (Stage s : dockerfile(file).stages()) {
                for (Copy c : copies(s)) {
                    if (c.from().isPresent()) {
                        continue;
                    }
                    for (String src : c.sources()) {
                        String probe = stripSlash(src).replace("*", "x");
                        assertFalse(ignored(patterns, probe), file + ": COPY " + src + " is excluded by .dockerignore");
                    }
                }
            }
        }
        // and what must stay out does: local state and secrets, test fixtures
        for (String path : List.of("data/keys/ledger-signing.key", "src/test/node/package.json", "config/tenants/demo.json")) {
            assertTrue(ignored(patterns, path), path + " would be sent to the image build");
        }
    }

    /** .dockerignore: the last pattern matching a path or one of its parents decides; {@code !} re-includes. */
    private static boolean ignored(List<String> patterns, String path) {
        boolean out = false;
        for (String p : patterns) {
            boolean negate = p.startsWith("!");
            String glob = stripSlash(negate ? p.substring(1) : p);
            String prefix = path;
            boolean matches = false;
            while (true) {
                if (globMatches(glob, prefix)) {
                    matches = true;
                    break;
                }
                int slash = prefix.lastIndexOf('/');
                if (slash < 0) {
                    break;
                }
                prefix = prefix.substring(0, slash);
            }
            if (matches) {
                out = !negate;
            }
        }
        return out;
    }
}
