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

import dev.cloakgate.policy.Action;
import dev.cloakgate.policy.Control;
import dev.cloakgate.policy.Findings;
import dev.cloakgate.policy.Stage;
import dev.cloakgate.policy.Subject;
import dev.cloakgate.policy.Texts;

/**
 * Path-like arguments must resolve inside one of the configured roots.
 *
 * <p>A string is judged when its key names a path ({@code path}, {@code file}, {@code dir}, ... also as the last
 * word of a compound such as {@code outputDir} or {@code file_path}, and for array elements under such keys) or
 * when the value has a path shape ({@code /}, {@code ~}, {@code ./}, {@code ../}, {@code X:\}, {@code \\},
 * {@code file:}), before or after percent-decoding.
 *
 * <p>Judging is lexical first, in the grammar of the roots (POSIX: case-sensitive; Windows: either separator,
 * case-insensitive, trailing dots and spaces dropped as Win32 does), and a candidate must be inside under every
 * reading a consumer might plausibly apply: a POSIX path with a backslash is judged both with the backslash as a
 * character and as a separator. Then, where the root exists on this host, physically: the longest existing prefix
 * of the path as written (so {@code link/..} is resolved the way the kernel does it) goes through
 * {@link Path#toRealPath} and must land under the root's real path.
 */
public final class PathSandbox implements Control {
    public static final String NAME = "path_sandbox";
    public static final String REASON = "path_outside_sandbox";

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

    public PathSandbox(List<String> roots) {
        if (roots == null || roots.isEmpty()) {
            throw new IllegalArgumentException("path_sandbox needs at least one root");
        }
        List<Root> parsed = new ArrayList<>();
        boolean posix = false;
        for (String r : roots) {
            if (r == null || r.isBlank()) {
                throw new IllegalArgumentException("path_sandbox: empty root");
            }
            Parsed p = parseRoot(r.strip());
            if (p.refusal != null) {
                throw new IllegalArgumentException("path_sandbox: root must be an absolute POSIX or Windows path ("
                        + p.refusal + ")");
            }
            Location loc = p.location;
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
        // Real paths of the roots, resolved once per message: the filesystem may change between messages.
        Map<Root, Optional<Path>> realRoots = new HashMap<>();
        Texts.visit(subject.payload(), (pointer, key, text) -> {
            String why = judge(key, text, realRoots);
            if (why != null) {
                out.add(Action.BLOCK, REASON, (pointer.isEmpty() ? "the argument" : pointer) + " " + why);
            }
            return null;
        });
    }

    /** Why {@code text} is refused, or null when it is not a path or is inside. Never mentions the value. */
    String judge(String key, String text, Map<Root, Optional<Path>> realRoots) {
        boolean byKey = pathKey(key);
        String decoded = Decoding.percentDecodeFully(text);
        if (decoded == null) {
            return byKey || pathShaped(text) || text.startsWith("%") ? "is percent-encoded too many times to judge"
                    : null;
        }
        if (!byKey && !pathShaped(text) && !pathShaped(decoded)) {
            return null;
        }
        if (decoded.isEmpty() || (!pathShaped(decoded) && hasNonFileScheme(decoded))) {
            // "source": "https://..." names a resource, not a file
            return null;
        }
        return check(decoded, realRoots);
    }

    private String check(String decoded, Map<Root, Optional<Path>> realRoots) {
        if (decoded.indexOf('\0') >= 0) {
            return "contains a NUL byte";
        }
        String p = decoded;
        if (p.regionMatches(true, 0, "file:", 0, 5)) {
            p = fromFileUri(p.substring(5));
        }
        if (p.startsWith("~")) {
            return "uses home-directory expansion";
        }
        if (p.startsWith("\\\\?\\") || p.startsWith("\\\\.\\") || p.startsWith("\\??\\")) {
            return "is a Windows device path";
        }
        boolean windowsShape = driveLetter(p) || p.startsWith("\\");
        Grammar g;
        if (windowsShape) {
            g = Grammar.WINDOWS;
        } else if (p.startsWith("/")) {
            g = anyPosixRoot ? Grammar.POSIX : Grammar.WINDOWS;
        } else {
            g = roots.get(0).location.grammar; // relative: against the first root
        }
        if (g == Grammar.WINDOWS) {
            Parsed w = parseWindows(p, roots.get(0).location);
            if (w.refusal != null) {
                return w.refusal;
            }
            return containing(w.location).isEmpty() ? "resolves outside the sandbox roots" : null;
        }
        // POSIX: the backslash is a character to the kernel but a separator to many a careless server.
        List<Root> inside = containing(parsePosix(p, false, roots.get(0).location));
        if (inside.isEmpty()) {
            return "resolves outside the sandbox roots";
        }
        if (p.indexOf('\\') >= 0 && containing(parsePosix(p, true, roots.get(0).location)).isEmpty()) {
            return "resolves outside the sandbox roots when backslashes are read as separators";
        }
        return physical(p, inside, realRoots);
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
     * The kernel's view: resolve what exists of the path as written (not lexically normalised, so that
     * {@code link/..} goes where the link goes), then append the part still to be created.
     */
    private String physical(String p, List<Root> inside, Map<Root, Optional<Path>> realRoots) {
        for (Root r : inside) {
            if (realRoots.computeIfAbsent(r, PathSandbox::realRoot).isEmpty()) {
                return null; // a root that is not here (the upstream runs elsewhere): lexical is all we can do
            }
        }
        Root first = roots.get(0);
        String abs = p.startsWith("/") ? p : first.location.text() + "/" + p;
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

    /** A URI scheme of two or more characters (one character is a drive letter) other than file. */
    private static boolean hasNonFileScheme(String s) {
        int i = 0;
        while (i < s.length() && i < 32) {
            char c = s.charAt(i);
            if (c == ':') {
                return i >= 2;
            }
            boolean ok = isAsciiLetter(c) || (i > 0 && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'));
            if (!ok) {
                return false;
            }
            i++;
        }
        return false;
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
