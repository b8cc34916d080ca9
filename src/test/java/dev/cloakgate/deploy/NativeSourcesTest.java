package dev.cloakgate.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cloakgate.cloak.DetectionFactory;

/**
 * Native-image readiness, as far as a machine without GraalVM can tell: the native build's sources-only step
 * (every extension's native build steps, {@code .ci/run}) writes {@code target/native-sources}: the runner jar with
 * the generated reflection and resource configuration, and the class path whose jars add their own. This reads
 * that configuration as native-image would and checks that what the gateway loads by name or as a resource is in
 * it: the bundled PERSON model and every class the model file names, libphonenumber's metadata, the JSON Schema
 * meta-schemas, the SQLite driver and its JNI library's feature. Runs only when {@code cloakgate.native-sources}
 * names that directory (the build's {@code verify} has none).
 */
@EnabledIfSystemProperty(named = "cloakgate.native-sources", matches = ".+")
class NativeSourcesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern CLASS_ATTRIBUTE = Pattern.compile("class=\"([^\"]+)\"");

    private static Path dir;
    private static final List<Pattern> RESOURCE_INCLUDES = new ArrayList<>();
    private static final Set<String> REFLECTION = new TreeSet<>();
    private static final List<String> ARGS = new ArrayList<>();
    private static final List<Path> CLASS_PATH = new ArrayList<>();

    @BeforeAll
    static void readTheNativeConfiguration() throws IOException {
        dir = Path.of(System.getProperty("cloakgate.native-sources")).toAbsolutePath();
        assertTrue(Files.isRegularFile(dir.resolve("native-image.args")), dir + " is not the native build's sources");
        ARGS.addAll(List.of(Files.readString(dir.resolve("native-image.args")).strip().split("\\s+")));
        try (Stream<Path> lib = Files.list(dir.resolve("lib"))) {
            lib.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(CLASS_PATH::add);
        }
        String runner = ARGS.get(ARGS.indexOf("-jar") + 1);
        CLASS_PATH.add(0, dir.resolve(runner));
        for (Path jar : CLASS_PATH) {
            try (ZipFile z = new ZipFile(jar.toFile())) {
                for (ZipEntry e : z.stream().toList()) {
                    String name = e.getName();
                    if (!name.startsWith("META-INF/native-image/")) {
                        continue;
                    }
                    if (name.endsWith("resource-config.json")) {
                        JsonNode includes = read(z, e).path("resources").path("includes");
                        includes.forEach(i -> RESOURCE_INCLUDES.add(Pattern.compile(i.path("pattern").asText())));
                    } else if (name.endsWith("reflect-config.json")) {
                        read(z, e).forEach(t -> REFLECTION.add(t.has("name") ? t.path("name").asText() : t.path("type").asText()));
                    } else if (name.endsWith("native-image.properties")) {
                        Properties p = new Properties();
                        try (InputStream in = z.getInputStream(e)) {
                            p.load(in);
                        }
                        ARGS.addAll(List.of(p.getProperty("Args", "").split("\\s+")));
                    }
                }
            }
        }
    }

    private static JsonNode read(ZipFile z, ZipEntry e) throws IOException {
        try (InputStream in = z.getInputStream(e)) {
            return JSON.readTree(in);
        }
    }

    private static boolean embedded(String resource) {
        return RESOURCE_INCLUDES.stream().anyMatch(p -> p.matcher(resource).matches());
    }

    /** The first entry of the native class path whose name matches, so a check never names a resource that is not there. */
    private static String onClassPath(String regex) throws IOException {
        Pattern p = Pattern.compile(regex);
        for (Path jar : CLASS_PATH) {
            try (ZipFile z = new ZipFile(jar.toFile())) {
                var hit = z.stream().map(ZipEntry::getName).filter(n -> p.matcher(n).matches()).findFirst();
                if (hit.isPresent()) {
                    return hit.get();
                }
            }
        }
        throw new AssertionError("nothing on the native class path matches " + regex);
    }

    @Test
    void theBundledPersonModelIsEmbedded() throws IOException {
        assertEmbedded(DetectionFactory.BUNDLED_PERSON_MODEL.substring(1));
    }

    @Test
    void theBundledInjectionModelIsEmbedded() throws IOException {
        // issue 13: without it the native gateway refuses to start (InjectionClassifier.bundled)
        assertEmbedded(dev.cloakgate.policy.control.InjectionClassifier.RESOURCE);
    }

    private static void assertEmbedded(String model) throws IOException {
        assertEquals(model, onClassPath(Pattern.quote(model)));
        assertTrue(embedded(model), model + " is not a native-image resource (quarkus.native.resources.includes)");
    }

    @Test
    void everyClassTheModelFileNamesIsRegisteredForReflection() throws IOException {
        // OpenNLP instantiates these by name while loading the model: read the names from the model itself
        Set<String> named = new TreeSet<>();
        try (InputStream in = DetectionFactory.class.getResourceAsStream(DetectionFactory.BUNDLED_PERSON_MODEL);
                ZipInputStream zip = new ZipInputStream(in)) {
            for (ZipEntry e; (e = zip.getNextEntry()) != null;) {
                String text = new String(zip.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                if (e.getName().equals("manifest.properties")) {
                    Properties p = new Properties();
                    p.load(new StringReader(text));
                    p.stringPropertyNames().stream()
                            .filter(k -> k.equals("factory") || k.equals("sequenceCodecImplName") || k.startsWith("serializer-class-"))
                            .forEach(k -> named.add(p.getProperty(k)));
                } else if (e.getName().endsWith(".featuregen")) {
                    Matcher m = CLASS_ATTRIBUTE.matcher(text);
                    while (m.find()) {
                        named.add(m.group(1));
                    }
                }
            }
        }
        assertTrue(named.size() > 3, "the model names fewer classes than expected: " + named);
        Set<String> missing = new TreeSet<>(named);
        missing.removeAll(REFLECTION);
        assertTrue(missing.isEmpty(), "loaded by name but not registered for reflection: " + missing);
    }

    @Test
    void libphonenumbersMetadataIsEmbedded() throws IOException {
        for (String region : List.of("US", "DE", "GB", "IN")) {
            String resource = onClassPath("com/google/i18n/phonenumbers/data/PhoneNumberMetadataProto_" + region);
            assertTrue(embedded(resource), resource + " is not a native-image resource: phone numbers would go undetected");
        }
        String shortNumbers = onClassPath("com/google/i18n/phonenumbers/data/ShortNumberMetadataProto_US");
        assertTrue(embedded(shortNumbers), shortNumbers + " is not a native-image resource");
    }

    @Test
    void theJsonSchemaMetaSchemasAreEmbedded() throws IOException {
        // SchemaConformance validates against draft 2020-12, whose meta-schemas json-schema-validator loads as resources
        String meta = onClassPath("draft/2020-12/schema");
        assertTrue(embedded(meta), meta + " is not a native-image resource");
        String vocabulary = onClassPath("draft/2020-12/meta/validation");
        assertTrue(embedded(vocabulary), vocabulary + " is not a native-image resource");
    }

    @Test
    void theSqliteDriverAndItsJniLibraryAreRegistered() {
        assertTrue(REFLECTION.contains("org.sqlite.JDBC"), "the SQLite driver class is not registered for reflection");
        // sqlite-jdbc's own feature embeds and loads its JNI library in a native image
        assertTrue(ARGS.stream().anyMatch(a -> a.startsWith("--features=") && a.contains("org.sqlite.nativeimage.SqliteJdbcFeature")),
                "no --features=org.sqlite.nativeimage.SqliteJdbcFeature on the native class path");
    }

    @Test
    void tlsIsEnabledForHttpsUpstreamsAndJwksUrls() {
        // quarkus.ssl.native: without it the executable is built without the https protocol
        assertTrue(ARGS.stream().anyMatch(a -> a.startsWith("--enable-url-protocols=") && List.of(a.substring(a.indexOf('=') + 1)
                .split(",")).contains("https")), "https is not enabled in the native build: " + ARGS.stream()
                .filter(a -> a.startsWith("--enable-url-protocols")).toList());
    }

    @Test
    void bouncyCastleIsOnTheNativeClassPath() throws IOException {
        // used through its lightweight API (no JCA provider, no reflection): being on the class path is what it needs
        onClassPath("org/bouncycastle/math/ec/rfc8032/Ed25519\\.class");
    }
}
