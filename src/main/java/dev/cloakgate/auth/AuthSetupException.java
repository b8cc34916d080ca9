package dev.cloakgate.auth;

/** A tenant's credentials could not be set up (a token file unreadable, a JWKS file invalid), naming the key. */
public final class AuthSetupException extends Exception {
    private final String path;

    public AuthSetupException(String path, String problem) {
        super(problem);
        this.path = path;
    }

    /** The JSON path of the key in the tenant file, {@code $.auth.principals.audit.token_file}. */
    public String path() {
        return path;
    }
}
