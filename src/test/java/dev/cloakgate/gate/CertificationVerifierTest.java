package dev.cloakgate.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.cloakgate.crypto.Dsse;
import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.SignerKeys;

class CertificationVerifierTest {
    static final Ed25519SigningKey KEY = Ed25519SigningKey.fromSeed(seed(1));
    static final Ed25519SigningKey OTHER = Ed25519SigningKey.fromSeed(seed(2));
    static final String KEYID = SignerKeys.keyId(KEY.publicKey());
    static final String OTHER_ID = SignerKeys.keyId(OTHER.publicKey());
    static final Instant T0 = Instant.parse("2025-06-01T12:00:00Z");
    static final Instant FROM = T0.minus(Duration.ofHours(1));
    static final Instant UNTIL = T0.plus(Duration.ofHours(1));
    static final Duration SKEW = Duration.ofSeconds(30);
    static final ReleaseManifest MANIFEST = ReleaseManifestTest.parse(ReleaseManifestTest.YAML);

    final MutableClock clock = new MutableClock(T0);

    static byte[] seed(int b) {
        byte[] s = new byte[32];
        s[0] = (byte) b;
        return s;
    }

    static byte[] certify(Ed25519SigningKey key, String environment) {
        return CertificationIssuer.certify(MANIFEST, key, environment, FROM, UNTIL, FROM);
    }

    static SignerKeys trust(Ed25519SigningKey... keys) {
        return SignerKeys.parse(java.util.Arrays.stream(keys).map(k -> SignerKeys.spec(k.publicKey())).toList());
    }

    CertificationVerifier verifier(SignerKeys trust, Set<String> revokedStatements, Set<String> revokedKeys) {
        return new CertificationVerifier(trust, revokedStatements, revokedKeys, "production", SKEW, clock);
    }

    CertificationVerifier verifier() {
        return verifier(trust(KEY), Set.of(), Set.of());
    }

    static String refused(CertificationVerifier.Outcome o) {
        return assertInstanceOf(CertificationVerifier.Refused.class, o).reason();
    }

    static String statementDigest(byte[] envelope) throws Exception {
        byte[] payload = Dsse.Envelope.parse(envelope).payload();
        return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(payload));
    }

    @Test
    void aGenuineCertificationPasses() throws Exception {
        byte[] env = certify(KEY, "production");
        CertificationVerifier.Certified c = assertInstanceOf(CertificationVerifier.Certified.class,
                verifier().verify(env, MANIFEST.releaseHash()));
        assertEquals(KEYID, c.keyid());
        assertEquals(UNTIL, c.notAfter());
        assertEquals(statementDigest(env), c.statementDigest());
    }

    @Test
    void theStatementIsAnInTotoStatementAboutTheRelease() throws Exception {
        com.fasterxml.jackson.databind.JsonNode s = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                Dsse.Envelope.parse(certify(KEY, "production")).payload());
        assertEquals("https://in-toto.io/Statement/v1", s.get("_type").textValue());
        assertEquals("crm-agent", s.at("/subject/0/name").textValue());
        assertEquals(MANIFEST.releaseHex(), s.at("/subject/0/digest/sha256").textValue());
        assertEquals("https://cloakpipe.co/attestations/certification/v1alpha1", s.get("predicateType").textValue());
        assertEquals(MANIFEST.releaseHash(), s.at("/predicate/release").textValue());
        assertEquals("certified", s.at("/predicate/decision").textValue());
        assertEquals("production", s.at("/predicate/environment").textValue());
        assertEquals("2025-06-01T11:00:00Z", s.at("/predicate/notBefore").textValue());
        assertEquals("2025-06-01T13:00:00Z", s.at("/predicate/notAfter").textValue());
        assertEquals("application/vnd.in-toto+json", Dsse.Envelope.parse(certify(KEY, "production")).payloadType());
    }

    @Test
    void noCertification() {
        assertEquals("no_certification", refused(verifier().verify(null, MANIFEST.releaseHash())));
    }

    @Test
    void unreadableCertifications() throws Exception {
        String r = MANIFEST.releaseHash();
        assertEquals("certification_unreadable", refused(verifier().verify("not json".getBytes(), r)));
        assertEquals("certification_unreadable", refused(verifier().verify(new byte[0], r)));
        // a signed payload of another type
        CertificationStatement st = CertificationStatement.certified(MANIFEST, "production", FROM, UNTIL, FROM);
        byte[] retyped = Dsse.sign("application/json", st.payload(), KEYID, KEY).toJson();
        assertEquals("certification_unreadable", refused(verifier().verify(retyped, r)));
        // validly signed by a trusted key, but not a statement this gate reads: an unknown member, a second time form
        String json = new String(st.payload(), StandardCharsets.UTF_8);
        for (String bad : List.of(json.replace("\"certifiedAt\"", "\"comment\":\"x\",\"certifiedAt\""),
                json.replace("2025-06-01T13:00:00Z", "2025-06-01T15:00:00+02:00"),
                json.replace("https://in-toto.io/Statement/v1", "https://in-toto.io/Statement/v0.1"),
                json.replace("\"subject\":[", "\"subject\":[{\"name\":\"x\",\"digest\":{\"sha256\":\"00\"}},"))) {
            byte[] env = Dsse.sign(CertificationStatement.PAYLOAD_TYPE, bad.getBytes(StandardCharsets.UTF_8), KEYID, KEY)
                    .toJson();
            assertEquals("certification_unreadable", refused(verifier().verify(env, r)), bad);
        }
    }

    @Test
    void untrustedSignerAndBadSignature() throws Exception {
        assertEquals("untrusted_signer", refused(verifier().verify(certify(OTHER, "production"), MANIFEST.releaseHash())));
        // signed by another key under the trusted key's id: a forgery, never skipped over
        Dsse.Envelope genuine = Dsse.Envelope.parse(certify(KEY, "production"));
        byte[] forged = Dsse.sign(genuine.payloadType(), genuine.payload(), KEYID, OTHER).toJson();
        assertEquals("bad_signature", refused(verifier().verify(forged, MANIFEST.releaseHash())));
    }

    @Test
    void aRevokedStatementIsRefused() throws Exception {
        byte[] env = certify(KEY, "production");
        assertEquals("statement_revoked", refused(verifier(trust(KEY), Set.of(statementDigest(env)), Set.of())
                .verify(env, MANIFEST.releaseHash())));
        // another statement (another window) by the same key is not
        byte[] other = CertificationIssuer.certify(MANIFEST, KEY, "production", FROM, UNTIL.plusSeconds(1), FROM);
        assertInstanceOf(CertificationVerifier.Certified.class, verifier(trust(KEY), Set.of(statementDigest(env)), Set.of())
                .verify(other, MANIFEST.releaseHash()));
    }

    @Test
    void aRevokedKeyNeverPassesEvenWhenAlsoTrusted() {
        byte[] env = certify(KEY, "production");
        assertEquals("key_revoked", refused(verifier(trust(KEY, OTHER), Set.of(), Set.of(KEYID))
                .verify(env, MANIFEST.releaseHash())));
        assertEquals("key_revoked", refused(verifier(trust(OTHER), Set.of(), Set.of(KEYID))
                .verify(env, MANIFEST.releaseHash())));
        assertInstanceOf(CertificationVerifier.Certified.class, verifier(trust(KEY, OTHER), Set.of(), Set.of(OTHER_ID))
                .verify(env, MANIFEST.releaseHash()));
    }

    @Test
    void theWindowWithTheSkewAllowanceAtBothEnds() {
        byte[] env = certify(KEY, "production");
        CertificationVerifier v = verifier();
        String r = MANIFEST.releaseHash();
        clock.set(FROM.minus(SKEW).minusSeconds(1));
        assertEquals("certification_not_yet_valid", refused(v.verify(env, r)));
        clock.set(FROM.minus(SKEW));
        assertInstanceOf(CertificationVerifier.Certified.class, v.verify(env, r));
        clock.set(UNTIL.plus(SKEW).minusMillis(1));
        assertInstanceOf(CertificationVerifier.Certified.class, v.verify(env, r));
        clock.set(UNTIL.plus(SKEW));
        assertEquals("certification_expired", refused(v.verify(env, r)));
        // without allowance the ends are exact
        CertificationVerifier exact = new CertificationVerifier(trust(KEY), Set.of(), Set.of(), "production",
                Duration.ZERO, clock);
        clock.set(FROM.minusMillis(1));
        assertEquals("certification_not_yet_valid", refused(exact.verify(env, r)));
        clock.set(UNTIL);
        assertEquals("certification_expired", refused(exact.verify(env, r)));
    }

    @Test
    void aCertificationThatExpiresWhileRunningRefusesTheNextCall() {
        byte[] env = certify(KEY, "production");
        CertificationVerifier v = verifier();
        clock.set(UNTIL.plus(SKEW).minusSeconds(1));
        assertInstanceOf(CertificationVerifier.Certified.class, v.verify(env, MANIFEST.releaseHash()));
        clock.advance(Duration.ofSeconds(1));
        assertEquals("certification_expired", refused(v.verify(env, MANIFEST.releaseHash())));
    }

    @Test
    void certifiedInTheFutureIsNotYetValid() {
        byte[] env = CertificationIssuer.certify(MANIFEST, KEY, "production", FROM, UNTIL, T0.plus(SKEW).plusSeconds(1));
        assertEquals("certification_not_yet_valid", refused(verifier().verify(env, MANIFEST.releaseHash())));
    }

    @Test
    void aManifestChangedByOneByteAfterCertificationIsAnotherRelease() {
        byte[] env = certify(KEY, "production");
        ReleaseManifest changed = ReleaseManifestTest.parse(ReleaseManifestTest.YAML.replace("team: sales", "team: salez"));
        assertEquals("release_mismatch", refused(verifier().verify(env, changed.releaseHash())));
        // a statement whose predicate and subject disagree is not about this release either
        CertificationStatement st = CertificationStatement.certified(MANIFEST, "production", FROM, UNTIL, FROM);
        byte[] split = CertificationIssuer.sign(new CertificationStatement(st.subjectName(), st.subjectSha256(),
                changed.releaseHash(), st.decision(), st.environment(), FROM, UNTIL, FROM), KEY);
        assertEquals("release_mismatch", refused(verifier().verify(split, MANIFEST.releaseHash())));
        assertEquals("release_mismatch", refused(verifier().verify(split, changed.releaseHash())));
    }

    @Test
    void anotherDecisionIsNotCertified() {
        CertificationStatement st = CertificationStatement.certified(MANIFEST, "production", FROM, UNTIL, FROM);
        byte[] rejected = CertificationIssuer.sign(new CertificationStatement(st.subjectName(), st.subjectSha256(),
                st.release(), "rejected", st.environment(), FROM, UNTIL, FROM), KEY);
        assertEquals("not_certified", refused(verifier().verify(rejected, MANIFEST.releaseHash())));
    }

    @Test
    void anotherEnvironmentIsRefused() {
        assertEquals("environment_mismatch", refused(verifier().verify(certify(KEY, "staging"), MANIFEST.releaseHash())));
    }

    @Test
    void theMemoCannotBeFooled() throws Exception {
        CertificationVerifier.Memo memo = new CertificationVerifier.Memo();
        byte[] env = certify(KEY, "production");
        String r = MANIFEST.releaseHash();
        CertificationVerifier trusting = new CertificationVerifier(trust(KEY), Set.of(), Set.of(), "production", SKEW,
                clock, memo);
        assertInstanceOf(CertificationVerifier.Certified.class, trusting.verify(env, r));
        assertEquals(1, memo.size());
        // the same bytes, the key no longer trusted: the remembered signature check does not carry over
        CertificationVerifier notTrusting = new CertificationVerifier(trust(OTHER), Set.of(), Set.of(), "production",
                SKEW, clock, memo);
        assertEquals("untrusted_signer", refused(notTrusting.verify(env, r)));
        // a different envelope with the same statement is verified on its own: a forged signature fails...
        Dsse.Envelope genuine = Dsse.Envelope.parse(env);
        byte[] forged = Dsse.sign(genuine.payloadType(), genuine.payload(), KEYID, OTHER).toJson();
        assertEquals("bad_signature", refused(trusting.verify(forged, r)));
        // ...and a genuine one by another trusted key passes under that key
        CertificationVerifier both = new CertificationVerifier(trust(KEY, OTHER), Set.of(), Set.of(), "production",
                SKEW, clock, memo);
        byte[] byOther = Dsse.sign(genuine.payloadType(), genuine.payload(), OTHER_ID, OTHER).toJson();
        assertEquals(OTHER_ID, assertInstanceOf(CertificationVerifier.Certified.class, both.verify(byOther, r)).keyid());
        // and what was remembered still answers the trusting verifier the same way
        assertInstanceOf(CertificationVerifier.Certified.class, trusting.verify(env, r));
        assertEquals("bad_signature", refused(trusting.verify(forged, r)));
    }

    @Test
    void misconfigurationIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> verifier(trust(KEY), Set.of("sha256:00"), Set.of()));
        assertThrows(IllegalArgumentException.class, () -> verifier(trust(KEY), Set.of(), Set.of("KEY")));
        assertThrows(IllegalArgumentException.class, () -> new CertificationVerifier(trust(KEY), Set.of(), Set.of(),
                "prod uction", SKEW, clock));
        assertThrows(IllegalArgumentException.class, () -> new CertificationVerifier(trust(KEY), Set.of(), Set.of(),
                "production", Duration.ofSeconds(-1), clock));
        assertThrows(IllegalArgumentException.class, () -> CertificationIssuer.certify(MANIFEST, KEY, "production",
                UNTIL, FROM, FROM));
        assertTrue(SignerKeys.keyId(KEY.publicKey()).matches("[0-9a-f]{16}"));
    }
}
