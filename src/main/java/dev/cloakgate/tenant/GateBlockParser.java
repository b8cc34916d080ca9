package dev.cloakgate.tenant;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The tenant file's {@code gate} block (issue 11). Every key is checked and every error names its JSON path; keys are
 * checked for their form here ({@code KEYID=HEX}, {@code sha256:HEX}), the documents they name when the tenant is
 * assembled.
 */
final class GateBlockParser {
    private static final Set<String> KEYS = Set.of("manifest", "certification", "trust_keys", "revoked_statements",
            "revoked_keys", "environment", "mode", "contracts", "orchestrator_keys", "approver_keys", "approvals_dir",
            "approval_wait_seconds", "clock_skew_seconds");
    private static final Pattern SIGNER_KEY = Pattern.compile("[0-9a-fA-F]{16}=[0-9a-fA-F]{64}");
    private static final Pattern STATEMENT = Pattern.compile("sha256:[0-9a-f]{64}");
    private static final Pattern KEY_ID = Pattern.compile("[0-9a-f]{16}");
    private static final Pattern ENVIRONMENT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    private final TenantParser.Ctx c;

    GateBlockParser(TenantParser.Ctx c) {
        this.c = c;
    }

    GateSettings parse(JsonNode node) throws TenantConfigException {
        String p = "$.gate";
        c.object(node, p);
        c.onlyKeys(node, p, KEYS);
        if (!node.has("manifest")) {
            throw new TenantConfigException(c.file, p + ".manifest", "required: the release manifest the gate enforces");
        }
        Path manifest = c.file(node.get("manifest"), p + ".manifest");
        Path certification = node.has("certification") ? c.file(node.get("certification"), p + ".certification") : null;
        List<String> trust = keys(node.get("trust_keys"), p + ".trust_keys");
        if (trust.isEmpty()) {
            throw new TenantConfigException(c.file, p + ".trust_keys", "required: the KEYID=HEX of each key that may certify"
                    + " a release (`release keygen` prints it)");
        }
        if (!node.has("environment")) {
            throw new TenantConfigException(c.file, p + ".environment", "required: the environment certifications must name"
                    + " (for example \"production\")");
        }
        String environment = c.string(node.get("environment"), p + ".environment");
        if (!ENVIRONMENT.matcher(environment).matches()) {
            throw new TenantConfigException(c.file, p + ".environment", "must be letters, digits, '.', '_' or '-'");
        }
        GateSettings.Mode mode = GateSettings.Mode.ENFORCE;
        if (node.has("mode")) {
            mode = switch (c.string(node.get("mode"), p + ".mode")) {
                case "enforce" -> GateSettings.Mode.ENFORCE;
                case "warn" -> GateSettings.Mode.WARN;
                default -> throw new TenantConfigException(c.file, p + ".mode", "must be \"enforce\" or \"warn\"");
            };
        }
        List<Path> contracts = new ArrayList<>();
        if (node.has("contracts")) {
            JsonNode list = node.get("contracts");
            if (!list.isArray()) {
                throw new TenantConfigException(c.file, p + ".contracts", "must be an array of file paths");
            }
            for (int i = 0; i < list.size(); i++) {
                contracts.add(c.file(list.get(i), p + ".contracts[" + i + "]"));
            }
        }
        return new GateSettings(manifest, certification, trust,
                matching(node.get("revoked_statements"), p + ".revoked_statements", STATEMENT, "sha256: and 64 lower-case hex"
                        + " digits of the statement (the certification's payload)"),
                matching(node.get("revoked_keys"), p + ".revoked_keys", KEY_ID, "a key id: 16 lower-case hex digits"),
                environment, mode, contracts,
                keys(node.get("orchestrator_keys"), p + ".orchestrator_keys"),
                keys(node.get("approver_keys"), p + ".approver_keys"),
                node.has("approvals_dir") ? c.file(node.get("approvals_dir"), p + ".approvals_dir") : null,
                c.seconds(node.get("approval_wait_seconds"), p + ".approval_wait_seconds", Duration.ZERO, 0, 3600),
                c.seconds(node.get("clock_skew_seconds"), p + ".clock_skew_seconds", Duration.ofSeconds(60), 0, 600));
    }

    private List<String> keys(JsonNode n, String p) throws TenantConfigException {
        List<String> out = matching(n, p, SIGNER_KEY, "KEYID=HEX: 16 hex digits of key id, '=', 64 hex digits of Ed25519"
                + " public key (`release keygen` prints it)");
        return out.stream().map(k -> k.toLowerCase(Locale.ROOT)).toList();
    }

    private List<String> matching(JsonNode n, String p, Pattern form, String what) throws TenantConfigException {
        if (n == null) {
            return List.of();
        }
        List<String> values = c.strings(n, p);
        for (int i = 0; i < values.size(); i++) {
            if (!form.matcher(values.get(i)).matches()) {
                throw new TenantConfigException(c.file, p + "[" + i + "]", "must be " + what);
            }
        }
        return values;
    }
}
