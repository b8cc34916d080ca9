package dev.cloakgate.ledger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A deployment's log identity: URL-like, a host name optionally followed by a path, without scheme
 * ({@code gateway.acme.example}, {@code acme.example/cloakgate-prod}). Tenant T's ledger has the checkpoint origin
 * {@code <identity>/ledger/<T>}, so two deployments' tenants of the same name are two different logs.
 *
 * <p>Configured by {@value #PROPERTY} (env {@value #ENV}); unset, one is generated once as
 * {@code <16 hex>.cloakgate.invalid} (RFC 2606 {@code .invalid}: plainly no real host) and kept at
 * {@link #generatedFile}, and the caller warns that it should be configured.
 *
 * @param generated true when it came from the data dir rather than from configuration
 */
public record LogIdentity(String value, boolean generated) {
    public static final String PROPERTY = "cloakgate.ledger.log-identity";
    public static final String ENV = "CLOAKGATE_LEDGER_LOG_IDENTITY";
    /** The stable code of every refusal of a configured identity. */
    public static final String INVALID = "invalid_log_identity";
    /** The origin prefix of ledgers created before log identities: {@code cloakgate/ledger/<T>}. */
    public static final String LEGACY_ORIGIN_PREFIX = "cloakgate/ledger/";

    private static final String EXAMPLES = "a host name, optionally with a path, without scheme (gateway.acme.example,"
            + " acme.example/cloakgate-prod)";
    private static final Pattern LABEL = Pattern.compile("[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?");
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._~-]+");

    public LogIdentity {
        String why = problem(value);
        if (why != null) {
            throw new SigningKeyException(INVALID + ": " + PROPERTY + " is not a log identity (" + why + "); give " + EXAMPLES);
        }
    }

    /** A configured identity; the exception ({@value #INVALID}) says what is wrong and what to give. */
    public static LogIdentity configured(String value) {
        return new LogIdentity(value, false);
    }

    /** The checkpoint origin of tenant T's ledger, which is also its checkpoint key's name. */
    public String origin(String tenant) {
        return value + "/ledger/" + tenant;
    }

    public static String legacyOrigin(String tenant) {
        return LEGACY_ORIGIN_PREFIX + tenant;
    }

    /** Where an identity generated for an unconfigured deployment is kept. */
    public static Path generatedFile(Path dataDir) {
        return dataDir.resolve("ledger").resolve("log-identity");
    }

    /**
     * The configured identity, else the one generated under the data dir (made now, once, when there is none).
     *
     * @throws SigningKeyException ({@value #INVALID}) for a configured value that is not an identity, or a generated
     *         file that cannot be read or written
     */
    public static LogIdentity resolve(Optional<String> configured, Path dataDir) {
        if (configured.isPresent() && !configured.get().isBlank()) {
            return configured(configured.get().strip());
        }
        Path file = generatedFile(dataDir);
        try {
            if (!Files.exists(file)) {
                String made = HexFormat.of().formatHex(random())
                        + ".cloakgate.invalid";
                WriteOnce.create(file, (made + "\n").getBytes(StandardCharsets.US_ASCII), false);
            }
            String text = Files.readString(file, StandardCharsets.US_ASCII).strip();
            if (problem(text) != null) {
                throw new SigningKeyException(INVALID + ": " + file + " does not hold a log identity; set " + PROPERTY
                        + " to " + EXAMPLES + ", or restore the file");
            }
            return new LogIdentity(text, true);
        } catch (IOException e) {
            throw new SigningKeyException("cannot read or create the generated log identity " + file + ": " + e.getMessage(), e);
        }
    }

    private static byte[] random() {
        byte[] b = new byte[8];
        new SecureRandom().nextBytes(b);
        return b;
    }

    /** Why {@code value} is not a log identity, or null when it is one. Never quotes the value. */
    static String problem(String value) {
        if (value == null || value.isEmpty()) {
            return "it is empty";
        }
        if (value.length() > 200) {
            return "longer than 200 characters";
        }
        if (value.contains("://")) {
            return "it has a scheme; leave out https://";
        }
        int slash = value.indexOf('/');
        String host = slash < 0 ? value : value.substring(0, slash);
        if (host.length() > 253) {
            return "the host name is longer than 253 characters";
        }
        for (String label : host.split("\\.", -1)) {
            if (!LABEL.matcher(label).matches()) {
                return "the host name is not lower-case labels of letters, digits and '-' joined by '.'";
            }
        }
        if (slash >= 0) {
            for (String segment : value.substring(slash + 1).split("/", -1)) {
                if (!SEGMENT.matcher(segment).matches() || segment.equals(".") || segment.equals("..")) {
                    return "the path has an empty, '.' or '..' segment, or characters other than letters, digits and ._~-";
                }
            }
        }
        return null;
    }
}
