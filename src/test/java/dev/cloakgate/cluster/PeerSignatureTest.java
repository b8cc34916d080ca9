package dev.cloakgate.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

class PeerSignatureTest {
    private static final Instant T0 = Instant.parse("2026-12-02T07:00:00Z");
    private static final PeerSignature.Signed REQ = new PeerSignature.Signed("POST", "/t/team-a/mcp", "c1.abc",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}".getBytes(StandardCharsets.UTF_8));

    private static PeerSignature at(Instant now) {
        return new PeerSignature(ClusterKey.of(ClusterKeyTest.raw()), Clock.fixed(now, ZoneOffset.UTC),
                Duration.ofSeconds(30));
    }

    @Test
    void aForwardVerifiesWithinTheWindowAndNamesItsSender() {
        String header = at(T0).sign("r1", REQ);
        assertEquals(new PeerSignature.Verified("r1"), at(T0).verify(header, REQ));
        assertEquals(new PeerSignature.Verified("r1"), at(T0.plusSeconds(30)).verify(header, REQ));
        assertEquals(new PeerSignature.Verified("r1"), at(T0.minusSeconds(30)).verify(header, REQ));
    }

    @Test
    void aCapturedForwardReplayedOutsideTheWindowIsRefused() {
        String header = at(T0).sign("r1", REQ);
        assertEquals(new PeerSignature.Refused("expired"), at(T0.plusSeconds(31)).verify(header, REQ));
        assertEquals(new PeerSignature.Refused("expired"), at(T0.minusSeconds(31)).verify(header, REQ));
    }

    @Test
    void anythingChangedIsRefused() {
        PeerSignature s = at(T0);
        String header = s.sign("r1", REQ);
        PeerSignature.Refused mismatch = new PeerSignature.Refused("mismatch");
        assertEquals(mismatch, s.verify(header, new PeerSignature.Signed("DELETE", REQ.path(), REQ.sessionId(), REQ.body())));
        assertEquals(mismatch, s.verify(header, new PeerSignature.Signed("POST", "/t/team-b/mcp", REQ.sessionId(), REQ.body())));
        assertEquals(mismatch, s.verify(header, new PeerSignature.Signed("POST", REQ.path(), "c1.abd", REQ.body())));
        byte[] body = REQ.body().clone();
        body[body.length - 2] ^= 1;
        assertEquals(mismatch, s.verify(header, new PeerSignature.Signed("POST", REQ.path(), REQ.sessionId(), body)));
        assertEquals(mismatch, s.verify(header.replace(";r1;", ";r2;"), REQ), "the sender is signed too");
        String[] parts = header.split(";");
        assertEquals(mismatch, s.verify(parts[0] + ";" + parts[1] + ";" + (Long.parseLong(parts[2]) + 1) + ";" + parts[3], REQ));
        assertEquals(mismatch, s.verify(header.substring(0, header.length() - 1) + (header.endsWith("A") ? "B" : "A"), REQ));
        byte[] other = ClusterKeyTest.raw();
        other[5] ^= 1;
        String foreign = new PeerSignature(ClusterKey.of(other), Clock.fixed(T0, ZoneOffset.UTC), Duration.ofSeconds(30))
                .sign("r1", REQ);
        assertEquals(mismatch, s.verify(foreign, REQ), "a key that is not the cluster's");
        for (String junk : new String[] { "", "v1", "v1;r1;1;", "v2;r1;" + T0.getEpochSecond() + ";" + parts[3],
                "v1;R1;" + T0.getEpochSecond() + ";" + parts[3], "v1;r1;x;" + parts[3] }) {
            assertEquals(new PeerSignature.Refused("malformed"), s.verify(junk, REQ), junk);
        }
    }
}
