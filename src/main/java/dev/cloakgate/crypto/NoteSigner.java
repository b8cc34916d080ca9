package dev.cloakgate.crypto;

/** Signs notes under a key name; the name is part of the key ID, so it is fixed with the key. */
public final class NoteSigner {

    private final Ed25519SigningKey key;
    private final NoteVerifier verifier;

    public NoteSigner(String name, Ed25519SigningKey key) {
        this.key = key;
        this.verifier = NoteVerifier.of(name, key.publicKey());
    }

    public String name() {
        return verifier.name();
    }

    public KeyId keyId() {
        return verifier.keyId();
    }

    /** What a verifier needs to trust this signer: publish {@code verifier().encoded()}. */
    public NoteVerifier verifier() {
        return verifier;
    }

    byte[] sign(byte[] text) {
        return key.sign(text);
    }

    @Override
    public String toString() {
        return "NoteSigner[" + verifier.encoded() + "]";
    }
}
