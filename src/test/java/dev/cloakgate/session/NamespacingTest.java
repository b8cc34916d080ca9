package dev.cloakgate.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.cloakgate.tenant.Namespace;

class NamespacingTest {

    @Test
    void prefixSplitsOnTheFirstSeparator() {
        Namespacing n = new Namespacing(Namespace.PREFIX, Set.of("fs", "crm"));
        assertEquals("fs__read__all", n.expose("fs", "read__all"));
        assertEquals(new Namespacing.Route("fs", "read__all"), n.route("fs__read__all"));
        assertEquals(new Namespacing.Route("crm", "x"), n.route("crm__x"));
        assertNull(n.route("nope__x"));
        assertNull(n.route("fs__"));
        assertNull(n.route("__x"));
        assertNull(n.route("fsread"));
        assertNull(n.route(null));
    }

    @Test
    void noneIsTheDropIn() {
        Namespacing n = new Namespacing(Namespace.NONE, Set.of("solo"));
        assertEquals("read__all", n.expose("solo", "read__all"));
        assertEquals(new Namespacing.Route("solo", "anything__at_all"), n.route("anything__at_all"));
        assertThrows(IllegalArgumentException.class, () -> new Namespacing(Namespace.NONE, Set.of("a", "b")));
    }
}
