package dev.cloakgate.ledger;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

import dev.cloakgate.crypto.Ed25519SigningKey;

/**
 * Finds the gateway's Ed25519 ledger signing key: a key file (a Kubernetes secret mounted as a volume), or the
 * value of env {@value #ENV} (a secretKeyRef), each a 32-byte seed as 64 hex digits or base64. Exactly one may be
 * set. Without either the gateway refuses to start, unless dev mode asks for a key generated once under the data
 * dir: a key that appeared silently in production would sign evidence nobody can trust.
 *
 * <p>No message or {@code toString} here holds key material.
 */
public final class SigningKeys {
    public static final String FILE_PROPERTY = "cloakgate.ledger.signing-key-file";
    public static final String ENV = "CLOAKGATE_LEDGER_SIGNING_KEY";
    public static final String DEV_PROPERTY = "cloakgate.ledger.dev-key";
    /** Issue 15: the key the ledgers were signed with before a rotation, for the start that rotates. */
    public static final String PREVIOUS_FILE_PROPERTY = "cloakgate.ledger.previous-signing-key-file";
    public static final String PREVIOUS_ENV = "CLOAKGATE_LEDGER_PREVIOUS_SIGNING_KEY_FILE";

    private static final String FORMS = "a 32-byte Ed25519 seed as 64 hex digits or base64";

    /**
     * The master key and where it came from. {@code dev}: a development key from the data dir, which the caller
     * should warn about.
     */
    public record Loaded(Ed25519SigningKey key, String source, boolean dev) {
        @Override
        public String toString() {
            return "SigningKeys.Loaded[" + key.publicKey() + ", " + source + (dev ? ", dev" : "") + "]";
        }
    }

    private SigningKeys() {
    }

    /**
     * The previous master key, when {@value #PREVIOUS_FILE_PROPERTY} names a file: read only, never generated.
     *
     * @throws SigningKeyException when the file cannot be read or holds no key, or holds the current key
     */
    public static Optional<Ed25519SigningKey> loadPrevious(Optional<Path> file, Ed25519SigningKey current) {
        if (file.isEmpty()) {
            return Optional.empty();
        }
        Ed25519SigningKey previous = readFile(file.get(), PREVIOUS_FILE_PROPERTY + " = " + file.get());
        if (previous.publicKey().equals(current.publicKey())) {
            throw new SigningKeyException(PREVIOUS_FILE_PROPERTY + " holds the current signing key; it is the key used"
                    + " before the rotation, or unset");
        }
        return Optional.of(previous);
    }

    /** Where dev mode keeps its generated key. */
    public static Path devKeyFile(Path dataDir) {
        return dataDir.resolve("keys").resolve("ledger-signing.key");
    }

    /**
     * @param keyFile {@value #FILE_PROPERTY}, if set
     * @param inline the value of env {@value #ENV}, if set
     * @param devMode {@value #DEV_PROPERTY}: generate (once) and reuse a key under {@code dataDir} when none is set
     * @throws SigningKeyException saying what to set or fix
     */
    public static Loaded load(Optional<Path> keyFile, Optional<String> inline, boolean devMode, Path dataDir) {
        if (keyFile.isPresent() && inline.isPresent()) {
            throw new SigningKeyException("both " + FILE_PROPERTY + " and env " + ENV + " are set; set only one, so that it"
                    + " is clear which key signs the ledger");
        }
        if (keyFile.isPresent()) {
            Path file = keyFile.get();
            return new Loaded(readFile(file, FILE_PROPERTY + " = " + file), file.toString(), false);
        }
        if (inline.isPresent()) {
            if (inline.get().isBlank()) {
                throw new SigningKeyException("env " + ENV + " is set but empty; it holds " + FORMS);
            }
            try {
                return new Loaded(Ed25519SigningKey.fromText(inline.get()), "env " + ENV, false);
            } catch (IllegalArgumentException e) {
                throw new SigningKeyException("env " + ENV + ": " + e.getMessage());
            }
        }
        if (!devMode) {
            throw new SigningKeyException("no ledger signing key: set " + FILE_PROPERTY + " to a file holding " + FORMS
                    + ", or env " + ENV + " to that value; for development only, " + DEV_PROPERTY
                    + "=true generates one under the data dir");
        }
        return devKey(dataDir);
    }

    private static Loaded devKey(Path dataDir) {
        Path file = devKeyFile(dataDir);
        String what = "dev key " + file;
        if (!Files.exists(file)) {
            Ed25519SigningKey made = create(file, what);
            if (made != null) {
                return new Loaded(made, "dev key generated at " + file, true);
            }
        }
        return new Loaded(readFile(file, what), "dev key at " + file + " (generated earlier)", true);
    }

    /**
     * Writes a fresh owner-only key once ({@link WriteOnce}): two gateways starting at once never see half a key or
     * keep different keys. Null when another process won: its key is the one to read.
     */
    private static Ed25519SigningKey create(Path file, String what) {
        Ed25519SigningKey key = Ed25519SigningKey.generate(new SecureRandom());
        byte[] seed = key.seed();
        byte[] text = (HexFormat.of().formatHex(seed) + "\n").getBytes(StandardCharsets.US_ASCII);
        try {
            return WriteOnce.create(file, text, true) ? key : null;
        } catch (IOException e) {
            throw new SigningKeyException("cannot create the " + what + ": " + reason(e), e);
        } finally {
            Arrays.fill(seed, (byte) 0);
            Arrays.fill(text, (byte) 0);
        }
    }

    private static Ed25519SigningKey readFile(Path file, String what) {
        try {
            return Ed25519SigningKey.fromFile(file);
        } catch (IOException e) {
            throw new SigningKeyException("cannot read the ledger signing key (" + what + "): " + reason(e));
        }
    }

    // names the failure, never the file's content
    private static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof CharacterCodingException) {
            return "not ASCII text; it holds " + FORMS;
        }
        return e.getMessage(); // Ed25519SigningKey's own refusals name the file and the forms only
    }
}
