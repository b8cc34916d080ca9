package dev.cloakgate.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class MessageScanTest {

    @Test
    void findsTheTopLevelIdWhereverItIsAndWhateverPrecedesIt() {
        MessageScan s = scan("{\"result\":{\"id\":99,\"text\":\"a \\\"quoted\\\" } ] { \\\\\",\"list\":[1,{\"id\":3}]},"
                + "\"jsonrpc\":\"2.0\",\"id\":12}");
        assertEquals(MessageScan.Kind.RESPONSE, s.kind());
        assertEquals(12L, s.id().asLong());
    }

    @Test
    void tellsRequestsNotificationsAndErrorsApart() {
        assertEquals(MessageScan.Kind.REQUEST, scan("{\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"method\":\"sampling/createMessage\"}").kind());
        assertEquals("s-1", scan("{\"id\":\"s-1\",\"method\":\"x\"}").id().textValue());
        assertEquals(MessageScan.Kind.NOTIFICATION, scan("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"id\":4}}").kind());
        assertEquals(MessageScan.Kind.RESPONSE, scan("{ \"id\" : 7 , \"error\" : {\"code\":-1}}").kind());
        assertEquals(7L, scan("{ \"id\" : 7 , \"error\" : {\"code\":-1}}").id().asLong());
    }

    @Test
    void noUsableIdIsNoId() {
        assertNull(scan("{\"id\":null,\"result\":1}").id());
        assertNull(scan("{\"id\":\"a\\u0041\",\"result\":1}").id());
        assertNull(scan("{\"id\":\"" + "9".repeat(100) + "\",\"result\":1}").id());
        assertEquals(MessageScan.Kind.UNKNOWN, scan("not json at all").kind());
    }

    @Test
    void everySplitGivesTheSameAnswer() {
        String m = "{\"result\":{\"t\":\"x\\\"y\"},\"id\":1234,\"jsonrpc\":\"2.0\"}";
        byte[] b = m.getBytes(StandardCharsets.UTF_8);
        for (int cut = 0; cut <= b.length; cut++) {
            MessageScan s = new MessageScan();
            s.feed(b, 0, cut);
            s.feed(b, cut, b.length - cut);
            assertEquals(1234L, s.id().asLong(), "cut at " + cut);
            assertTrue(s.decided());
        }
    }

    @Test
    void decidedOnlyOnceItsIdAndKindAreKnown() {
        MessageScan s = new MessageScan();
        byte[] head = "{\"result\":{\"text\":\"".getBytes(StandardCharsets.UTF_8);
        s.feed(head, 0, head.length);
        assertFalse(s.decided());
        assertTrue(s.report());
        assertFalse(s.report());
    }

    private static MessageScan scan(String json) {
        MessageScan s = new MessageScan();
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        s.feed(b, 0, b.length);
        return s;
    }
}
