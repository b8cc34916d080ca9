package dev.cloakgate.tenant;

/** How upstream tool and prompt names appear to the client. */
public enum Namespace {
    /** {@code {upstream}__{name}}, split on the first {@code __}. */
    PREFIX,
    /** Names unchanged; allowed only with exactly one upstream, making the gateway a drop-in. */
    NONE
}
