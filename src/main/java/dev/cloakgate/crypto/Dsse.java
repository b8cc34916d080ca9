package dev.cloakgate.crypto;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * DSSE (Dead Simple Signing Envelope, v1.0.2): a payload, its type, and signatures over the pre-authentication
 * encoding of both. Signing the type with the payload is the point: a payload cannot be re-read as another kind
 * of statement. Ed25519 only; every way a check can fail is a {@link DsseException} with a stable reason.
 */
public final class Dsse {
    /** The largest envelope read: a certification, receipt or task context is a few hundred bytes. */
    public static final int MAX_ENVELOPE_BYTES = 64 * 1024;
    private static final Set<String> ENVELOPE_KEYS = Set.of("payload", "payloadType", "signatures");
    private static final Set<String> SIGNATURE_KEYS = Set.of("keyid", "sig");
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Dsse() {
    }

    /** One signature: the signer's key id (a hint to find the key, not a proof) and 64 bytes of Ed25519. */
    public record Signature(String keyid, byte[] sig) {
    }

    /** A parsed envelope; {@code payload} is the decoded body. */
    public record Envelope(String payloadType, byte[] payload, List<Signature> signatures) {
        public Envelope {
            signatures = List.copyOf(signatures);
        }

        /** The envelope as JSON (RFC 8785 bytes: one form, so its digest names it). */
        public byte[] toJson() {
            ObjectNode o = F.objectNode();
            o.put("payload", Base64.getEncoder().encodeToString(payload));
            o.put("payloadType", payloadType);
            ArrayNode sigs = o.putArray("signatures");
            for (Signature s : signatures) {
                sigs.addObject().put("keyid", s.keyid()).put("sig", Base64.getEncoder().encodeToString(s.sig()));
            }
            return Jcs.canonicalize(o);
        }

        /**
         * Reads an envelope strictly: duplicate or unknown members, a missing or non-string field, bad base64 or
         * an envelope over {@link #MAX_ENVELOPE_BYTES} are {@code envelope_unreadable}.
         */
        public static Envelope parse(byte[] json) throws DsseException {
            if (json.length > MAX_ENVELOPE_BYTES) {
                throw new DsseException("envelope_unreadable", "the envelope is over " + MAX_ENVELOPE_BYTES + " bytes");
            }
            if (!(Jcs.parseStrict(json) instanceof StrictJson.Parsed p) || !(p.value() instanceof ObjectNode o)) {
                throw new DsseException("envelope_unreadable", "the envelope is not one strict JSON object");
            }
            onlyKeys(o, ENVELOPE_KEYS, "");
            String type = text(o, "payloadType", "");
            byte[] payload = base64(text(o, "payload", ""), "payload");
            if (!(o.get("signatures") instanceof ArrayNode sigs)) {
                throw new DsseException("envelope_unreadable", "signatures must be an array");
            }
            List<Signature> out = new ArrayList<>();
            for (int i = 0; i < sigs.size(); i++) {
                String at = "signatures[" + i + "].";
                if (!(sigs.get(i) instanceof ObjectNode s)) {
                    throw new DsseException("envelope_unreadable", at + " must be an object");
                }
                onlyKeys(s, SIGNATURE_KEYS, at);
                String keyid = s.has("keyid") ? text(s, "keyid", at) : "";
                out.add(new Signature(keyid, base64(text(s, "sig", at), at + "sig")));
            }
            return new Envelope(type, payload, out);
        }
    }

    /** PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, lengths as ASCII decimal of bytes. */
    public static byte[] pae(String payloadType, byte[] payload) {
        byte[] type = payloadType.getBytes(StandardCharsets.UTF_8);
        byte[] head = ("DSSEv1 " + type.length + " " + payloadType + " " + payload.length + " ")
                .getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[head.length + payload.length];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(payload, 0, out, head.length, payload.length);
        return out;
    }

    public static Envelope sign(String payloadType, byte[] payload, String keyid, Ed25519SigningKey key) {
        byte[] sig = key.sign(pae(payloadType, payload));
        return new Envelope(payloadType, payload.clone(), List.of(new Signature(keyid, sig)));
    }

    /**
     * Checks that a signature by one of {@code trusted} (key id to key) covers the envelope, and returns that key
     * id. {@code untrusted_signer} when no signature names a trusted key; {@code bad_signature} when one names a
     * trusted key and does not verify under it (a forged or altered envelope: never passed over for another).
     */
    public static String verify(Envelope e, Map<String, Ed25519PublicKey> trusted) throws DsseException {
        if (e.signatures().isEmpty()) {
            throw new DsseException("untrusted_signer", "the envelope carries no signature");
        }
        byte[] pae = pae(e.payloadType(), e.payload());
        String verified = null;
        for (Signature s : e.signatures()) {
            Ed25519PublicKey key = trusted.get(s.keyid());
            if (key == null) {
                continue;
            }
            if (!key.verify(pae, s.sig())) {
                throw new DsseException("bad_signature", "the signature of key " + s.keyid() + " does not verify");
            }
            verified = verified == null ? s.keyid() : verified;
        }
        if (verified == null) {
            throw new DsseException("untrusted_signer", "no signature is by a trusted key (signed by "
                    + e.signatures().stream().map(Signature::keyid).toList() + ")");
        }
        return verified;
    }

    private static void onlyKeys(ObjectNode o, Set<String> allowed, String at) throws DsseException {
        for (Iterator<String> it = o.fieldNames(); it.hasNext();) {
            String k = it.next();
            if (!allowed.contains(k)) {
                throw new DsseException("envelope_unreadable", "unknown member " + at + k);
            }
        }
    }

    private static String text(ObjectNode o, String key, String at) throws DsseException {
        JsonNode v = o.get(key);
        if (v == null || !v.isTextual()) {
            throw new DsseException("envelope_unreadable", at + key + " must be a string");
        }
        return v.textValue();
    }

    /** Standard or URL-safe base64, as the DSSE specification asks verifiers to accept. */
    private static byte[] base64(String s, String field) throws DsseException {
        try {
            return s.indexOf('-') >= 0 || s.indexOf('_') >= 0 ? Base64.getUrlDecoder().decode(s)
                    : Base64.getDecoder().decode(s);
        } catch (IllegalArgumentException bad) {
            throw new DsseException("envelope_unreadable", field + " is not base64");
        }
    }
}
