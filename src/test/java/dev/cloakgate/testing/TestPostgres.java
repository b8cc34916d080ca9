package dev.cloakgate.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import javax.sql.DataSource;

import org.postgresql.ds.PGSimpleDataSource;

/**
 * Issue 17: a real PostgreSQL for the tests. Either the server named by {@code CLOAKGATE_TEST_PG_URL}
 * ({@code jdbc:postgresql://host:port/db?user=..&password=..}, a role allowed to create databases), or a private
 * throwaway cluster started here from the Debian package's binaries ({@code /usr/lib/postgresql/<v>/bin}; as user
 * {@code postgres} when the tests run as root, since PostgreSQL refuses to run as root), on a free loopback port,
 * with password authentication, stopped when the JVM exits. {@code .ci/run} installs the package. No Docker.
 *
 * <p>One server per test JVM ({@link #server()}); every caller takes its own fresh database ({@link #database}).
 */
public final class TestPostgres {
    public static final String USER = "cloakgate";
    public static final String PASSWORD = "cloakgate-test-password";
    private static final AtomicInteger NEXT = new AtomicInteger();
    private static TestPostgres server;

    /** A database of this server: the JDBC URL and credentials a gateway or a store is given. */
    public record Database(String name, String url, String user, String password) {
        public DataSource dataSource() {
            PGSimpleDataSource ds = new PGSimpleDataSource();
            ds.setUrl(url);
            ds.setUser(user);
            ds.setPassword(password);
            return ds;
        }

        /** Applies the gateway's migrations ({@code db/migration}) as its start would; returns this database. */
        public Database migrated() {
            org.flywaydb.core.Flyway.configure().dataSource(url, user, password).locations("classpath:db/migration")
                    .load().migrate();
            return this;
        }

        /** The gateway properties that put its shared state here ({@code -D} form, for {@link GatewayProcess}). */
        public List<String> gatewayProperties() {
            return List.of("-Dcloakgate.store=postgresql", "-Dquarkus.datasource.jdbc.url=" + url,
                    "-Dquarkus.datasource.username=" + user, "-Dquarkus.datasource.password=" + password);
        }
    }

    private final String adminUrl;
    private final String user;
    private final String password;

    private TestPostgres(String adminUrl, String user, String password) {
        this.adminUrl = adminUrl;
        this.user = user;
        this.password = password;
    }

    /** The test JVM's server, started on first use. */
    public static synchronized TestPostgres server() {
        if (server == null) {
            String external = System.getenv("CLOAKGATE_TEST_PG_URL");
            server = external != null && !external.isBlank() ? external(external) : startPrivate();
        }
        return server;
    }

    /** A new, empty database named after {@code purpose} (lower-case letters, digits, underscores kept). */
    public Database database(String purpose) {
        String name = ("cg_" + purpose.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_") + "_" + ProcessHandle.current().pid()
                + "_" + NEXT.incrementAndGet());
        if (name.length() > 60) {
            name = name.substring(name.length() - 60);
        }
        try (Connection c = DriverManager.getConnection(adminUrl, user, password); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database " + name + ": " + e.getMessage(), e);
        }
        return new Database(name, adminUrl.replaceFirst("/[^/?]*(\\?.*)?$", "/" + name), user, password);
    }

    private static TestPostgres external(String url) {
        org.postgresql.Driver.isRegistered();
        String u = System.getenv().getOrDefault("CLOAKGATE_TEST_PG_USER", USER);
        String p = System.getenv().getOrDefault("CLOAKGATE_TEST_PG_PASSWORD", PASSWORD);
        return new TestPostgres(url, u, p);
    }

    private static TestPostgres startPrivate() {
        Path bin = binaries().orElseThrow(() -> new IllegalStateException("no PostgreSQL for the tests: install the"
                + " Debian package (apt-get install -y postgresql; .ci/run does) or set CLOAKGATE_TEST_PG_URL"));
        boolean root = "root".equals(System.getProperty("user.name"));
        try {
            Path dir = Files.createTempDirectory("cloakgate-pg-");
            Path pwfile = dir.resolve("pw");
            Files.writeString(pwfile, PASSWORD + "\n", StandardCharsets.UTF_8);
            if (root) {
                run(List.of("chown", "-R", "postgres", dir.toString()), false);
            }
            Path data = dir.resolve("data");
            run(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", USER, "--pwfile=" + pwfile,
                    "-A", "scram-sha-256", "-E", "UTF8", "--no-sync", "--locale=C"), root);
            int port = freePort();
            // fsync off: a test server's durability is not under test (the gateway's own settings are)
            run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("log").toString(),
                    "-w", "-t", "120", "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off"
                            + " -c synchronous_commit=off -c full_page_writes=off -c max_connections=300",
                    "start"), root);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "-w", "stop"), root);
                } catch (IOException | RuntimeException e) {
                    // the JVM is exiting; a left-over server dies with the machine's session
                }
                deleteQuietly(dir);
            }));
            org.postgresql.Driver.isRegistered();
            return new TestPostgres("jdbc:postgresql://127.0.0.1:" + port + "/postgres", USER, PASSWORD);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the test PostgreSQL: " + e.getMessage(), e);
        }
    }

    /** The newest installed server's bin directory. */
    static Optional<Path> binaries() {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("pg_ctl")))
                    .max(Comparator.comparingInt(b -> version(b.getParent().getFileName().toString())));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static int version(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static void run(List<String> command, boolean asPostgres) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (asPostgres) {
            cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        cmd.addAll(command);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out;
        try {
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(command.get(0) + " did not finish");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed (" + p.exitValue() + "): " + out);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // temporary files; the OS cleans /tmp
        }
    }
}
