package dev.cloakgate.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class BacklogTest {

    @Test
    void overTheBoundTheConnectionFurthestBehindIsEnded() {
        Backlog b = new Backlog(1000);
        Backlog.Connection unread = () -> { };
        Backlog.Connection reader = () -> { };
        assertNull(b.written(unread, 600));
        assertNull(b.written(reader, 300));
        b.taken(reader, 300);
        // the reader's next write tips the session over: the one nobody reads is ended, not the reader
        assertSame(unread, b.written(reader, 500));
        b.taken(unread, 600);
        assertEquals(500, b.total());
        b.taken(reader, 500);
        assertEquals(0, b.total());
    }
}
