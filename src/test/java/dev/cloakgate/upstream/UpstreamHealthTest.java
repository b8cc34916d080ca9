package dev.cloakgate.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The health model operators read, and the stderr head a child that cannot start leaves in the log. */
class UpstreamHealthTest {

    @Test
    void stateRestartsAndFailuresByReason() {
        List<UpstreamHealth> made = new ArrayList<>();
        HealthBoard board = new HealthBoard(Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC));
        board.onNew(made::add);
        UpstreamHealth h = board.of("acme", "fs");
        assertEquals(List.of(h), made);
        assertTrue(Double.isNaN(h.upValue()), "nobody tried it yet");
        UpstreamException exited = new UpstreamException("fs", UpstreamException.Reason.UPSTREAM_EXITED, "exited (status 7)")
                .withDiagnostic("Error: [EMAIL] | ...");
        h.failed(exited);
        assertEquals(0.0, h.upValue());
        h.up(true);
        h.up(false);
        assertEquals(1.0, h.upValue());
        UpstreamHealth.Snapshot s = board.tenant("acme").get("fs");
        assertEquals(UpstreamHealth.State.UP, s.state());
        assertEquals(1, s.restarts());
        assertEquals(java.util.Map.of("upstream_exited", 1L), s.failures());
        assertEquals("exited (status 7)", s.lastFailure().cause());
        assertEquals("Error: [EMAIL] | ...", s.lastFailure().diagnostic());
        assertTrue(h.worthLogging(exited));
        assertFalse(h.worthLogging(exited), "the same cause is logged once a minute");
        assertTrue(h.worthLogging(new UpstreamException("fs", UpstreamException.Reason.UPSTREAM_EXITED, "exited (status 1)")));
    }

    @Test
    void stderrHeadIsBoundedPrintableAndScrubbed() {
        StderrHead head = new StderrHead();
        StringBuilder err = new StringBuilder("\n\nboom: see ops.lead@example.org\r\nkey ghp_0123456789abcdefghijABCDEFGHIJ012345 \u001b[2J\u202Eevil\n");
        err.append("x".repeat(300)).append('\n');
        for (int i = 0; i < 20; i++) {
            err.append("line ").append(i).append('\n');
        }
        byte[] b = err.toString().getBytes(StandardCharsets.UTF_8);
        head.feed(b, b.length);
        String text = head.text();
        assertTrue(text.startsWith("boom: see [EMAIL] | key [SECRET] ?[2J?evil | " + "x".repeat(200) + "... | line 0"), text);
        assertFalse(text.contains("line 6"), "eight lines at most: " + text);
        assertTrue(text.endsWith("| ... (" + b.length + " bytes in all)"), text);
        assertEquals("", new StderrHead().text());
    }
}
