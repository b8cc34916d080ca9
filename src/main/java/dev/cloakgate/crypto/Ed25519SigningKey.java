package dev.cloakgate.crypto;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

/**
 * An Ed25519 signing key held as its RFC 8032 32-byte seed. It is only ever read from a seed or a file, or
 * made by an explicit {@link #generate}: a key that appeared silently would sign evidence nobody can trust.
 */
public final class Ed25519SigningKey {

    public static final int SEED_LENGTH = 32;

    private final Ed25519PrivateKeyParameters key;
    private final Ed25519PublicKey publicKey;

    private Ed25519SigningKey(byte[] seed) {
        this.key = new Ed25519PrivateKeyParameters(seed, 0);
        this.publicKey = Ed25519PublicKey.of(key.generatePublicKey().getEncoded());
    }

    public static Ed25519SigningKey fromSeed(byte[] seed) {
        if (seed.length != SEED_LENGTH) {
            throw new IllegalArgumentException("an Ed25519 seed is 32 bytes, not " + seed.length);
        }
        return new Ed25519SigningKey(seed.clone());
    }

    /**
     * Reads a seed written as 64 hex digits or as base64 of 32 bytes, surrounding whitespace ignored. The
     * message of a refusal never quotes the file's content.
     */
    public static Ed25519SigningKey fromFile(Path file) throws IOException {
        try {
            return fromText(Files.readString(file, StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage());
        }
    }

    /**
     * Reads a seed from text in the key file's forms (64 hex digits or base64 of 32 bytes, surrounding whitespace
     * ignored), as from an environment variable. A refusal never quotes the text.
     */
    public static Ed25519SigningKey fromText(String text) {
        String t = text.strip();
        byte[] seed;
        if (t.length() == 2 * SEED_LENGTH && t.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            seed = HexFormat.of().parseHex(t);
        } else {
            try {
                seed = Base64.getDecoder().decode(t);
            } catch (IllegalArgumentException e) {
                // its message names the offending character: part of the secret
                seed = null;
            }
        }
        if (seed == null || seed.length != SEED_LENGTH) {
            throw new IllegalArgumentException("a signing key is a 32-byte seed as hex or base64");
        }
        try {
            return new Ed25519SigningKey(seed);
        } finally {
            Arrays.fill(seed, (byte) 0);
        }
    }

    /** A fresh key; for dev mode and tests, where the caller says so by calling this. */
    public static Ed25519SigningKey generate(SecureRandom random) {
        byte[] seed = new byte[SEED_LENGTH];
        random.nextBytes(seed);
        return new Ed25519SigningKey(seed);
    }

    public Ed25519PublicKey publicKey() {
        return publicKey;
    }

    /** The 32-byte seed, for writing the key to its file. */
    public byte[] seed() {
        return key.getEncoded();
    }

    /** RFC 8032 Ed25519 (pure, no context): deterministic, 64 bytes. */
    public byte[] sign(byte[] message) {
        Ed25519Signer signer = new Ed25519Signer();
        signer.init(true, key);
        signer.update(message, 0, message.length);
        return signer.generateSignature();
    }

    @Override
    public String toString() {
        return "Ed25519SigningKey[public " + publicKey + "]";
    }
}
