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

/** Path arguments against POSIX and Windows roots, lexically and (for roots on this host) through symlinks. */
class PathSandboxTest {
    private static final ObjectMapper M = new ObjectMapper();

    /** Does not exist on the test host: judged lexically only. */
    private final PathSandbox posix = new PathSandbox(List.of("/srv/project", "/data/shared/"));
    private final PathSandbox windows = new PathSandbox(List.of("C:\\data", "\\\\fileserver\\share"));

    private static List<Finding> run(PathSandbox c, JsonNode args) {
        Subject s = new Subject(Stage.REQUEST, "s1", "fs", "fs__read", "read", null, args, false);
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
            "/srv/project/src/../README.md", "docs/./a/../b.txt", "archive.tar.gz", "/srv/project/.env.local",
            "/srv/project/..foo", "/srv/project/a..b/c", "/srv/project/a\\b", "./notes/today.md",
            "/srv/project/reports/100%25 done.txt", "/srv/project//double//slash", "file:///srv/project/x.txt",
            "../project/inside.txt"})
    void posixInsideIsAllowed(String value) {
        allowed(posix, "path", value);
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

        JsonNode args = M.readTree("{\"paths\":[\"/srv/project/a\",\"x/../../../../etc\"],\"opts\":{\"dir\":\"ok\"}}");
        List<Finding> f = run(posix, args);
        assertEquals(1, f.size(), f.toString());
        assertEquals("/paths/1 resolves outside the sandbox roots", f.get(0).detail());
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
            "//fileserver/share/b.txt", "file:///C:/data/x.txt", "sub\\x.txt", "C:\\data\\a\\..\\b",
            "C:\\data\\console.txt", "C:\\data\\COM10"})
    void windowsInsideIsAllowed(String value) {
        allowed(windows, "path", value);
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
        PathSandbox c = new PathSandbox(List.of(root.toString()));

        String r = root.toString();
        assertTrue(blocked(c, "path", r + "/out/secret.txt").detail().endsWith("symbolic link outside the sandbox roots"));
        blocked(c, "path", r + "/out/new-file.txt"); // not there yet: its existing parent is outside
        blocked(c, "path", r + "/out");
        blocked(c, "path", "out/secret.txt"); // relative, against the root
        // lexically root/secret.txt, but the kernel resolves sublink first and .. leaves the target
        blocked(c, "path", r + "/sublink/../secret.txt");
        assertEquals("/path resolves through a dangling symbolic link",
                blocked(c, "path", r + "/dangling").detail());

        allowed(c, "path", r);
        allowed(c, "path", r + "/alias/f.txt");
        allowed(c, "path", r + "/real/f.txt");
        allowed(c, "path", r + "/new-dir/new-file.txt");
        allowed(c, "path", "real/../real/f.txt");
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
                "/" + "a".repeat(n), root + "/" + "d/".repeat(n));
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            for (PathSandbox c : List.of(posix, windows, local)) {
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
