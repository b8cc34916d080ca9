package dev.cloakgate.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cloakgate.tenant.GateSettings;

class ReleaseGateTest {
    static final ReleaseManifest MANIFEST = CertificationVerifierTest.MANIFEST;

    @TempDir
    Path dir;
    final MutableClock clock = new MutableClock(CertificationVerifierTest.T0);
    final CertificationVerifier verifier = new CertificationVerifier(CertificationVerifierTest.trust(
            CertificationVerifierTest.KEY), Set.of(), Set.of(), "production", Duration.ofSeconds(30), clock);

    ReleaseGate gate(Path cert) throws IOException {
        return ReleaseGate.load(MANIFEST, cert, verifier, GateSettings.Mode.ENFORCE);
    }

    @Test
    void aDeclaredToolOfACertifiedReleasePasses() throws IOException {
        Path cert = Files.write(dir.resolve("release.cert.dsse.json"),
                CertificationVerifierTest.certify(CertificationVerifierTest.KEY, "production"));
        ReleaseGate gate = gate(cert);
        assertEquals(new ReleaseGate.Pass(MANIFEST.releaseHash()), gate.check("crm__patch"));
        assertInstanceOf(CertificationVerifier.Certified.class, gate.certification());
        // read once: a file removed or replaced later does not change the gate (a reload makes a new one)
        Files.delete(cert);
        assertInstanceOf(ReleaseGate.Pass.class, gate.check("crm__patch"));
    }

    @Test
    void aToolNotInTheReleaseIsDenied() throws IOException {
        Path cert = Files.write(dir.resolve("c.json"),
                CertificationVerifierTest.certify(CertificationVerifierTest.KEY, "production"));
        ReleaseGate.Deny d = assertInstanceOf(ReleaseGate.Deny.class, gate(cert).check("crm__delete"));
        assertEquals("tool_not_in_release", d.reason());
        assertEquals(MANIFEST.releaseHash(), d.releaseHash());
        // the exposed name, exactly: not the upstream's own name, not another case
        assertEquals("tool_not_in_release", ((ReleaseGate.Deny) gate(cert).check("patch")).reason());
        assertEquals("tool_not_in_release", ((ReleaseGate.Deny) gate(cert).check("CRM__patch")).reason());
    }

    @Test
    void aMissingCertificationFileRefusesEveryCall() throws IOException {
        ReleaseGate gate = gate(dir.resolve("absent.json"));
        for (String tool : MANIFEST.tools().keySet()) {
            ReleaseGate.Deny d = assertInstanceOf(ReleaseGate.Deny.class, gate.check(tool));
            assertEquals("no_certification", d.reason());
            assertEquals(MANIFEST.releaseHash(), d.releaseHash());
        }
    }

    @Test
    void theCertificationIsCheckedAtEveryCall() throws IOException {
        Path cert = Files.write(dir.resolve("c.json"),
                CertificationVerifierTest.certify(CertificationVerifierTest.KEY, "production"));
        ReleaseGate gate = gate(cert);
        clock.set(CertificationVerifierTest.UNTIL.plusSeconds(29));
        assertInstanceOf(ReleaseGate.Pass.class, gate.check("crm__patch"));
        clock.advance(Duration.ofSeconds(1));
        assertEquals("certification_expired", ((ReleaseGate.Deny) gate.check("crm__patch")).reason());
    }

    @Test
    void anOversizedOrUnreadableFileIsUnreadableAndAnUnreadablePathIsThrown() throws IOException {
        Path big = Files.write(dir.resolve("big.json"), new byte[dev.cloakgate.crypto.Dsse.MAX_ENVELOPE_BYTES + 10]);
        assertEquals("certification_unreadable", ((ReleaseGate.Deny) gate(big).check("crm__patch")).reason());
        assertThrows(IOException.class, () -> gate(Files.createDirectory(dir.resolve("a-directory"))));
    }

    @Test
    void modeIsExposedForTheCaller() {
        ReleaseGate warn = new ReleaseGate(MANIFEST, null, verifier, GateSettings.Mode.WARN);
        assertEquals(GateSettings.Mode.WARN, warn.mode());
        // warn mode gives the same answer: forwarding and recording is the caller's
        assertEquals("no_certification", ((ReleaseGate.Deny) warn.check("crm__patch")).reason());
    }
}
