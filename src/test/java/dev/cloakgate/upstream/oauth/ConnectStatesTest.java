package dev.cloakgate.upstream.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

/** Issue 16: a connection's state is random, bound to one tenant's upstream, single-use and expiring. */
class ConnectStatesTest {
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    };

    @Test
    void aStateIsTakenOnceAndBindsItsUpstream() {
        ConnectStates states = new ConnectStates(clock, Duration.ofMinutes(10));
        Pkce pkce = Pkce.create();
        String state = states.add("acme", "crm", pkce, "https://gw.example/oauth/callback", "read",
                "https://as.example", null);
        ConnectStates.Pending p = states.take(state);
        assertNotNull(p);
        assertEquals("acme", p.tenant());
        assertEquals("crm", p.upstream());
        assertEquals(pkce.verifier(), p.pkce().verifier());
        assertEquals("https://as.example", p.issuer());
        assertNull(states.take(state), "a replayed state is refused");
        assertNull(states.take("made-up"));
        assertNull(states.take(null));
    }

    @Test
    void anExpiredStateIsRefused() {
        ConnectStates states = new ConnectStates(clock, Duration.ofMinutes(10));
        String state = states.add("acme", "crm", Pkce.create(), "https://gw.example/oauth/callback", null, null, null);
        now = now.plus(Duration.ofMinutes(10));
        assertNull(states.take(state));
    }

    @Test
    void thePkceChallengeIsTheVerifiersS256() {
        // RFC 7636 appendix B
        assertEquals("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
                Pkce.s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"));
        assertEquals(43, Pkce.create().verifier().length());
    }
}
