package dev.cloakgate.policy.control;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.policy.Action;
import dev.cloakgate.policy.Control;
import dev.cloakgate.policy.Findings;
import dev.cloakgate.policy.Stage;
import dev.cloakgate.policy.Subject;
import dev.cloakgate.policy.Texts;

/**
 * Path-like arguments must resolve inside one of the configured roots, as the upstream will resolve them.
 *
 * <p>A string is judged when its key names a path ({@code path}, {@code file}, {@code dir}, ... also as the last
 * word of a compound such as {@code outputDir} or {@code file_path}, and for array elements under such keys) or
 * when the value has a path shape ({@code /}, {@code ~}, {@code .}, {@code ./}, {@code ../}, {@code X:\},
 * {@code \}, {@code file:}). Under a path key the value is a path whatever it looks like: a "scheme" does not make
 * it something else, because a filesystem server does not parse URLs ({@code ab:/../x} is {@code ./ab:/../x} to
 * Node's {@code path.resolve}). Only a plain URL with an authority under a remote scheme ({@link #REMOTE_SCHEMES})
 * is left to egress control.
 *
 * <p>A relative or empty path is resolved by the upstream against a base the gateway cannot see (server-filesystem
 * uses its allowed directory; another server its working directory), so it is refused unless the tenant declares
 * that upstream's base ({@code policy.path_base}); with a base it must stay inside the base and land in a root.
 *
 * <p>Every reading a consumer might apply must be inside: the string as written (Node does not percent-decode) and
 * after each round of percent-decoding; trimmed of whitespace and quotes (server-filesystem's normalizePath does);
 * a {@code file:} URI both as a URI and as the relative path a server that does not parse URIs sees. Judging is
 * lexical first, in the grammar of the roots (POSIX: case-sensitive; Windows: either separator, case-insensitive,
 * trailing dots and spaces dropped as Win32 does), a POSIX path with a backslash both with the backslash as a
 * character and as a separator. Then, where the root exists on this host, physically: the longest existing prefix
 * of the path, as written (so {@code link/..} is resolved the way the kernel does it) and as lexically normalised
 * (what Node opens after {@code path.resolve}), goes through {@link Path#toRealPath} and must land under a root's
 * real path. A string that cannot be read as a path is outside.
 */
public final class PathSandbox implements Control {
    public static final String NAME = "path_sandbox";
    public static final String REASON = "path_outside_sandbox";

    /**
     * Schemes whose URLs name a remote resource, not a file: under a path key, {@code scheme://host/...} with one
     * of these is left to egress control (if the URL has no dot segments, see {@link #plainUrl}).
     */
    static final Set<String> REMOTE_SCHEMES = Set.of("http", "https", "ws", "wss", "ftp", "ftps", "sftp", "ssh",
            "git");

    private static final String NO_BASE = " against a base the gateway does not know: send an absolute path, or"
            + " declare the upstream's base in policy.path_base";

    /**
     * Why a relative path that leaves its base is refused even when it lands in a root: server-filesystem tries
     * each of its allowed directories in turn for such a path, so where it lands depends on what the gateway does
     * not see.
     */
    private static final String CLIMBS = "climbs out of the upstream's declared base (policy.path_base)";

    /** Linux PATH_MAX: nothing longer can be opened, so nothing longer is walked on the filesystem. */
    private static final int MAX_LOCAL_PATH = 4096;

    private static final Set<String> PATH_WORDS = Set.of("path", "paths", "file", "files", "filename", "filenames",
            "filepath", "filepaths", "dir", "dirs", "directory", "directories", "folder", "folders", "source",
            "sources", "destination", "target", "src", "dst", "dest", "cwd", "root", "workdir");

    private static final Set<String> DEVICE_NAMES = Set.of("con", "prn", "aux", "nul", "conin$", "conout$",
            "clock$", "com0", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8", "com9", "com\u00b9",
            "com\u00b2", "com\u00b3", "lpt0", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
            "lpt\u00b9", "lpt\u00b2", "lpt\u00b3");

    enum Grammar {
        POSIX, WINDOWS
    }

    /**
     * A lexically normalised absolute location. {@code prefix} is empty for POSIX, {@code c:} for a drive,
     * {@code \\server\share} for UNC.
     */
    record Location(Grammar grammar, String prefix, List<String> segments) {
        boolean within(Location root) {
            if (grammar != root.grammar || segments.size() < root.segments.size()) {
                return false;
            }
            boolean fold = grammar == Grammar.WINDOWS;
            if (fold ? !prefix.equalsIgnoreCase(root.prefix) : !prefix.equals(root.prefix)) {
                return false;
            }
            for (int i = 0; i < root.segments.size(); i++) {
                String a = segments.get(i);
                String b = root.segments.get(i);
                if (fold ? !a.equalsIgnoreCase(b) : !a.equals(b)) {
                    return false;
                }
            }
            return true;
        }

        String text() {
            String sep = grammar == Grammar.POSIX ? "/" : "\\";
            return prefix + sep + String.join(sep, segments);
        }
    }

    /** A location, or why the candidate is refused without comparing it to anything. */
    private record Parsed(Location location, String refusal) {
        static Parsed refuse(String why) {
            return new Parsed(null, why);
        }
    }

    /** A configured root; {@code local} is set when it can exist on this host's filesystem. */
    record Root(Location location, Path local) {
    }

    private final List<Root> roots;
    private final boolean anyPosixRoot;
    /** By upstream name: the directory it resolves relative paths against. */
    private final Map<String, Location> bases;

    public PathSandbox(List<String> roots) {
        this(roots, Map.of());
    }

    /** {@code bases}: by upstream name, the absolute directory that upstream resolves relative paths against. */
    public PathSandbox(List<String> roots, Map<String, String> bases) {
        if (roots == null || roots.isEmpty()) {
            throw new IllegalArgumentException("path_sandbox needs at least one root");
        }
        List<Root> parsed = new ArrayList<>();
        boolean posix = false;
        for (String r : roots) {
            Location loc = absoluteDirectory(r, "root");
            posix |= loc.grammar == Grammar.POSIX;
            boolean hostGrammar = (File.separatorChar == '/') == (loc.grammar == Grammar.POSIX);
            Path local = null;
            if (hostGrammar) {
                try {
                    local = Path.of(loc.text());
                } catch (InvalidPathException e) {
                    local = null;
                }
            }
            parsed.add(new Root(loc, local));
        }
        this.roots = List.copyOf(parsed);
        this.anyPosixRoot = posix;
        Map<String, Location> b = new HashMap<>();
        bases.forEach((upstream, dir) -> b.put(upstream, absoluteDirectory(dir, "base of upstream " + upstream)));
        this.bases = Map.copyOf(b);
    }

    private Location absoluteDirectory(String dir, String what) {
        if (dir == null || dir.isBlank()) {
            throw new IllegalArgumentException("path_sandbox: empty " + what);
        }
        Parsed p = parseRoot(dir.strip());
        if (p.refusal != null) {
            throw new IllegalArgumentException("path_sandbox: " + what + " must be an absolute POSIX or Windows path ("
                    + p.refusal + ")");
        }
        return p.location;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean appliesTo(Stage stage) {
        return stage == Stage.REQUEST;
    }

    @Override
    public void inspect(Subject subject, Findings out) {
        Location base = subject.upstream() == null ? null : bases.get(subject.upstream());
        // Real paths of the roots, resolved once per message: the filesystem may change between messages.
        Map<Root, Optional<Path>> realRoots = new HashMap<>();
        JsonNode properties = subject.declaration() == null ? null
                : subject.declaration().path("inputSchema").path("properties");
        Texts.visit(subject.payload(), (pointer, key, text) -> {
            // only a bare name ("archive") is exempt: a path-shaped value is judged even when the schema lists it
            if (!pathShaped(text) && enumerated(properties, pointer, text)) {
                return null;
            }
            String why = judge(key, text, base, realRoots);
            if (why != null) {
                out.add(Action.BLOCK, REASON, (pointer.isEmpty() ? "the argument" : pointer) + " " + why);
            }
            return null;
        });
    }

    /**
     * Whether the tool's published inputSchema lists this exact value ({@code enum} or {@code const}) for a
     * top-level argument or the items of one: {@code "folder": "archive"} of a mail server's
     * {@code ["inbox", "sent", "archive"]} is a choice the server's author made, not a path the model named.
     */
    private static boolean enumerated(JsonNode properties, String pointer, String text) {
        if (properties == null || !properties.isObject() || pointer.length() < 2) {
            return false;
        }
        String[] parts = pointer.substring(1).split("/", -1);
        if (parts.length > 2 || (parts.length == 2 && !parts[1].matches("[0-9]+"))) {
            return false;
        }
        JsonNode schema = properties.path(parts[0].replace("~1", "/").replace("~0", "~"));
        if (parts.length == 2) {
            schema = schema.path("items");
        }
        if (schema.path("const").isTextual() && schema.path("const").textValue().equals(text)) {
            return true;
        }
        for (JsonNode option : schema.path("enum")) {
            if (option.isTextual() && option.textValue().equals(text)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Why {@code text} is refused, or null when it is not a path or is inside. Never mentions the value.
     * {@code base} is where the upstream resolves relative paths, or null when the tenant did not declare it.
     */
    String judge(String key, String text, Location base, Map<Root, Optional<Path>> realRoots) {
        boolean byKey = pathKey(key);
        if (text.indexOf('%') >= 0 && Decoding.percentDecodeFully(text) == null) {
            return byKey || pathShaped(text) || text.startsWith("%") ? "is percent-encoded too many times to judge"
                    : null;
        }
        // each round of percent-decoding is a reading: Node opens the raw string, a lenient server the decoded one
        String layer = text;
        while (true) {
            if (byKey || pathShaped(layer)) {
                String why = judgeLayer(layer, base, realRoots);
                if (why != null) {
                    return why;
                }
            }
            String next = layer.indexOf('%') < 0 ? layer : Decoding.percentDecodeOnce(layer);
            if (next.equals(layer)) {
                return null;
            }
            layer = next;
        }
    }

    /** As written, and as server-filesystem's normalizePath cleans it (JavaScript trim, then a quote at each end). */
    private String judgeLayer(String layer, Location base, Map<Root, Optional<Path>> realRoots) {
        String why = judgeReading(layer, base, realRoots);
        if (why != null) {
            return why;
        }
        String cleaned = jsTrimAndUnquote(layer);
        return cleaned.equals(layer) ? null : judgeReading(cleaned, base, realRoots);
    }

    private String judgeReading(String p, Location base, Map<Root, Optional<Path>> realRoots) {
        if (p.indexOf('\0') >= 0) {
            return "contains a NUL byte";
        }
        if (remoteUrl(p)) {
            if (!plainUrl(p)) {
                // path.resolve(base, "https://h/../../x") is base/../x: a filesystem server reads this as a path
                return "is a URL with dot segments, backslashes or spaces, which a filesystem server reads as a"
                        + " relative path";
            }
            // egress control judges the host; a server that does not parse URLs reads it as base/https:/host/...,
            // which stays below its base, and which must be inside a root where the base is known
            return base == null ? null : check(p, base, realRoots);
        }
        if (p.regionMatches(true, 0, "file:", 0, 5)) {
            String why = check(fromFileUri(p.substring(5)), base, realRoots);
            if (why != null) {
                return why;
            }
            if (base == null) {
                return "is a file: URI, which a server that does not parse URIs resolves as a relative path" + NO_BASE;
            }
        }
        return check(p, base, realRoots);
    }

    private String check(String p, Location base, Map<Root, Optional<Path>> realRoots) {
        if (p.startsWith("~")) {
            return "uses home-directory expansion";
        }
        if (p.startsWith("\\\\?\\") || p.startsWith("\\\\.\\") || p.startsWith("\\??\\")) {
            return "is a Windows device path";
        }
        boolean windowsShape = driveLetter(p) || p.startsWith("\\");
        boolean absolute = windowsShape || p.startsWith("/");
        if (!absolute && base == null) {
            // server-filesystem 2026.8.31 (lib.js validatePath): a path that is not path.isAbsolute goes to
            // resolveRelativePathAgainstAllowedDirectories, i.e. path.resolve(allowedDir, p) for each allowed
            // directory in turn (process.cwd() when it has none); path.resolve(dir, "") and (dir, ".") are dir itself
            return (p.isEmpty() ? "is empty, which the upstream resolves" : "is relative, which the upstream resolves")
                    + NO_BASE;
        }
        Grammar g;
        if (!absolute) {
            g = base.grammar;
        } else if (windowsShape) {
            g = Grammar.WINDOWS;
        } else {
            g = anyPosixRoot ? Grammar.POSIX : Grammar.WINDOWS;
        }
        Location relativeTo = absolute ? null : base;
        if (g == Grammar.WINDOWS) {
            Parsed w = parseWindows(p, relativeTo);
            if (w.refusal != null) {
                return w.refusal;
            }
            if (relativeTo != null && !w.location.within(relativeTo)) {
                return CLIMBS;
            }
            return containing(w.location).isEmpty() ? "resolves outside the sandbox roots" : null;
        }
        // POSIX: the backslash is a character to the kernel but a separator to many a careless server.
        Location lexical = parsePosix(p, false, relativeTo);
        if (relativeTo != null && !lexical.within(relativeTo)) {
            return CLIMBS;
        }
        List<Root> inside = containing(lexical);
        if (inside.isEmpty()) {
            return "resolves outside the sandbox roots";
        }
        if (p.indexOf('\\') >= 0) {
            Location separated = parsePosix(p, true, relativeTo);
            if ((relativeTo != null && !separated.within(relativeTo)) || containing(separated).isEmpty()) {
                return "resolves outside the sandbox roots when backslashes are read as separators";
            }
        }
        // the kernel's reading of the path as written, then what Node opens after path.resolve normalised it
        String written = absolute ? p : base.text() + "/" + p;
        String why = physical(written, inside, realRoots);
        String normalised = lexical.text();
        return why != null || normalised.equals(written) ? why : physical(normalised, inside, realRoots);
    }

    private List<Root> containing(Location loc) {
        List<Root> in = new ArrayList<>(1);
        for (Root r : roots) {
            if (loc.within(r.location)) {
                in.add(r);
            }
        }
        return in;
    }

    /**
     * The kernel's view of an absolute POSIX path: resolve what exists of it (not lexically normalised, so that
     * {@code link/..} goes where the link goes), then append the part still to be created.
     */
    private String physical(String abs, List<Root> inside, Map<Root, Optional<Path>> realRoots) {
        for (Root r : inside) {
            if (realRoots.computeIfAbsent(r, PathSandbox::realRoot).isEmpty()) {
                return null; // a root that is not here (the upstream runs elsewhere): lexical is all we can do
            }
        }
        if (abs.length() > MAX_LOCAL_PATH) {
            return "is too long to resolve";
        }
        Path raw;
        try {
            raw = Path.of(abs);
        } catch (InvalidPathException e) {
            return "is not a valid path on this host";
        }
        Path existing = raw.getRoot();
        int n = raw.getNameCount();
        int k = 0;
        while (k < n) {
            Path next = existing.resolve(raw.getName(k));
            if (!Files.exists(next, LinkOption.NOFOLLOW_LINKS)) {
                break;
            }
            existing = next;
            k++;
        }
        Path resolved;
        try {
            resolved = existing.toRealPath();
        } catch (NoSuchFileException e) {
            return "resolves through a dangling symbolic link";
        } catch (IOException | SecurityException e) {
            return "could not be resolved on the filesystem";
        }
        if (k < n) {
            resolved = resolved.resolve(raw.subpath(k, n)).normalize();
        }
        // any root will do: a link from one root into another stays inside the sandbox
        for (Root r : roots) {
            Optional<Path> real = realRoots.computeIfAbsent(r, PathSandbox::realRoot);
            if (real.isPresent() && resolved.startsWith(real.get())) {
                return null;
            }
        }
        return "resolves through a symbolic link outside the sandbox roots";
    }

    private static Optional<Path> realRoot(Root r) {
        if (r.local == null || !Files.exists(r.local)) {
            return Optional.empty();
        }
        try {
            return Optional.of(r.local.toRealPath());
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }

    // --- which strings are paths ---

    /** The key, or the last word of a compound key (camelCase, snake_case, kebab-case), names a path. */
    static boolean pathKey(String key) {
        if (key == null || key.isEmpty()) {
            return false;
        }
        String k = key.toLowerCase(Locale.ROOT);
        if (PATH_WORDS.contains(k.replace("_", "").replace("-", ""))) {
            return true;
        }
        int start = 0;
        for (int i = key.length() - 1; i > 0; i--) {
            char c = key.charAt(i);
            if (c == '_' || c == '-' || c == '.') {
                start = i + 1;
                break;
            }
            if (Character.isUpperCase(c) && Character.isLowerCase(key.charAt(i - 1))) {
                start = i;
                break;
            }
        }
        return start > 0 && PATH_WORDS.contains(k.substring(start));
    }

    static boolean pathShaped(String s) {
        if (s.isEmpty()) {
            return false;
        }
        char c = s.charAt(0);
        return c == '/' || homeShaped(s) || s.startsWith("\\\\") || s.equals(".") || s.equals("..") || s.startsWith("./")
                || s.startsWith("../") || s.startsWith(".\\") || s.startsWith("..\\")
                || (driveLetter(s) && s.length() > 2 && (s.charAt(2) == '\\' || s.charAt(2) == '/'))
                || s.regionMatches(true, 0, "file:", 0, 5);
    }

    /** {@code ~}, {@code ~/x}, {@code ~user/x}; not "~5 minutes". */
    private static boolean homeShaped(String s) {
        if (s.charAt(0) != '~') {
            return false;
        }
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '/' || c == '\\') {
                return true;
            }
            if (!(isAsciiLetter(c) || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    private static boolean driveLetter(String s) {
        return s.length() >= 2 && s.charAt(1) == ':' && isAsciiLetter(s.charAt(0));
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    /** {@code scheme://host...} with a scheme of {@link #REMOTE_SCHEMES} and a non-empty host. */
    static boolean remoteUrl(String s) {
        int colon = s.indexOf("://");
        if (colon < 2 || colon > 8 || !REMOTE_SCHEMES.contains(s.substring(0, colon).toLowerCase(Locale.ROOT))) {
            return false;
        }
        int start = colon + 3;
        int end = start;
        while (end < s.length() && "/?#\\".indexOf(s.charAt(end)) < 0) {
            end++;
        }
        String authority = s.substring(start, end);
        String hostPort = authority.substring(authority.lastIndexOf('@') + 1);
        return !hostPort.isEmpty() && hostPort.charAt(0) != ':';
    }

    /**
     * No dot segment, backslash, space or control character anywhere: a URL whose path is as written to WHATWG
     * and RFC 3986 alike, and which a server that does not parse URLs reads as a path below its base.
     */
    private static boolean plainUrl(String s) {
        int segmentStart = 0;
        for (int i = 0; i <= s.length(); i++) {
            char c = i < s.length() ? s.charAt(i) : '/';
            if (c <= ' ' || c == '\u007f' || c == '\\') {
                return false;
            }
            if (c == '/') {
                String segment = s.substring(segmentStart, i);
                if (segment.equals(".") || segment.equals("..")) {
                    return false;
                }
                segmentStart = i + 1;
            }
        }
        return true;
    }

    /**
     * server-filesystem's normalizePath: {@code p.trim().replace(/^["']|["']$/g, '')}. JavaScript's trim removes
     * Unicode white space and line terminators, which is more than {@link String#strip()} does.
     */
    static String jsTrimAndUnquote(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && jsSpace(s.charAt(start))) {
            start++;
        }
        while (end > start && jsSpace(s.charAt(end - 1))) {
            end--;
        }
        if (start < end && (s.charAt(start) == '"' || s.charAt(start) == '\'')) {
            start++;
        }
        if (end > start && (s.charAt(end - 1) == '"' || s.charAt(end - 1) == '\'')) {
            end--;
        }
        return s.substring(start, end);
    }

    private static boolean jsSpace(char c) {
        return c == '\t' || c == '\n' || c == '\u000b' || c == '\f' || c == '\r' || c == ' ' || c == '\u00a0'
                || c == '\u1680' || (c >= '\u2000' && c <= '\u200a') || c == '\u2028' || c == '\u2029'
                || c == '\u202f' || c == '\u205f' || c == '\u3000' || c == '\ufeff';
    }

    /** {@code file:} already stripped. Query and fragment are left in: they can only add segments. */
    private static String fromFileUri(String rest) {
        if (!rest.startsWith("//")) {
            return rest; // file:/etc/x, file:C:/x, file:relative
        }
        int end = rest.indexOf('/', 2);
        String authority = end < 0 ? rest.substring(2) : rest.substring(2, end);
        String path = end < 0 ? "" : rest.substring(end);
        if (authority.isEmpty() || authority.equalsIgnoreCase("localhost")) {
            // file:///C:/x -> C:/x
            if (path.length() >= 3 && path.charAt(0) == '/' && driveLetter(path.substring(1))) {
                return path.substring(1);
            }
            return path.isEmpty() ? "/" : path;
        }
        return "\\\\" + authority + path.replace('/', '\\'); // a remote host is UNC
    }

    // --- grammars ---

    private Parsed parseRoot(String r) {
        if (r.startsWith("/")) {
            return new Parsed(parsePosix(r, false, null), null);
        }
        if (r.startsWith("~")) {
            return Parsed.refuse("home-relative");
        }
        if ((driveLetter(r) && r.length() > 2 && (r.charAt(2) == '\\' || r.charAt(2) == '/'))
                || r.startsWith("\\\\")) {
            return parseWindows(r, null);
        }
        return Parsed.refuse("relative");
    }

    /** {@code base} resolves a relative path; null only while parsing roots. */
    private static Location parsePosix(String p, boolean backslashSeparates, Location base) {
        List<String> segs = new ArrayList<>();
        if (!p.startsWith("/") && base != null) {
            segs.addAll(base.segments);
        }
        int i = 0;
        int n = p.length();
        while (i <= n) {
            int j = i;
            while (j < n && p.charAt(j) != '/' && !(backslashSeparates && p.charAt(j) == '\\')) {
                j++;
            }
            pushLexical(segs, p.substring(i, j));
            i = j + 1;
        }
        return new Location(Grammar.POSIX, "", List.copyOf(segs));
    }

    private static void pushLexical(List<String> segs, String seg) {
        if (seg.isEmpty() || seg.equals(".")) {
            return;
        }
        if (seg.equals("..")) {
            if (!segs.isEmpty()) {
                segs.remove(segs.size() - 1); // above the top stays at the top, as the OS does
            }
            return;
        }
        segs.add(seg);
    }

    private static Parsed parseWindows(String p, Location base) {
        String w = p.replace('/', '\\');
        if (w.startsWith("\\\\?\\") || w.startsWith("\\\\.\\") || w.startsWith("\\??\\")) {
            return Parsed.refuse("is a Windows device path");
        }
        for (int i = 0; i < w.length(); i++) {
            if (bestFitSeparator(w.charAt(i))) {
                // ANSI code pages map these to '\', '/' or '.': the name Windows opens is not the one we read
                return Parsed.refuse("contains a character Windows may read as a separator or dot");
            }
        }
        String prefix;
        String rest;
        List<String> segs = new ArrayList<>();
        if (w.startsWith("\\\\")) {
            int s1 = w.indexOf('\\', 2);
            int s2 = s1 < 0 ? -1 : w.indexOf('\\', s1 + 1);
            String server = s1 < 0 ? w.substring(2) : w.substring(2, s1);
            String share = s1 < 0 ? "" : s2 < 0 ? w.substring(s1 + 1) : w.substring(s1 + 1, s2);
            if (server.isEmpty() || share.isEmpty() || onlyDotsAndSpaces(server) || onlyDotsAndSpaces(share)) {
                return Parsed.refuse("is an incomplete UNC path");
            }
            prefix = "\\\\" + server + "\\" + trimWin(share);
            rest = s2 < 0 ? "" : w.substring(s2);
        } else if (driveLetter(w) && w.length() >= 3 && w.charAt(2) == '\\') {
            prefix = w.substring(0, 2);
            rest = w.substring(2);
        } else if (driveLetter(w) && (w.length() == 2 || w.charAt(2) != '\\')) {
            return Parsed.refuse("is a drive-relative path");
        } else if (w.startsWith("\\")) {
            return Parsed.refuse("is rooted without a drive");
        } else {
            if (base == null || base.grammar != Grammar.WINDOWS) {
                return Parsed.refuse("is relative");
            }
            prefix = base.prefix;
            segs.addAll(base.segments);
            rest = w;
        }
        int i = 0;
        int n = rest.length();
        while (i <= n) {
            int j = rest.indexOf('\\', i);
            if (j < 0) {
                j = n;
            }
            String seg = rest.substring(i, j);
            i = j + 1;
            if (seg.isEmpty() || seg.equals(".") || seg.equals("..")) {
                pushLexical(segs, seg);
                continue;
            }
            if (onlyDotsAndSpaces(seg)) {
                return Parsed.refuse("has an ambiguous dot segment");
            }
            if (seg.indexOf(':') >= 0) {
                return Parsed.refuse("names an alternate data stream");
            }
            String t = trimWin(seg);
            if (device(t)) {
                return Parsed.refuse("names a Windows device");
            }
            segs.add(t);
        }
        return new Parsed(new Location(Grammar.WINDOWS, prefix, List.copyOf(segs)), null);
    }

    private static boolean bestFitSeparator(char c) {
        return c == '\uFF0F' || c == '\uFF3C' || c == '\uFF0E' || c == '\u2215' || c == '\u2216' || c == '\uFE68';
    }

    private static boolean onlyDotsAndSpaces(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '.' && c != ' ') {
                return false;
            }
        }
        return true;
    }

    /** Win32 drops trailing dots and spaces: {@code data.} opens {@code data}. */
    private static String trimWin(String seg) {
        int end = seg.length();
        while (end > 0 && (seg.charAt(end - 1) == '.' || seg.charAt(end - 1) == ' ')) {
            end--;
        }
        return seg.substring(0, end);
    }

    /** {@code CON}, {@code nul.txt}, {@code COM1 .log}: the device, whatever the extension. */
    private static boolean device(String seg) {
        int dot = seg.indexOf('.');
        String base = trimWin(dot < 0 ? seg : seg.substring(0, dot)).toLowerCase(Locale.ROOT);
        return DEVICE_NAMES.contains(base);
    }
}
