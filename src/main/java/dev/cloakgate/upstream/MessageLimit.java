package dev.cloakgate.upstream;

/**
 * The largest message a link accepts from its upstream, in bytes as sent, and the setting it comes from (named
 * in the error a caller gets when a message is over it).
 */
public record MessageLimit(int bytes, String setting) {
    public MessageLimit {
        if (bytes < 64) {
            throw new IllegalArgumentException("message limit too small: " + bytes);
        }
    }
}
