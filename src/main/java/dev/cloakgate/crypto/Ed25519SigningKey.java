package dev.cloakgate.crypto;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
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
        String text = Files.readString(file, StandardCharsets.US_ASCII).strip();
        byte[] seed;
        if (text.length() == 2 * SEED_LENGTH && text.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            seed = HexFormat.of().parseHex(text);
        } else {
            try {
                seed = Base64.getDecoder().decode(text);
            } catch (IllegalArgumentException e) {
                throw new IOException(file + ": a signing key file holds a 32-byte seed as hex or base64");
            }
        }
        if (seed.length != SEED_LENGTH) {
            throw new IOException(file + ": a signing key file holds a 32-byte seed as hex or base64");
        }
        return new Ed25519SigningKey(seed);
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
