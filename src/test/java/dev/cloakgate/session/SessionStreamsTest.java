package dev.cloakgate.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class SessionStreamsTest {

    /** Records what would have been written to one HTTP connection. */
    static final class Recording implements SessionStreams.Sink {
        final List<String> ids = new ArrayList<>();
        final List<String> data = new ArrayList<>();
        boolean ended;
        boolean broken;

        @Override
        public boolean write(String eventId, String d) {
            if (broken) {
                return false;
            }
            ids.add(eventId);
            data.add(d);
            return true;
        }

        @Override
        public void end() {
            ended = true;
        }
    }

    @Test
    void standaloneEventsWaitForTheFirstConnection() {
        SessionStreams s = new SessionStreams(100, 1 << 20);
        s.emit(s.standalone(), "a");
        s.emit(s.standalone(), "b");
        Recording r = new Recording();
        assertNotNull(s.attach(null, r));
        assertEquals(List.of("a", "b"), r.data);
        s.emit(s.standalone(), "c");
        assertEquals(List.of("a", "b", "c"), r.data);
    }

    @Test
    void reconnectWithLastEventIdReplaysWhatWasMissed() {
        SessionStreams s = new SessionStreams(100, 1 << 20);
        Recording first = new Recording();
        s.attach(null, first);
        s.emit(s.standalone(), "one");
        String seen = first.ids.get(0);
        first.broken = true;
        s.emit(s.standalone(), "two");
        s.emit(s.standalone(), "three");
        Recording second = new Recording();
        s.attach(seen, second);
        assertEquals(List.of("two", "three"), second.data);
    }

    @Test
    void aPostStreamResumesOnGetAndEndsWhenFinished() {
        SessionStreams s = new SessionStreams(100, 1 << 20);
        Recording post = new Recording();
        SessionStreams.Stream st = s.open(post);
        String priming = s.emit(st, "");
        post.broken = true;
        s.emit(st, "progress");
        Recording get = new Recording();
        assertNotNull(s.attach(priming, get));
        assertEquals(List.of("progress"), get.data);
        s.emit(st, "response");
        s.finish(st);
        assertEquals(List.of("progress", "response"), get.data);
        assertTrue(get.ended);
        // resuming a finished stream replays and reports it finished
        Recording late = new Recording();
        assertNull(s.attach(priming, late));
        assertEquals(List.of("progress", "response"), late.data);
    }

    @Test
    void theBufferIsBounded() {
        SessionStreams s = new SessionStreams(3, 1 << 20);
        Recording r = new Recording();
        String first = null;
        for (int i = 0; i < 10; i++) {
            String id = s.emit(s.standalone(), "e" + i);
            first = first == null ? id : first;
        }
        s.attach(first, r);
        assertEquals(List.of("e7", "e8", "e9"), r.data);
    }
}
