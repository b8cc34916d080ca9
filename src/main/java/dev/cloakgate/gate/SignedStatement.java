package dev.cloakgate.gate;

import dev.cloakgate.crypto.Dsse;
import dev.cloakgate.crypto.DsseException;
import dev.cloakgate.crypto.SignerKeys;

/**
 * Opening a DSSE envelope that holds an in-toto statement, the one way for every signed document of the action
 * boundary: the envelope read strictly, its payload type checked, its signature verified under a trusted key, and only
 * then the statement read. Refusals are {@code <family>_unreadable} or {@code <family>_untrusted} (a signature that
 * does not verify under a trusted key is untrusted too: the document is not the one that key signed).
 *
 * @param keyId the trusted key that verified it
 */
record SignedStatement(String keyId, InTotoStatement statement) {

    /** Why an envelope was not accepted: {@code reason} a stable code, {@code detail} what to fix. */
    static final class NotAccepted extends Exception {
        private final String reason;

        NotAccepted(String reason, String detail) {
            super(detail, null, false, false);
            this.reason = reason;
        }

        String reason() {
            return reason;
        }
    }

    static SignedStatement open(byte[] envelope, SignerKeys trusted, String predicateType, String family)
            throws NotAccepted {
        Dsse.Envelope e;
        try {
            e = Dsse.Envelope.parse(envelope);
        } catch (DsseException bad) {
            throw new NotAccepted(family + "_unreadable", bad.getMessage());
        }
        if (!InTotoStatement.PAYLOAD_TYPE.equals(e.payloadType())) {
            throw new NotAccepted(family + "_unreadable", "payloadType must be " + InTotoStatement.PAYLOAD_TYPE);
        }
        String keyId;
        try {
            keyId = Dsse.verify(e, trusted.asMap());
        } catch (DsseException bad) {
            throw new NotAccepted(family + "_untrusted", bad.getMessage());
        }
        try {
            return new SignedStatement(keyId, InTotoStatement.parse(e.payload(), predicateType));
        } catch (IllegalArgumentException bad) {
            throw new NotAccepted(family + "_unreadable", bad.getMessage());
        }
    }
}
