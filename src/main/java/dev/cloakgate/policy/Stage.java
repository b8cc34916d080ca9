package dev.cloakgate.policy;

import java.util.Locale;

/**
 * The three moments a client has to trust, each written by someone else: declarations (the server author,
 * checkable before use), arguments (the model, checkable before the call), results (whoever wrote the data,
 * checkable only when they arrive).
 */
public enum Stage {
    DISCOVERY, REQUEST, RESPONSE;

    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }
}
