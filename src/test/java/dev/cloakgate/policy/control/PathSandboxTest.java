package dev.cloakgate.policy.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.policy.Action;
import dev.cloakgate.policy.Finding;
import dev.cloakgate.policy.Findings;
import dev.cloakgate.policy.Stage;
import dev.cloakgate.policy.Subject;

/**
 * Path arguments against POSIX and Windows roots, lexically and (for roots on this host) through symlinks; relative
 * paths only against a declared base.
 */
class PathSandboxTest {
    private static final ObjectMapper M = new ObjectMapper();

    /** Does not exist on the test host: judged lexically only. */
    private final PathSandbox posix = new PathSandbox(List.of("/srv/project", "/data/shared/"));
    private final PathSandbox windows = new PathSandbox(List.of("C:\\data", "\\\\fileserver\\share"));
    /** The same roots, where the tenant declared that upstream fs resolves relative paths against the first. */
    private final PathSandbox posixBased = new PathSandbox(List.of("/srv/project", "/data/shared/"),
            Map.of("fs", "/srv/project"));
    private final PathSandbox windowsBased = new PathSandbox(List.of("C:\\data", "\\\\fileserver\\share"),
            Map.of("fs", "C:\\data"));
    /** server-filesystem allowed a parent (its base) of the one root: the setup in which relative paths escaped. */
    private final PathSandbox parentBased = new PathSandbox(List.of("/srv/p/root"), Map.of("fs", "/srv/p"));

    private static List<Finding> run(PathSandbox c, JsonNode args) {
        return run(c, "fs", args);
    }

    private static List<Finding> run(PathSandbox c, String upstream, JsonNode args) {
        Subject s = new Subject(Stage.REQUEST, "s1", upstream, upstream + "__read", "read", null, args, false);
        Findings out = new Findings();
        c.inspect(s, out);
        return out.list();
    }

    private static ObjectNode arg(String key, String value) {
        ObjectNode o = M.createObjectNode();
        o.put(key, value);
        return o;
    }

    private static Finding blocked(PathSandbox c, String key, String value) {
        List<Finding> f = run(c, arg(key, value));
        assertEquals(1, f.size(), () -> "expected one finding for " + key + "=" + value + ", got " + f);
        assertEquals(Action.BLOCK, f.get(0).action());
        assertEquals("path_outside_sandbox", f.get(0).reason());
        assertTrue(f.get(0).detail().startsWith("/" + key + " "), f.get(0).detail());
        return f.get(0);
    }

    private static void allowed(PathSandbox c, String key, String value) {
        List<Finding> f = run(c, arg(key, value));
        assertTrue(f.isEmpty(), () -> key + "=" + value + " should pass, got " + f);
    }

    @Test
    void nameAndStage() {
        assertEquals("path_sandbox", posix.name());
        assertTrue(posix.appliesTo(Stage.REQUEST));
        assertFalse(posix.appliesTo(Stage.RESPONSE));
        assertFalse(posix.appliesTo(Stage.DISCOVERY));
    }

    @Test
    void rootsAreRequiredAndAbsolute() {
        assertThrows(IllegalArgumentException.class, () -> new PathSandbox(List.of()));
        assertThrows(IllegalArgumentException.class, () -> new PathSandbox(null));
        assertThrows(IllegalArgumentException.class, () -> new PathSandbox(List.of("project")));
        assertThrows(IllegalArgumentException.class, () -> new PathSandbox(List.of("~/project")));
        assertThrows(IllegalArgumentException.class, () -> new PathSandbox(List.of("\\\\?\\C:\\data")));
        assertThrows(IllegalArgumentException.class, () -> new PathSandbox(List.of("/srv"), Map.of("fs", "srv")));
        assertThrows(IllegalArgumentException.class, () -> new PathSandbox(List.of("/srv"), Map.of("fs", "")));
    }

    // --- POSIX ---

    @ParameterizedTest
    @ValueSource(strings = {"/etc/passwd", "../../etc/passwd", "/srv/project/../secret", "/srv/projectile/x",
            "/srv", "/", "/SRV/project/x", "/srv/project/docs/../../../etc/shadow",
            "%2e%2e%2f%2e%2e%2fetc%2fpasswd", "%252e%252e%252f%252e%252e%252fetc", "%25252e%25252e%25252fetc",
            "%c0%ae%c0%ae%c0%afetc", "%e0%80%ae%e0%80%ae/etc", "..%c0%af..%c0%afetc", "file:///etc/passwd",
            "FILE:/etc/passwd", "file://localhost/etc/passwd", "file://attacker.example/share/x",
            "file:///srv/project/%2e%2e/%2e%2e/etc", "/srv/project/a\\..\\..\\etc", "sub\\..\\..\\..\\etc",
            "..\\..\\etc", "~/.ssh/id_rsa", "~root/.ssh/authorized_keys", "~", "C:\\Windows\\win.ini",
            "\\\\attacker\\share\\x", "/srv/project/x\u0000.txt", "..", "//etc/passwd"})
    void posixEscapesAreBlocked(String value) {
        Finding f = blocked(posix, "path", value);
        assertFalse(f.detail().contains("etc") || f.detail().contains("ssh") || f.detail().contains("attacker"),
                "the detail names the pointer and the kind, never the value: " + f.detail());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/srv/project", "/srv/project/", "/data/shared", "/data/shared/x.csv",
            "/srv/project/src/../README.md", "/srv/project/.env.local", "/srv/project/..foo", "/srv/project/a..b/c",
            "/srv/project/a\\b", "/srv/project/reports/100%25 done.txt", "/srv/project//double//slash",
            "/srv/project/a%2Fb/../c", "https://example.com/x", "HTTPS://user@example.com:8443/a/b?q=1#f",
            "git://github.com/org/repo.git"})
    void posixInsideIsAllowed(String value) {
        allowed(posix, "path", value);
        allowed(posixBased, "path", value);
    }

    // --- relative and empty paths: the upstream's base decides, so without a declared base they are refused ---

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "./x", "x", "x/y", "docs/./a/../b.txt", "./notes/today.md", "archive.tar.gz",
            "ab:/../x", "ab:x", "ab://host/x", "git+ssh://host/x", "x\\y", ".\\x", "file:x",
            "file:///srv/project/x.txt", " /srv/project/x", "\u00a0/srv/project/x", "'/srv/project/x'",
            "http:/srv/project/x", "https:///srv/project/x", "https://:80/x", "%2e", "%2E%2Fx"})
    void relativeAndEmptyPathsNeedADeclaredBase(String value) {
        Finding f = blocked(posix, "path", value);
        assertTrue(f.detail().contains("policy.path_base"), "the message says what to fix: " + f.detail());
        // an upstream whose base is declared is judged against it; any other upstream still has none
        assertTrue(run(posixBased, "other", arg("path", value)).size() == 1, value);
    }

    @Test
    void emptyAndRelativeSayWhich() {
        assertTrue(blocked(posix, "path", "").detail().startsWith("/path is empty, which the upstream resolves against a base"));
        assertTrue(blocked(posix, "path", ".").detail().startsWith("/path is relative, which the upstream resolves against a base"));
        assertTrue(blocked(posix, "file", "file:///srv/project/x.txt").detail().startsWith("/file is a file: URI"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"C:x", "C:", "\\x", "\\", "..\\x"})
    void windowsRelativeFormsAreRefusedEvenWithABase(String value) {
        blocked(posix, "path", value);
        blocked(posixBased, "path", value);
        blocked(windows, "path", value);
        if (!value.startsWith("..")) {
            blocked(windowsBased, "path", value); // drive-relative and rooted-without-drive: never the base
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "x", "./x", "docs/./a/../b.txt", "./notes/today.md", "archive.tar.gz",
            "../project/inside.txt", "ab:/../x", "ab:x", "x\\y", "a/b/../../c", "file:///srv/project/x.txt",
            " /srv/project/x", "https://example.com/x"})
    void relativePathsResolveAgainstTheDeclaredBase(String value) {
        allowed(posixBased, "path", value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"..", "../x", "a/../../x", "ab:/../../x", "x\\..\\..\\y", "../../data/shared/x",
            "%2e%2e/x", "a%2Fb/../../x", "https://example.com/../x"})
    void relativePathsMayNotClimbOutOfTheBase(String value) {
        // ../../data/shared/x lands in a root, but server-filesystem tries each allowed directory in turn for a
        // path that leaves the first: where it lands is not the gateway's to know
        blocked(posixBased, "path", value);
    }

    @Test
    void aBaseAboveTheRootAdmitsOnlyWhatLandsInTheRoot() {
        allowed(parentBased, "path", "root");
        allowed(parentBased, "path", "root/inside.txt");
        allowed(parentBased, "path", "./root/sub/../x");
        for (String v : List.of("", ".", "outside/secret.txt", "root/../outside/secret.txt", "ab:/../outside/secret.txt",
                "https://example.com/x", "rootx/y")) {
            assertEquals("/path resolves outside the sandbox roots", blocked(parentBased, "path", v).detail(), v);
        }
        assertEquals("/path climbs out of the upstream's declared base (policy.path_base)",
                blocked(parentBased, "path", "../q/root/x").detail());
        allowed(parentBased, "path", "../p/root/x"); // where it ends is what counts, as for path.resolve
    }

    @Test
    void aBaseInTheWindowsGrammar() {
        allowed(windowsBased, "path", "sub\\x.txt");
        allowed(windowsBased, "path", "sub/x.txt");
        allowed(windowsBased, "path", "");
        blocked(windowsBased, "path", "..\\x");
        blocked(windowsBased, "path", "sub\\..\\..\\x");
        blocked(windowsBased, "path", "ab:\\..\\x"); // a colon in a name is an alternate data stream
        blocked(windows, "path", "sub\\x.txt");
    }

    @Test
    void everyReadingMustBeInside() {
        // Node opens the raw string: a%2Fb is one name, so the two .. climb out of the root; decoded it stays in
        blocked(posix, "path", "/srv/project/a%2Fb/../../etc/passwd");
        blocked(posixBased, "path", "a%2Fb/../../x");
        // server-filesystem trims (JavaScript white space, a quote at each end) before it checks
        blocked(posixBased, "path", " /etc/passwd");
        blocked(posixBased, "path", "\u3000/etc/passwd");
        blocked(posixBased, "path", "\"/etc/passwd\"");
        blocked(posixBased, "path", "'../x'");
        // a file: URI is a URI to one consumer and a relative name to another
        blocked(posixBased, "path", "file:///etc/passwd");
        blocked(parentBased, "path", "file:///srv/p/root/x.txt"); // as a relative name it lands in /srv/p
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://evil.example/../../outside/secret.txt", "https://evil.example/a/%2e%2e/%2e%2e/x",
            "http://example.com/./x", "https://example.com/x\\y", "https://example.com/a b", "https://example.com/a\tb",
            "https://example.com/x?q=/../../y"})
    void aUrlUnderAPathKeyMustBePlain(String value) {
        // a filesystem server resolves "https://h/../../x" to its base's parent: the scheme is just a name to it
        blocked(posix, "path", value);
        blocked(posixBased, "path", value);
    }

    @Test
    void arraysAndTwoPathToolsAreJudgedElementByElement() throws Exception {
        JsonNode paths = M.readTree("{\"paths\":[\"/srv/project/a\",\"b.txt\",\"\",\"/etc/passwd\"]}");
        List<Finding> f = run(posix, paths);
        assertEquals(List.of("/paths/1", "/paths/2", "/paths/3"), f.stream().map(x -> x.detail().split(" ")[0]).toList(), f.toString());
        assertEquals(List.of("/paths/3"), run(posixBased, paths).stream().map(x -> x.detail().split(" ")[0]).toList());

        JsonNode move = M.readTree("{\"source\":\"a.txt\",\"destination\":\"/srv/project/b.txt\"}");
        assertEquals(List.of("/source"), run(posix, move).stream().map(x -> x.detail().split(" ")[0]).toList());
        assertTrue(run(posixBased, move).isEmpty());
        JsonNode back = M.readTree("{\"source\":\"/srv/project/b.txt\",\"destination\":\"../elsewhere/b.txt\"}");
        assertEquals(List.of("/destination"), run(posixBased, back).stream().map(x -> x.detail().split(" ")[0]).toList());
    }

    @Test
    void aValueTheToolsSchemaEnumeratesIsTheAuthorsChoiceNotAPath() throws Exception {
        ObjectNode declaration = (ObjectNode) M.readTree("{\"name\":\"search_inbox\",\"inputSchema\":{\"type\":\"object\","
                + "\"properties\":{\"folder\":{\"type\":\"string\",\"enum\":[\"inbox\",\"archive\"]},"
                + "\"dirs\":{\"type\":\"array\",\"items\":{\"const\":\"sent\"}},\"path\":{\"type\":\"string\"}}}}");
        JsonNode args = M.readTree("{\"folder\":\"archive\",\"dirs\":[\"sent\",\"other\"],\"path\":\"archive\"}");
        Findings out = new Findings();
        posix.inspect(new Subject(Stage.REQUEST, "s1", "mail", "mail__search_inbox", "search_inbox", declaration, args, false), out);
        // the enumerated values pass; the same word where the model chose it freely is a relative path
        assertEquals(List.of("/dirs/1", "/path"), out.list().stream().map(x -> x.detail().split(" ")[0]).toList(), out.list().toString());
        JsonNode other = M.readTree("{\"folder\":\"../x\"}");
        Findings more = new Findings();
        posix.inspect(new Subject(Stage.REQUEST, "s1", "mail", "mail__search_inbox", "search_inbox", declaration, other, false), more);
        assertEquals(1, more.list().size(), "a value outside the enum is judged: " + more.list());
        // a hostile declaration cannot exempt a path-shaped value by listing it
        ObjectNode listsEscape = (ObjectNode) M.readTree("{\"name\":\"open\",\"inputSchema\":{\"type\":\"object\","
                + "\"properties\":{\"folder\":{\"enum\":[\"../x\",\"/etc/passwd\"]}}}}");
        for (String listed : List.of("../x", "/etc/passwd")) {
            Findings f = new Findings();
            posix.inspect(new Subject(Stage.REQUEST, "s1", "mail", "mail__open", "open", listsEscape,
                    M.readTree("{\"folder\":\"" + listed + "\"}"), false), f);
            assertEquals(1, f.list().size(), listed + ": " + f.list());
        }
    }

    @Test
    void shapedRelativeValuesUnderOtherKeysAreJudgedToo() {
        blocked(posix, "note", "./x");
        blocked(posix, "note", "..");
        allowed(posixBased, "note", "./x");
        allowed(posix, "note", "x/y"); // no path shape, no path key: text
        allowed(posix, "note", "");
    }

    @Test
    void pathKeysIncludeCompoundsAndArrays() throws Exception {
        for (String key : List.of("file", "filename", "filePath", "file_path", "output-dir", "outputDir", "src",
                "dst", "cwd", "destination", "target", "source", "folder", "directory", "root")) {
            blocked(posix, key, "..\\..\\x"); // escapes only when backslashes separate
            blocked(posix, key, "a/../../../x"); // not path-shaped: only the key makes it a path
        }
        // not a path key: the same unshaped value is not judged
        allowed(posix, "profile", "a/../../../x");
        allowed(posix, "title", "a/../../../x");

        JsonNode args = M.readTree("{\"paths\":[\"/srv/project/a\",\"x/../../../../etc\"],\"opts\":{\"dir\":\"/srv/project/ok\"}}");
        List<Finding> f = run(posix, args);
        assertEquals(1, f.size(), f.toString());
        assertEquals("/paths/1 climbs out of the upstream's declared base (policy.path_base)",
                run(posixBased, args).get(0).detail());
        assertTrue(f.get(0).detail().startsWith("/paths/1 is relative"), f.get(0).detail());
    }

    @Test
    void shapeMattersUnderAnyKey() throws Exception {
        blocked(posix, "note", "/etc/shadow");
        blocked(posix, "query", "%2Fetc%2Fshadow");
        blocked(posix, "uri", "file:///etc/hosts");
        allowed(posix, "uri", "https://example.com/etc/passwd");
        allowed(posix, "source", "https://github.com/org/repo");
        allowed(posix, "note", "~5 minutes");
        allowed(posix, "name", "hello ../../ world");
        allowed(posix, "version", "1.2.3");
        List<Finding> f = run(posix, M.readTree("{\"a\":1,\"b\":true,\"c\":null,\"d\":[1,2]}"));
        assertTrue(f.isEmpty(), f.toString());
    }

    @Test
    void detailsNameTheKindOfViolation() {
        assertEquals("/path contains a NUL byte", blocked(posix, "path", "/srv/project/a\u0000b").detail());
        assertEquals("/path uses home-directory expansion", blocked(posix, "path", "~/x").detail());
        assertEquals("/path resolves outside the sandbox roots when backslashes are read as separators",
                blocked(posix, "path", "/srv/project/a\\..\\..\\etc").detail());
        String nested = "..";
        for (int i = 0; i < 10; i++) {
            nested = nested.replace("%", "%25").replace(".", "%2e");
        }
        assertEquals("/path is percent-encoded too many times to judge", blocked(posix, "path", nested).detail());
    }

    @Test
    void backslashReadAsACharacterCannotSmuggleAnOutsidePathIn() {
        // to the kernel this is "/srv" + "project\x": a sibling of the root, not inside it
        blocked(posix, "path", "/srv/project\\x");
    }

    // --- Windows ---

    @ParameterizedTest
    @ValueSource(strings = {"C:\\data\\..\\Windows\\win.ini", "c:/data/../windows", "D:\\data\\x", "C:\\",
            "C:\\database\\x", "C:\\data\\file.txt::$DATA", "C:\\data\\file.txt:hidden", "C:\\data\\CON",
            "C:\\data\\nul.txt", "C:\\data\\com1 .log", "C:\\data\\sub\\LPT1", "\\\\?\\C:\\data\\x",
            "\\\\.\\PhysicalDrive0", "//?/C:/data/x", "//./pipe/x", "\\\\evil\\share\\x", "\\\\fileserver\\other\\x",
            "\\\\fileserver", "C:data\\x", "\\data\\x", "..\\..\\Windows", "sub/../../x", "/etc/passwd",
            "C:\\data\\...\\x", "C:\\data\\. .\\x", "C:\\data\uFF3C..\uFF3CWindows", "file:///C:/Windows/win.ini",
            "file://evil/share/x", "C:\\data%5c..%5c..%5cWindows", "C:%5Cdata%5C%2E%2E%5CWindows",
            "~\\Documents", "C:\\data\\x\u0000.txt"})
    void windowsEscapesAreBlocked(String value) {
        blocked(windows, "path", value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"C:\\data", "C:\\data\\", "c:\\DATA\\Reports\\q1.xlsx", "c:/data/sub/../x.txt",
            "C:\\data\\report.v2.final.docx", "C:\\data.\\x", "\\\\FileServer\\Share\\docs\\a.txt",
            "//fileserver/share/b.txt", "C:\\data\\a\\..\\b", "C:\\data\\console.txt", "C:\\data\\COM10"})
    void windowsInsideIsAllowed(String value) {
        allowed(windows, "path", value);
        allowed(windowsBased, "path", value);
    }

    @Test
    void aFileUriOnWindowsIsAlsoANameWithAColon() {
        // to a server that does not parse URIs, C:\data\file:\C:\data\x.txt: not a name Windows can open
        blocked(windows, "path", "file:///C:/data/x.txt");
        blocked(windowsBased, "path", "file:///C:/data/x.txt");
    }

    @Test
    void windowsDetails() {
        assertEquals("/path names an alternate data stream",
                blocked(windows, "path", "C:\\data\\file.txt::$DATA").detail());
        assertEquals("/path names a Windows device", blocked(windows, "path", "C:\\data\\CON").detail());
        assertEquals("/path is a Windows device path", blocked(windows, "path", "\\\\?\\C:\\data\\x").detail());
        assertEquals("/path resolves outside the sandbox roots",
                blocked(windows, "path", "\\\\evil\\share\\x").detail());
    }

    @Test
    void posixDeviceNamesAndColonsAreOrdinaryNames() {
        allowed(posix, "path", "/srv/project/CON");
        allowed(posix, "path", "/srv/project/a:b.txt");
    }

    // --- symlinks, with a real root ---

    @Test
    void symlinkInsideTheRootPointingOutIsCaught(@TempDir Path tmp) throws Exception {
        Path root = Files.createDirectories(tmp.resolve("root"));
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "s");
        Files.createDirectories(outside.resolve("deep"));
        Files.createSymbolicLink(root.resolve("out"), outside);
        Files.createSymbolicLink(root.resolve("sublink"), outside.resolve("deep"));
        Files.createSymbolicLink(root.resolve("dangling"), tmp.resolve("nowhere").resolve("x"));
        Files.createDirectories(root.resolve("real"));
        Files.writeString(root.resolve("real").resolve("f.txt"), "f");
        Files.createSymbolicLink(root.resolve("alias"), root.resolve("real"));
        Files.createDirectories(root.resolve("a/b"));
        Files.writeString(root.resolve("a/x"), "inside");
        Files.createSymbolicLink(root.resolve("up"), root.resolve("a/b"));
        Files.createSymbolicLink(root.resolve("x"), outside.resolve("secret.txt"));
        PathSandbox c = new PathSandbox(List.of(root.toString()));

        String r = root.toString();
        assertTrue(blocked(c, "path", r + "/out/secret.txt").detail().endsWith("symbolic link outside the sandbox roots"));
        blocked(c, "path", r + "/out/new-file.txt"); // not there yet: its existing parent is outside
        blocked(c, "path", r + "/out");
        blocked(c, "path", "out/secret.txt"); // relative, no base
        PathSandbox based = new PathSandbox(List.of(root.toString()), Map.of("fs", root.toString()));
        blocked(based, "path", "out/secret.txt"); // relative, against the base, through the link
        // lexically root/secret.txt, but the kernel resolves sublink first and .. leaves the target
        blocked(c, "path", r + "/sublink/../secret.txt");
        assertEquals("/path resolves through a dangling symbolic link",
                blocked(c, "path", r + "/dangling").detail());

        allowed(c, "path", r);
        allowed(c, "path", r + "/alias/f.txt");
        allowed(c, "path", r + "/real/f.txt");
        allowed(c, "path", r + "/new-dir/new-file.txt");
        blocked(c, "path", "real/../real/f.txt");
        allowed(based, "path", "real/../real/f.txt");
        allowed(based, "path", "alias/f.txt");
        allowed(based, "path", "");
        // the kernel reads up/../x as a/x (inside); Node's path.resolve makes it root/x first, a link out
        allowed(c, "path", r + "/a/x");
        blocked(c, "path", r + "/up/../x");
        blocked(based, "path", "up/../x");
    }

    @Test
    void aRootThatIsItselfASymlinkIsComparedByItsRealPath(@TempDir Path tmp) throws Exception {
        Path real = Files.createDirectories(tmp.resolve("real-root"));
        Files.writeString(real.resolve("a.txt"), "a");
        Path link = Files.createSymbolicLink(tmp.resolve("root-link"), real);
        PathSandbox c = new PathSandbox(List.of(link.toString()));
        allowed(c, "path", link + "/a.txt");
        allowed(c, "path", link + "/b.txt");
        blocked(c, "path", link + "/../other");
        blocked(c, "path", real + "/a.txt"); // lexically not under the configured root
    }

    @Test
    void aLinkFromOneRootIntoAnotherStaysInside(@TempDir Path tmp) throws Exception {
        Path a = Files.createDirectories(tmp.resolve("a"));
        Path b = Files.createDirectories(tmp.resolve("b"));
        Files.writeString(b.resolve("f.txt"), "f");
        Files.createSymbolicLink(a.resolve("to-b"), b);
        allowed(new PathSandbox(List.of(a.toString(), b.toString())), "path", a + "/to-b/f.txt");
        blocked(new PathSandbox(List.of(a.toString())), "path", a + "/to-b/f.txt");
    }

    @Test
    void hostileInputsStayLinear(@TempDir Path tmp) throws Exception {
        Path root = Files.createDirectories(tmp.resolve("root"));
        PathSandbox local = new PathSandbox(List.of(root.toString()));
        int n = 300_000;
        List<String> hostile = List.of("../".repeat(n), "a/".repeat(n) + "x", "\\..".repeat(n), "%25".repeat(n),
                "%2e%2e%2f".repeat(n), "C:\\" + "a\\..\\".repeat(n), "\\\\s\\s" + "\\a".repeat(n),
                "/" + "a".repeat(n), root + "/" + "d/".repeat(n), "d/".repeat(n), " ".repeat(n) + "x",
                "https://h/" + "a/".repeat(n), "file:" + "a/".repeat(n));
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            for (PathSandbox c : List.of(posix, windows, local, posixBased, windowsBased,
                    new PathSandbox(List.of(root.toString()), Map.of("fs", root.toString())))) {
                for (String s : hostile) {
                    ObjectNode o = M.createObjectNode();
                    o.put("path", s);
                    o.put("note", s);
                    run(c, o);
                }
            }
        });
    }
}
