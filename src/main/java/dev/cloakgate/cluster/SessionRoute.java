package dev.cloakgate.cluster;

import java.net.URI;

/** Where a request for a session goes: served here, forwarded to its owner, or answered as an unknown session. */
public sealed interface SessionRoute {
    /** This replica owns it (or the gateway runs alone): the local registry decides. */
    record Here() implements SessionRoute {
    }

    /** Another replica, reached at {@code base}, owns it. */
    record Owner(String replica, URI base) implements SessionRoute {
    }

    /** Not a session of this cluster for this tenant (forged, altered, another tenant's) or of a replica not in the peer set. */
    record Unknown() implements SessionRoute {
    }
}
