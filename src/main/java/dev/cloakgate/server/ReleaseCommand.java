package dev.cloakgate.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.Jcs;
import dev.cloakgate.crypto.SignerKeys;
import dev.cloakgate.crypto.StrictJson;
import dev.cloakgate.gate.CertificationIssuer;
import dev.cloakgate.gate.CertificationStatement;
import dev.cloakgate.gate.GateDocuments;
import dev.cloakgate.gate.ReleaseManifest;
import dev.cloakgate.gate.ToolContract;

/**
 * The operator's side of signed releases, offline (nothing here reads the gateway's settings):
 * {@code release keygen --out FILE} writes a new Ed25519 seed, owner-only, never over an existing file, and prints
 * its {@code KEYID=HEX} (what a tenant's trust keys list); {@code release certify} signs a certification of a manifest
 * for an environment and a window; {@code release hash} prints a manifest's release hash; {@code release tools-digest}
 * prints the digest of an upstream's tool declarations, for {@code spec.mcpServers.*.toolsDigest}. No command
 * overwrites a file. Exit 0 done, 1 refused or invalid (an existing output, a manifest that does not parse), 2 usage
 * or I/O.
 */
public final class ReleaseCommand {
    private static final String USAGE = "usage: release keygen --out FILE"
            + " | release certify --manifest M --key K --environment E [--not-before T] [--expires DURATION | --not-after T]"
            + " --out FILE | release hash --manifest M | release hash --contract C | release tools-digest --tools FILE"
            + "  (T: RFC 3339 time such as 2025-07-01T00:00:00Z; DURATION: 90s, 15m, 12h, 30d or ISO 8601 PT15M)";
    /** How long a certification is valid when neither --expires nor --not-after is given. */
    static final Duration DEFAULT_VALIDITY = Duration.ofDays(30);
    /** Each subcommand's options: anything else is refused, not ignored. */
    private static final java.util.Map<String, Set<String>> OPTIONS = java.util.Map.of(
            "keygen", Set.of("--out"),
            "certify", Set.of("--manifest", "--key", "--environment", "--not-before", "--expires", "--not-after", "--out"),
            "hash", Set.of("--manifest", "--contract"),
            "tools-digest", Set.of("--tools"));
    private final PrintStream out;
    private final PrintStream err;
    private final Clock clock;

    public ReleaseCommand(PrintStream out, PrintStream err) {
        this(out, err, Clock.systemUTC());
    }

    ReleaseCommand(PrintStream out, PrintStream err, Clock clock) {
        this.out = out;
        this.err = err;
        this.clock = clock;
    }

    public int run(String... args) {
        if (args.length < 2) {
            return usage("missing subcommand");
        }
        Set<String> options = OPTIONS.get(args[1]);
        if (options == null) {
            return usage("unknown subcommand " + args[1]);
        }
        String extra = Args.unexpected(args, 2, options, Set.of());
        if (extra != null) {
            return usage("unexpected argument " + extra + " (release " + args[1] + " takes " + options + ")");
        }
        try {
            return switch (args[1]) {
                case "keygen" -> keygen(args);
                case "certify" -> certify(args);
                case "hash" -> hash(args);
                case "tools-digest" -> toolsDigest(args);
                default -> usage("unknown subcommand " + args[1]);
            };
        } catch (IllegalArgumentException invalid) {
            err.println("release: refused: " + invalid.getMessage());
            return 1;
        } catch (FileAlreadyExistsException exists) {
            err.println("release: refused: " + exists.getFile() + " exists; nothing is overwritten (choose another"
                    + " --out or remove it first)");
            return 1;
        } catch (IOException e) {
            err.println("release: " + e.getMessage());
            return 2;
        }
    }

    private int keygen(String[] args) throws IOException {
        String file = Args.option(args, "--out");
        if (file == null) {
            return usage("keygen needs --out FILE");
        }
        Ed25519SigningKey key = Ed25519SigningKey.generate(new SecureRandom());
        byte[] seed = key.seed();
        byte[] text = (HexFormat.of().formatHex(seed) + "\n").getBytes(StandardCharsets.US_ASCII);
        try {
            write(Path.of(file), text, true);
        } finally {
            Arrays.fill(seed, (byte) 0);
            Arrays.fill(text, (byte) 0);
        }
        out.println(SignerKeys.spec(key.publicKey()));
        err.println("release keygen: wrote a new Ed25519 key to " + file + " (owner-only); trust it as the KEYID=HEX above");
        return 0;
    }

    private int certify(String[] args) throws IOException {
        String manifestFile = Args.option(args, "--manifest");
        String keyFile = Args.option(args, "--key");
        String environment = Args.option(args, "--environment");
        String file = Args.option(args, "--out");
        if (manifestFile == null || keyFile == null || environment == null || file == null) {
            return usage("certify needs --manifest M --key K --environment E --out FILE");
        }
        String expires = Args.option(args, "--expires");
        String notAfterText = Args.option(args, "--not-after");
        if (expires != null && notAfterText != null) {
            return usage("certify takes --expires or --not-after, not both");
        }
        Instant now = clock.instant();
        Instant notBefore;
        Instant notAfter;
        try {
            String from = Args.option(args, "--not-before");
            notBefore = from == null ? now : time(from, "--not-before");
            notAfter = notAfterText != null ? time(notAfterText, "--not-after")
                    : notBefore.plus(expires == null ? DEFAULT_VALIDITY : duration(expires));
        } catch (IllegalArgumentException bad) {
            return usage(bad.getMessage());
        }
        ReleaseManifest manifest = ReleaseManifest.read(Path.of(manifestFile));
        Ed25519SigningKey key = Ed25519SigningKey.fromFile(Path.of(keyFile));
        CertificationStatement statement = CertificationStatement.certified(manifest, environment, notBefore, notAfter, now);
        write(Path.of(file), CertificationIssuer.sign(statement, key), false);
        out.println("release " + manifest.releaseHash());
        out.println("statement " + statement.digest());
        out.println("keyid " + SignerKeys.keyId(key.publicKey()));
        out.println("environment " + environment);
        out.println("valid " + statement.notBefore() + " " + statement.notAfter());
        err.println("release certify: wrote " + file + "; revoke it by listing the statement digest above");
        return 0;
    }

    private int hash(String[] args) throws IOException {
        String manifestFile = Args.option(args, "--manifest");
        String contractFile = Args.option(args, "--contract");
        if ((manifestFile == null) == (contractFile == null)) {
            return usage("hash needs --manifest M or --contract C");
        }
        if (contractFile != null) {
            return contractReference(Path.of(contractFile));
        }
        ReleaseManifest manifest = ReleaseManifest.read(Path.of(manifestFile));
        out.println(manifest.releaseHash());
        err.println("release " + manifest.name() + ": " + manifest.tools().size() + " tool(s), " + manifest.policies().size()
                + " polic(ies), " + manifest.mcpServers().size() + " server identit(ies)");
        return 0;
    }

    /**
     * A tool contract's reference, {@code policy:<name>@sha256:<hex>}, as the manifest's {@code spec.policies} binds it:
     * the operator writes the contract, then lists this line in the release before certifying it.
     */
    private int contractReference(Path file) throws IOException {
        ToolContract contract = ToolContract.parse(GateDocuments.readFile(file), "tool contract " + file);
        out.println(contract.reference());
        err.println("contract " + contract.name() + ": " + contract.tools().size() + " tool(s); list the line above in"
                + " the release's spec.policies");
        return 0;
    }

    /** Reads a {@code tools/list} result ({@code {"tools": [...]}}), a response carrying one, or a bare array. */
    private int toolsDigest(String[] args) throws IOException {
        String toolsFile = Args.option(args, "--tools");
        if (toolsFile == null) {
            return usage("tools-digest needs --tools FILE");
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(Path.of(toolsFile))) {
            bytes = in.readNBytes(16 * 1024 * 1024);
        }
        if (!(Jcs.parseStrict(bytes) instanceof StrictJson.Parsed p)) {
            throw new IllegalArgumentException(toolsFile + " is not strict JSON");
        }
        JsonNode v = p.value();
        JsonNode tools = v.isArray() ? v : v.has("result") ? v.path("result").path("tools") : v.path("tools");
        if (!tools.isArray()) {
            throw new IllegalArgumentException(toolsFile + ": expected a tools/list result {\"tools\": [...]}, a response"
                    + " carrying one, or an array of tool declarations");
        }
        List<JsonNode> list = new ArrayList<>();
        tools.forEach(list::add);
        out.println(ReleaseManifest.toolsDigest(list));
        err.println("release tools-digest: " + list.size() + " tool declaration(s)");
        return 0;
    }

    /** Creates {@code file} with {@code bytes}, never over an existing one; a key is owner-only from its first byte. */
    private static void write(Path file, byte[] bytes, boolean ownerOnly) throws IOException {
        boolean posix = file.toAbsolutePath().getParent().getFileSystem().supportedFileAttributeViews().contains("posix");
        FileAttribute<?>[] attrs = ownerOnly && posix
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
                : new FileAttribute<?>[0];
        try (FileChannel ch = FileChannel.open(file, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                attrs)) {
            ch.write(ByteBuffer.wrap(bytes));
            ch.force(true);
        }
    }

    private static Instant time(String text, String option) {
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(option + " is an RFC 3339 time such as 2025-07-01T00:00:00Z");
        }
    }

    /** The action commands' short forms ({@code 15m}, {@link GateInputs#duration}) or ISO 8601 ({@code PT15M}). */
    static Duration duration(String text) {
        Duration d = GateInputs.duration(text);
        if (d != null) {
            return d;
        }
        try {
            d = Duration.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("--expires is a duration such as 90s, 15m, 12h, 30d or PT15M");
        }
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("--expires must be positive");
        }
        return d;
    }

    private int usage(String why) {
        err.println("release: " + why);
        err.println(USAGE);
        return 2;
    }
}
