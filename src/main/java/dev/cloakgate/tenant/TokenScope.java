package dev.cloakgate.tenant;

/** Where a token may be restored. */
public enum TokenScope {
    /** In a call to any upstream of the session; a cross-upstream restore is recorded (never the value). */
    SESSION,
    /** Only in a call to an upstream that returned the value; anything else is refused (token_scope). */
    UPSTREAM
}
