package dev.cloakgate.tenant;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether an stdio upstream's {@code command} will be found when the gateway starts it, judged the way the JDK's
 * {@link ProcessBuilder} finds it: a command with a path separator is taken relative to the child's working
 * directory (its {@code cwd}, else the gateway's), a bare name is searched on the <em>gateway's</em> {@code PATH}
 * (an empty entry meaning that working directory). The upstream's own {@code env.PATH} reaches the child but is not
 * where the JDK looks, which is worth saying: a command found only there fails to start.
 */
public final class CommandLocator {
    private static final boolean WINDOWS = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");

    private final String gatewayPath;
    private final Path workingDir;

    /**
     * @param gatewayPath the gateway's own {@code PATH} (null when unset)
     * @param workingDir the gateway's working directory
     */
    public CommandLocator(String gatewayPath, Path workingDir) {
        this.gatewayPath = gatewayPath;
        this.workingDir = workingDir;
    }

    /** What to warn about {@code upstream}'s command, or null when it will be found. Never the command itself. */
    public String warning(UpstreamConfig.Stdio upstream) {
        String command = upstream.command();
        Path dir = upstream.cwd() != null ? upstream.cwd() : workingDir;
        if (command.contains("/") || command.contains(File.separator)) {
            return runnable(dir, command) ? null : "not an executable file (a command with a path is taken relative to"
                    + " the upstream's cwd, else the gateway's working directory): the upstream will not start";
        }
        if (found(gatewayPath, dir, command)) {
            return null;
        }
        String own = upstream.env().get("PATH");
        if (own != null && found(own, dir, command)) {
            return "found only on the upstream's env PATH, which the gateway does not search when it starts the child"
                    + " (the JDK looks on the gateway's own PATH): give the command's absolute path";
        }
        return "not found on the gateway's PATH: the upstream will not start (install it, or give its absolute path)";
    }

    private static boolean found(String path, Path dir, String command) {
        if (path == null) {
            return false;
        }
        for (String entry : path.split(File.pathSeparator, -1)) {
            if (runnable(entry.isEmpty() ? dir : dir.resolve(entry), command)) {
                return true;
            }
        }
        return false;
    }

    private static boolean runnable(Path dir, String command) {
        List<String> names = new ArrayList<>(List.of(command));
        if (WINDOWS) {
            for (String ext : List.of(".exe", ".cmd", ".bat", ".com")) {
                names.add(command + ext);
            }
        }
        for (String name : names) {
            try {
                Path p = dir.resolve(name);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return true;
                }
            } catch (InvalidPathException e) {
                return false;
            }
        }
        return false;
    }
}
