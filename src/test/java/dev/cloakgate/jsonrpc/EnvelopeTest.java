package dev.cloakgate.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

class EnvelopeTest {
    private final JsonCodec codec = new JsonCodec(new JsonCodec.Limits(16, 4096));

    @Test
    void classifiesTheThreeKinds() throws Exception {
        assertEquals(Envelope.Kind.REQUEST, Envelope.classify(json("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")));
        assertEquals(Envelope.Kind.NOTIFICATION,
                Envelope.classify(json("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")));
        assertEquals(Envelope.Kind.RESPONSE, Envelope.classify(json("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{}}")));
        assertEquals(Envelope.Kind.RESPONSE,
                Envelope.classify(json("{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-1,\"message\":\"x\"}}")));
    }

    @Test
    void refusesBatchesWithTheirOwnReason() throws Exception {
        assertEquals("batch", reason("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]"));
        assertEquals("not_an_object", reason("42"));
    }

    @Test
    void refusesCaseVariantsOfMemberNames() throws Exception {
        assertEquals("noncanonical", reason("{\"jsonrpc\":\"2.0\",\"id\":1,\"Method\":\"ping\",\"method\":\"ping\"}"));
        assertEquals("noncanonical",
                reason("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"Name\":\"x\",\"name\":\"y\"}}"));
        assertEquals("noncanonical",
                reason("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolversion\":\"x\"}}"));
        // the canonical camelCase members pass
        Envelope.classify(json("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-11-25\",\"clientInfo\":{},\"capabilities\":{}}}"));
    }

    @Test
    void refusesMalformedEnvelopes() throws Exception {
        assertEquals("invalid_request", reason("{\"id\":1,\"method\":\"ping\"}"));
        assertEquals("invalid_request", reason("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}"));
        assertEquals("invalid_request", reason("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}"));
        assertEquals("invalid_request", reason("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":[1]}"));
        assertEquals("invalid_request", reason("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"error\":{\"code\":1}}"));
        assertEquals("invalid_request", reason("{\"jsonrpc\":\"2.0\"}"));
    }

    private String reason(String s) throws Exception {
        RpcException e = assertThrows(RpcException.class, () -> Envelope.classify(json(s)));
        assertEquals(ErrorCodes.INVALID_REQUEST, e.error().code());
        return e.error().reason();
    }

    private JsonNode json(String s) throws Exception {
        return codec.parse(s);
    }
}
