package dev.cloakgate.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.policy.control.ToolPinning;

/**
 * The contract of every {@link PinStore} (issue 17: a file and PostgreSQL): first sight pins, a change is quarantined
 * until the pending hash is accepted, and what one store (another process, another replica) accepts takes effect on
 * another store of the same tenant at its next check.
 */
abstract class PinStoreContract {
    /** A new store of tenant {@code t} on this test's storage. */
    abstract PinStore open();

    @Test
    void pinsAtFirstSightQuarantinesAChangeAndAcceptsOnlyThePendingHash() throws Exception {
        PinStore pins = open();
        String a = "a".repeat(64);
        String b = "b".repeat(64);
        assertEquals(PinStore.Check.PINNED_NOW, pins.check("fs", "read", a));
        assertEquals(PinStore.Check.SAME, pins.check("fs", "read", a));
        assertEquals(PinStore.Check.CHANGED, pins.check("fs", "read", b));
        assertEquals(b, pins.all().get("fs/read").pending());
        // another process (the admin command) sees the same file
        PinStore other = open();
        assertFalse(other.accept("fs/read", "c".repeat(64)));
        assertTrue(other.accept("fs/read", b));
        assertEquals(PinStore.Check.SAME, pins.check("fs", "read", b), "the running gateway picks up the acceptance");
        assertEquals(PinStore.Check.CHANGED, pins.check("fs", "read", a), "the old definition is now the change");
    }

    @Test
    void acceptingWhatWasShownLeavesADefinitionThatChangedAgainQuarantined() throws Exception {
        PinStore pins = open();
        ObjectMapper m = new ObjectMapper();
        pins.check("fs", "a", new PinStore.Seen("1".repeat(64), null, m.readTree("{\"description\":\"one\"}")));
        pins.check("fs", "b", new PinStore.Seen("2".repeat(64), null, m.readTree("{\"description\":\"two\"}")));
        pins.check("fs", "a", new PinStore.Seen("3".repeat(64), null, m.readTree("{\"description\":\"one!\"}")));
        pins.check("fs", "b", new PinStore.Seen("4".repeat(64), null, m.readTree("{\"description\":\"two!\"}")));
        PinReview review = new PinReview(pins);
        List<PinReview.Pending> shown = review.pendingOf("fs");
        assertEquals(2, shown.size());
        assertEquals("changed /description", shown.get(0).changes().get(0).kind().code() + " " + shown.get(0).changes().get(0).pointer());
        // b changes again after the operator looked
        pins.check("fs", "b", new PinStore.Seen("5".repeat(64), null, m.readTree("{\"description\":\"two!!\"}")));
        assertEquals(java.util.Set.of("fs/a"), review.accept(shown));
        assertEquals(null, pins.all().get("fs/a").pending());
        assertEquals("5".repeat(64), pins.all().get("fs/b").pending(), "b stays quarantined with what it is now");
        assertEquals(m.readTree("{\"description\":\"one!\"}"), pins.all().get("fs/a").definition(), "the accepted definition is kept");
    }
}
