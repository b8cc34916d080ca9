import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.SignerKeys;
import dev.cloakgate.gate.CertificationIssuer;
import dev.cloakgate.gate.CertificationVerifier;
import dev.cloakgate.gate.ReleaseGate;
import dev.cloakgate.gate.ReleaseManifest;
import dev.cloakgate.tenant.GateSettings;

/**
 * The release gate alone, on one core (issue 11): what {@code CertificationVerifier.verify} and
 * {@code ReleaseGate.check} cost per call with the certification verified at every call (the signature's validity
 * remembered for these exact bytes, window, revocations, release and environment checked each time), a denied call,
 * and a cold verification (a new verifier per call: envelope and statement parsed, Ed25519 verified). Prints one JSON
 * line per case: per-call latency percentiles in nanoseconds after warm-up.
 *
 *   bash bench/release.sh
 */
public class ReleaseBench {
    public static void main(String[] args) {
        StringBuilder tools = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            tools.append("    - tool:crm__tool_").append(i).append("@").append(i).append('\n');
        }
        ReleaseManifest manifest = ReleaseManifest.parse(("apiVersion: cloakpipe.co/v1alpha1\nkind: Release\n"
                + "metadata: {name: bench}\nspec:\n  tools:\n" + tools + "  policies:\n    - policy:crm@sha256:"
                + "a".repeat(64) + "\n").getBytes(StandardCharsets.UTF_8), "bench manifest");
        byte[] seed = new byte[32];
        seed[0] = 7;
        Ed25519SigningKey key = Ed25519SigningKey.fromSeed(seed);
        Instant now = Instant.now();
        byte[] envelope = CertificationIssuer.certify(manifest, key, "production", now.minusSeconds(60),
                now.plus(Duration.ofDays(1)), now.minusSeconds(60));
        SignerKeys trust = SignerKeys.parse(List.of(SignerKeys.spec(key.publicKey())));
        Set<String> revokedStatements = Set.of("sha256:" + "0".repeat(64), "sha256:" + "1".repeat(64));
        Set<String> revokedKeys = Set.of("0123456789abcdef");
        Supplier<CertificationVerifier> fresh = () -> new CertificationVerifier(trust, revokedStatements, revokedKeys,
                "production", Duration.ofSeconds(30), Clock.systemUTC());
        CertificationVerifier verifier = fresh.get();
        ReleaseGate gate = new ReleaseGate(manifest, envelope, verifier, GateSettings.Mode.ENFORCE);
        String release = manifest.releaseHash();

        expect(verifier.verify(envelope, release) instanceof CertificationVerifier.Certified, "verify");
        expect(gate.check("crm__tool_42") instanceof ReleaseGate.Pass, "check");
        expect(gate.check("crm__delete") instanceof ReleaseGate.Deny, "deny");
        measure("verify", 50_000, () -> verifier.verify(envelope, release));
        measure("gate-check-pass", 50_000, () -> gate.check("crm__tool_42"));
        measure("gate-check-tool-not-in-release", 50_000, () -> gate.check("crm__delete"));
        measure("verify-cold-new-verifier", 5_000, () -> fresh.get().verify(envelope, release));
    }

    private static void expect(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException(what + " did not give the expected answer");
        }
    }

    private static void measure(String label, int n, Supplier<Object> call) {
        Object sink = null;
        for (int i = 0; i < n / 2; i++) {
            sink = call.get();
        }
        long[] ns = new long[n];
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            long s = System.nanoTime();
            sink = call.get();
            ns[i] = System.nanoTime() - s;
        }
        long total = System.nanoTime() - t0;
        Arrays.sort(ns);
        System.out.printf("{\"label\":\"%s\",\"calls\":%d,\"callsPerSec\":%.0f,\"p50ns\":%d,\"p90ns\":%d,\"p99ns\":%d}%n",
                label, n, n / (total / 1e9), ns[n / 2], ns[n * 9 / 10], ns[n * 99 / 100]);
        if (sink == null) {
            throw new IllegalStateException();
        }
    }
}
