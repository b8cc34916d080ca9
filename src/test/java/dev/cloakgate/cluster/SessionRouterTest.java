package dev.cloakgate.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.URI;
import java.util.Map;

import org.junit.jupiter.api.Test;

class SessionRouterTest {
    private static final ClusterKey KEY = ClusterKey.of(ClusterKeyTest.raw());
    private static final Map<String, URI> PEERS = Map.of("r0", URI.create("http://127.0.0.1:8081"), "r1",
            URI.create("http://127.0.0.1:8082"));
    private final SessionRouter r0 = new SessionRouter(new ClusterSettings("r0", KEY, PEERS, null));
    private final SessionIdCodec codec = new SessionIdCodec(KEY);

    @Test
    void ownSessionsAreServedHereOthersGoToTheirOwnerTheRestIsUnknown() {
        assertEquals(new SessionRoute.Here(), r0.route("t", r0.issue("t")));
        assertEquals(new SessionRoute.Owner("r1", URI.create("http://127.0.0.1:8082")), r0.route("t", codec.issue("t", "r1")));
        assertEquals(new SessionRoute.Unknown(), r0.route("t", codec.issue("t", "r9")), "a replica not in the peer set");
        assertEquals(new SessionRoute.Unknown(), r0.route("u", codec.issue("t", "r1")), "another tenant's id");
        assertEquals(new SessionRoute.Unknown(), r0.route("t", "0123456789abcdef0123456789abcdef"));
    }

    @Test
    void oneProcessServesEverySessionUnderTodaysIds() {
        SessionRouter single = new SessionRouter(null);
        assertNull(single.issue("t"), "the registry's own ids");
        assertEquals(new SessionRoute.Here(), single.route("t", codec.issue("t", "r1")));
    }
}
