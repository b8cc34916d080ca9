package dev.cloakgate.store;

/** An approval receipt cannot be looked up, read or stored; {@link #code()} is a stable snake_case code. */
public final class ApprovalStoreException extends StoreException {
    /** The name asked for is not a fingerprint: 64 lower-case hex digits. */
    public static final String FINGERPRINT_INVALID = "fingerprint_invalid";
    /** A receipt file exists but cannot be read whole: too large, not a regular file, an I/O error. */
    public static final String UNREADABLE = "approval_unreadable";
    /** A receipt offered for storing is larger than a receipt can be. */
    public static final String TOO_LARGE = "approval_too_large";

    private final String code;

    public ApprovalStoreException(String code, String message) {
        super(message);
        this.code = code;
    }

    public ApprovalStoreException(String code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
