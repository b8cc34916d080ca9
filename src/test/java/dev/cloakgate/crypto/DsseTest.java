package dev.cloakgate.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.spec.EdECPoint;
import java.security.spec.EdECPublicKeySpec;
import java.security.spec.NamedParameterSpec;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

class DsseTest {
    private static final Ed25519SigningKey KEY = Ed25519SigningKey.fromSeed(new byte[32]);
    private static final String ID = SignerKeys.keyId(KEY.publicKey());

    @Test
    void paeIsTheSpecificationsWorkedExample() {
        // DSSE protocol.md: PAE("http://example.com/HelloWorld", "hello world")
        assertArrayEquals("DSSEv1 29 http://example.com/HelloWorld 11 hello world".getBytes(StandardCharsets.US_ASCII),
                Dsse.pae("http://example.com/HelloWorld", "hello world".getBytes(StandardCharsets.US_ASCII)));
        // lengths count bytes, not characters
        assertArrayEquals("DSSEv1 2 \u00e9 3 \u0ca0".getBytes(StandardCharsets.UTF_8),
                Dsse.pae("\u00e9", "\u0ca0".getBytes(StandardCharsets.UTF_8)));
    }

    /** An independent check: the JDK's own Ed25519 over PAE bytes assembled here by hand, not by Dsse. */
    @Test
    void anEnvelopeMadeHereVerifiesUnderAnIndependentImplementation() throws Exception {
        byte[] payload = "{\"_type\":\"https://in-toto.io/Statement/v1\"}".getBytes(StandardCharsets.UTF_8);
        byte[] json = Dsse.sign("application/vnd.in-toto+json", payload, ID, KEY).toJson();

        JsonNode env = new ObjectMapper().readTree(json);
        String type = env.get("payloadType").textValue();
        byte[] body = Base64.getDecoder().decode(env.get("payload").textValue());
        byte[] sig = Base64.getDecoder().decode(env.get("signatures").get(0).get("sig").textValue());
        String pae = "DSSEv1 " + type.length() + " " + type + " " + body.length + " ";
        byte[] message = new byte[pae.length() + body.length];
        System.arraycopy(pae.getBytes(StandardCharsets.US_ASCII), 0, message, 0, pae.length());
        System.arraycopy(body, 0, message, pae.length(), body.length);

        java.security.Signature verifier = java.security.Signature.getInstance("Ed25519");
        verifier.initVerify(jdkKey(KEY.publicKey().bytes()));
        verifier.update(message);
        assertTrue(verifier.verify(sig));
        assertArrayEquals(payload, body);
        assertEquals(ID, env.get("signatures").get(0).get("keyid").textValue());
    }

    @Test
    void verifiesOnlyUnderATrustedKeyAndOnlyUnalteredBytes() throws Exception {
        byte[] payload = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
        Dsse.Envelope e = Dsse.Envelope.parse(Dsse.sign("application/vnd.in-toto+json", payload, ID, KEY).toJson());
        assertEquals(ID, Dsse.verify(e, Map.of(ID, KEY.publicKey())));

        Ed25519SigningKey other = Ed25519SigningKey.generate(new SecureRandom());
        assertEquals("untrusted_signer", assertThrows(DsseException.class,
                () -> Dsse.verify(e, Map.of(SignerKeys.keyId(other.publicKey()), other.publicKey()))).reason());

        Dsse.Envelope altered = new Dsse.Envelope(e.payloadType(), "{\"a\":2}".getBytes(StandardCharsets.UTF_8),
                e.signatures());
        assertEquals("bad_signature", assertThrows(DsseException.class,
                () -> Dsse.verify(altered, Map.of(ID, KEY.publicKey()))).reason());
        // the type is signed too: the same payload read as another kind of statement does not verify
        Dsse.Envelope retyped = new Dsse.Envelope("application/json", e.payload(), e.signatures());
        assertEquals("bad_signature", assertThrows(DsseException.class,
                () -> Dsse.verify(retyped, Map.of(ID, KEY.publicKey()))).reason());
        // a key id hint claiming a trusted key but signed by another is a bad signature, never skipped
        Dsse.Envelope forged = Dsse.sign(e.payloadType(), e.payload(), ID, other);
        assertEquals("bad_signature", assertThrows(DsseException.class,
                () -> Dsse.verify(forged, Map.of(ID, KEY.publicKey()))).reason());
        Dsse.Envelope unsigned = new Dsse.Envelope(e.payloadType(), e.payload(), List.of());
        assertEquals("untrusted_signer", assertThrows(DsseException.class,
                () -> Dsse.verify(unsigned, Map.of(ID, KEY.publicKey()))).reason());
    }

    @Test
    void refusesWhatItCannotReadStrictly() {
        for (String bad : List.of("[]", "{}", "{\"payload\":\"e30=\",\"payloadType\":\"t\"}",
                "{\"payload\":\"e30=\",\"payloadType\":\"t\",\"signatures\":[],\"extra\":1}",
                "{\"payload\":\"e30=\",\"payload\":\"e30=\",\"payloadType\":\"t\",\"signatures\":[]}",
                "{\"payload\":\"***\",\"payloadType\":\"t\",\"signatures\":[]}",
                "{\"payload\":\"e30=\",\"payloadType\":\"t\",\"signatures\":[{\"keyid\":\"k\"}]}")) {
            DsseException e = assertThrows(DsseException.class,
                    () -> Dsse.Envelope.parse(bad.getBytes(StandardCharsets.UTF_8)), bad);
            assertEquals("envelope_unreadable", e.reason(), bad);
        }
        byte[] huge = new byte[Dsse.MAX_ENVELOPE_BYTES + 1];
        assertEquals("envelope_unreadable", assertThrows(DsseException.class, () -> Dsse.Envelope.parse(huge)).reason());
    }

    @Test
    void signerKeysDeriveTheirIdAndRefuseAMismatchedPair() {
        String spec = SignerKeys.spec(KEY.publicKey());
        assertEquals(KEY.publicKey(), SignerKeys.parse(List.of(spec)).asMap().get(ID));
        String other = SignerKeys.spec(Ed25519SigningKey.generate(new SecureRandom()).publicKey());
        String mixed = spec.substring(0, 16) + other.substring(16);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SignerKeys.parse(List.of(mixed))).getMessage()
                .contains("does not belong"));
        assertThrows(IllegalArgumentException.class, () -> SignerKeys.parse(List.of("nonsense")));
    }

    private static java.security.PublicKey jdkKey(byte[] raw) throws Exception {
        // RFC 8032 encoding: little-endian y with the x parity in the top bit of the last byte
        byte[] le = raw.clone();
        boolean xOdd = (le[31] & 0x80) != 0;
        le[31] &= 0x7f;
        byte[] be = new byte[32];
        for (int i = 0; i < 32; i++) {
            be[i] = le[31 - i];
        }
        EdECPublicKeySpec spec = new EdECPublicKeySpec(NamedParameterSpec.ED25519, new EdECPoint(xOdd, new BigInteger(1, be)));
        return KeyFactory.getInstance("Ed25519").generatePublic(spec);
    }
}
