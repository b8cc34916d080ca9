package dev.cloakgate.gate;

import java.io.IOException;
import java.nio.file.Path;

import dev.cloakgate.tenant.GateSettings.Mode;

/**
 * The release gate of one tenant: may this release call this tool at all. A call passes only when the tool is
 * declared in the manifest's {@code spec.tools} and the certification verifies at this moment
 * ({@link CertificationVerifier}); without a certification every call is refused. {@link Mode#WARN} does not change
 * the answer: the caller forwards a denied call and records the violation.
 */
public final class ReleaseGate {
    /** The gate's answer for one call. */
    public sealed interface Decision permits Pass, Deny {
        String releaseHash();
    }

    public record Pass(String releaseHash) implements Decision {
    }

    /** Refused with a stable {@code reason} (the release gate's codes); {@code detail} says what to fix. */
    public record Deny(String reason, String detail, String releaseHash) implements Decision {
    }

    private final ReleaseManifest manifest;
    private final byte[] certification;
    private final CertificationVerifier verifier;
    private final Mode mode;
    private final byte[] source;

    /** @param certification the envelope's bytes, or null when there is none (every call is then refused) */
    public ReleaseGate(ReleaseManifest manifest, byte[] certification, CertificationVerifier verifier, Mode mode) {
        this(manifest, certification, verifier, mode, null);
    }

    /** @param source the array {@code certification} was copied from, for a caller that keeps a gate per read */
    ReleaseGate(ReleaseManifest manifest, byte[] certification, CertificationVerifier verifier, Mode mode, byte[] source) {
        this.source = source;
        this.manifest = manifest;
        this.certification = certification == null ? null : certification.clone();
        this.verifier = verifier;
        this.mode = mode;
    }

    /**
     * Reads the certification once from {@code certificationFile}; a file that does not exist means no certification
     * (every call refused {@code no_certification}), any other failure to read it is thrown.
     */
    public static ReleaseGate load(ReleaseManifest manifest, Path certificationFile, CertificationVerifier verifier,
            Mode mode) throws IOException {
        return new ReleaseGate(manifest, CertificationFile.readOrNull(certificationFile), verifier, mode);
    }

    /** Whether {@code exposedTool} (the name the agent calls) may be called by this release now. */
    public Decision check(String exposedTool) {
        String release = manifest.releaseHash();
        if (!manifest.declares(exposedTool)) {
            return new Deny("tool_not_in_release", "the tool is not declared in the release manifest's spec.tools",
                    release);
        }
        if (verifier.verify(certification, release) instanceof CertificationVerifier.Refused r) {
            return new Deny(r.reason(), r.detail(), release);
        }
        return new Pass(release);
    }

    /** The certification's state now, whatever tool: for start-up logs and status. */
    public CertificationVerifier.Outcome certification() {
        return verifier.verify(certification, manifest.releaseHash());
    }

    /** The array this gate's certification was copied from (null when not given). */
    byte[] bytesFrom() {
        return source;
    }

    public ReleaseManifest manifest() {
        return manifest;
    }

    public String releaseHash() {
        return manifest.releaseHash();
    }

    public Mode mode() {
        return mode;
    }
}
