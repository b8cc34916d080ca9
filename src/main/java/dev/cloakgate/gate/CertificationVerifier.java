package dev.cloakgate.gate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import dev.cloakgate.crypto.Dsse;
import dev.cloakgate.crypto.DsseException;
import dev.cloakgate.crypto.Ed25519PublicKey;
import dev.cloakgate.crypto.SignerKeys;

/**
 * Verifies a release certification offline, at every call, for one tenant: signed by a trusted key that is not
 * revoked, a statement that is not revoked, inside its validity window (with the clock-skew allowance at both ends),
 * about this release, a certified decision, for this environment.
 *
 * <p>Only the pure part is remembered: what the envelope's exact bytes say and whether their signature verifies under
 * this key set (an Ed25519 verification costs tens of microseconds), keyed by the SHA-256 of the bytes and of the key
 * set. Everything that depends on the time or the configuration (window, revocations, release, environment) is
 * checked again on every call, so a certification that expires while the gateway runs refuses the next call.
 */
public final class CertificationVerifier {
    private static final HexFormat HEX = HexFormat.of();

    /** The outcome of one verification. */
    public sealed interface Outcome permits Certified, Refused {
    }

    /** Valid now: signed by {@code keyid}, valid until {@code notAfter}; {@code statementDigest} as revocations name it. */
    public record Certified(String keyid, Instant notAfter, String statementDigest) implements Outcome {
    }

    /** Refused with one of the release gate's stable reasons; {@code detail} says what to fix, never quotes the payload. */
    public record Refused(String reason, String detail) implements Outcome {
    }

    /**
     * What a verifier remembers of envelopes it has checked: a bounded map from (key set, envelope bytes) digests to
     * what the bytes say. One per verifier by default; a tenant may keep one across reloads, since the key set is part
     * of the key (a key removed from trust never finds the entry made while it was trusted).
     */
    public static final class Memo {
        private final int capacity;
        private final Map<String, Checked> entries = new ConcurrentHashMap<>();

        public Memo() {
            this(64);
        }

        public Memo(int capacity) {
            this.capacity = capacity;
        }

        public int size() {
            return entries.size();
        }

        private Checked get(String key, java.util.function.Supplier<Checked> check) {
            Checked c = entries.get(key);
            if (c == null) {
                c = check.get();
                if (entries.size() >= capacity) {
                    entries.clear(); // a tenant has one certification; many distinct ones is churn, not a working set
                }
                entries.put(key, c);
            }
            return c;
        }
    }

    /** What the bytes say under a key set: a pure function of both. */
    private sealed interface Checked {
    }

    private record Unreadable(String detail) implements Checked {
    }

    /** No signature verified under the key set; {@code signers} are the key ids the envelope names. */
    private record Unsigned(String reason, String detail, List<String> signers) implements Checked {
    }

    /** Signed by {@code keyid}; {@code statement} null when the payload is not a readable statement ({@code problem}). */
    private record Signed(String keyid, String statementDigest, CertificationStatement statement, String problem)
            implements Checked {
    }

    private final Map<String, Ed25519PublicKey> trusted;
    private final String keySet;
    private final Set<String> revokedStatements;
    private final Set<String> revokedKeys;
    private final String environment;
    private final Duration skew;
    private final Clock clock;
    private final Memo memo;

    public CertificationVerifier(SignerKeys trust, Set<String> revokedStatements, Set<String> revokedKeys,
            String environment, Duration clockSkew, Clock clock) {
        this(trust, revokedStatements, revokedKeys, environment, clockSkew, clock, new Memo());
    }

    /**
     * @param revokedStatements {@code sha256:<64 hex>} digests of revoked statements: SHA-256 of the envelope's decoded
     *        payload bytes (what {@code release certify} prints as the statement digest)
     * @param revokedKeys gate key ids (16 hex); a signature by one never counts, even if the key is also trusted
     * @throws IllegalArgumentException for a malformed revocation, environment or a negative skew
     */
    public CertificationVerifier(SignerKeys trust, Set<String> revokedStatements, Set<String> revokedKeys,
            String environment, Duration clockSkew, Clock clock, Memo memo) {
        for (String s : revokedStatements) {
            if (!s.matches("sha256:[0-9a-f]{64}")) {
                throw new IllegalArgumentException("a revoked statement is sha256:<64 lower-case hex> (the statement"
                        + " digest release certify prints)");
            }
        }
        for (String k : revokedKeys) {
            if (!k.matches("[0-9a-f]{16}")) {
                throw new IllegalArgumentException("a revoked key is a key id: 16 lower-case hex digits");
            }
        }
        if (!CertificationStatement.ENVIRONMENT.matcher(environment).matches()) {
            throw new IllegalArgumentException("an environment name matches " + CertificationStatement.ENVIRONMENT.pattern());
        }
        if (clockSkew.isNegative()) {
            throw new IllegalArgumentException("the clock skew allowance must not be negative");
        }
        Map<String, Ed25519PublicKey> effective = new LinkedHashMap<>(trust.asMap());
        effective.keySet().removeAll(revokedKeys);
        this.trusted = Map.copyOf(effective);
        this.keySet = keySetDigest(effective);
        this.revokedStatements = Set.copyOf(revokedStatements);
        this.revokedKeys = Set.copyOf(revokedKeys);
        this.environment = environment;
        this.skew = clockSkew;
        this.clock = clock;
        this.memo = memo;
    }

    public String environment() {
        return environment;
    }

    /**
     * Verifies {@code envelope} (the certification file's bytes; null when there is none) for {@code releaseHash}
     * ({@code sha256:<hex>}) at this clock's instant.
     */
    public Outcome verify(byte[] envelope, String releaseHash) {
        if (envelope == null) {
            return new Refused("no_certification", "the release has no certification; certify it with release certify");
        }
        Checked checked = memo.get(keySet + ":" + Domains.sha256(envelope), () -> check(envelope));
        if (checked instanceof Unreadable u) {
            return new Refused("certification_unreadable", u.detail());
        }
        if (checked instanceof Unsigned u) {
            List<String> revoked = u.signers().stream().filter(revokedKeys::contains).toList();
            return revoked.isEmpty() ? new Refused(u.reason(), u.detail())
                    : new Refused("key_revoked", "the certification is signed by revoked key " + revoked.get(0));
        }
        Signed s = (Signed) checked;
        if (revokedKeys.contains(s.keyid())) { // the key set already excludes them; a shared memo must not matter
            return new Refused("key_revoked", "the certification is signed by revoked key " + s.keyid());
        }
        if (s.statement() == null) {
            return new Refused("certification_unreadable", s.problem());
        }
        if (revokedStatements.contains(s.statementDigest())) {
            return new Refused("statement_revoked", "statement " + s.statementDigest() + " is revoked");
        }
        CertificationStatement st = s.statement();
        Instant now = clock.instant();
        if (now.isBefore(st.notBefore().minus(skew)) || now.isBefore(st.certifiedAt().minus(skew))) {
            return new Refused("certification_not_yet_valid", "the certification is valid from " + st.notBefore()
                    + " (certified at " + st.certifiedAt() + "); it is " + now + ", allowed skew " + skew);
        }
        if (!now.isBefore(st.notAfter().plus(skew))) {
            return new Refused("certification_expired", "the certification expired at " + st.notAfter() + "; it is "
                    + now + ", allowed skew " + skew + "; certify the release again");
        }
        if (!releaseHash.equals(st.release()) || !releaseHash.equals("sha256:" + st.subjectSha256())) {
            return new Refused("release_mismatch", "the certification is about another release than " + releaseHash
                    + " (the manifest changed since it was certified?)");
        }
        if (!CertificationStatement.CERTIFIED.equals(st.decision())) {
            return new Refused("not_certified", "the statement's decision is not " + CertificationStatement.CERTIFIED);
        }
        if (!environment.equals(st.environment())) {
            return new Refused("environment_mismatch", "the certification is for environment "
                    + printable(st.environment()) + ", this gateway's is " + environment);
        }
        return new Certified(s.keyid(), st.notAfter(), s.statementDigest());
    }

    private Checked check(byte[] bytes) {
        Dsse.Envelope e;
        try {
            e = Dsse.Envelope.parse(bytes);
        } catch (DsseException x) {
            return new Unreadable("not a DSSE envelope: " + x.getMessage());
        }
        if (!CertificationStatement.PAYLOAD_TYPE.equals(e.payloadType())) {
            return new Unreadable("payloadType is not " + CertificationStatement.PAYLOAD_TYPE);
        }
        String keyid;
        try {
            keyid = Dsse.verify(e, trusted);
        } catch (DsseException x) {
            return new Unsigned(x.reason(), x.getMessage(), e.signatures().stream().map(Dsse.Signature::keyid).toList());
        }
        String digest = "sha256:" + Domains.sha256(e.payload());
        try {
            return new Signed(keyid, digest, CertificationStatement.parse(e.payload()), null);
        } catch (IllegalArgumentException x) {
            return new Signed(keyid, digest, null, "the statement is unreadable: " + x.getMessage());
        }
    }

    /** Names the key set: key ids and keys, sorted, so the same set gives the same memo key in any order. */
    private static String keySetDigest(Map<String, Ed25519PublicKey> keys) {
        StringBuilder b = new StringBuilder();
        new TreeMap<>(keys).forEach((id, k) -> b.append(id).append('=').append(HEX.formatHex(k.bytes())).append('\n'));
        return Domains.sha256(b.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    /** The environment a trusted signer wrote, bounded and without control characters, for a message. */
    private static String printable(String text) {
        String t = text.length() > 64 ? text.substring(0, 64) + "..." : text;
        return t.codePoints().allMatch(c -> c >= 0x20 && c < 0x7f) ? t : "(not a valid environment name)";
    }
}
