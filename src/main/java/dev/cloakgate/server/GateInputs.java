package dev.cloakgate.server;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Jcs;
import dev.cloakgate.crypto.StrictJson;
import dev.cloakgate.gate.ReleaseManifest;

/**
 * What the action-boundary commands read and write: a release manifest's hash, a JSON object from a file, a validity
 * such as {@code 15m}, and an owner-only file written whole or not at all. {@link IOException} is an I/O failure
 * (exit 2); {@link IllegalArgumentException} is content that is wrong (exit 1).
 */
final class GateInputs {
    private static final Pattern DURATION = Pattern.compile("([1-9][0-9]{0,6})([smhd])");

    private GateInputs() {
    }

    /** The work of a command once its usage is right; returns its exit code. */
    interface Work {
        int run() throws IOException;
    }

    /** Runs {@code work}: an I/O failure exits 2, wrong content 1, each with its message after {@code command}. */
    static int exitCode(String command, java.io.PrintStream err, Work work) {
        try {
            return work.run();
        } catch (IOException e) {
            err.println(command + ": cannot read or write " + e.getMessage());
            return 2;
        } catch (IllegalArgumentException e) {
            err.println(command + ": " + e.getMessage());
            return 1;
        }
    }

    /**
     * {@code sha256:<hex>} of the manifest, as the release gate computes it (domain, newline, JCS of the tree), once it
     * reads as a release manifest: a receipt or fingerprint for a manifest the gate would refuse is worth nothing.
     */
    static String releaseHash(Path manifest) throws IOException {
        return ReleaseManifest.read(manifest).releaseHash();
    }

    /** One strict JSON object (duplicate keys, lone surrogates and out-of-range numbers refused). */
    static ObjectNode jsonObject(Path file, String what) throws IOException {
        if (!(Jcs.parseStrict(Files.readAllBytes(file)) instanceof StrictJson.Parsed p) || !(p.value() instanceof ObjectNode o)) {
            throw new IllegalArgumentException(what + " " + file + " must be one strict JSON object");
        }
        return o;
    }

    /** {@code 30s}, {@code 15m}, {@code 1h}, {@code 7d}; null when the text is none of these. */
    static Duration duration(String text) {
        Matcher m = DURATION.matcher(text);
        if (!m.matches()) {
            return null;
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }

    /** Writes {@code file} readable by its owner only: a temporary file beside it, then moved into place. */
    static void writeOwnerOnly(Path file, byte[] bytes) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, ".cloakgate-", ".tmp", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rw-------")));
        try {
            Files.write(tmp, bytes);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
