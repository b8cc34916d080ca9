package dev.cloakgate.chain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.evidence.Evidence;
import dev.cloakgate.gate.ActionBoundary;
import dev.cloakgate.gate.GateRecord;
import dev.cloakgate.gate.SessionTask;
import dev.cloakgate.store.OperationStore;
import dev.cloakgate.store.SqliteOperationStore;

/**
 * Issue 11: the operation stage fails closed. A begin the store cannot make durable is not sent
 * ({@code operations_unavailable}); a receipt's operation id that already names another tool's operation is refused
 * ({@code operation_id_conflict}) rather than answered with the other call's stored result. Real SQLite files.
 */
class OperationBeginTest {
    @TempDir
    Path data;

    @Test
    void anOperationIdOfAnotherToolIsRefusedAndNothingIsSent() throws Exception {
        try (SqliteOperationStore store = SqliteOperationStore.openForGateway(data, "t")) {
            store.begin("op-shared", new OperationStore.Start("t", "pay__refund", "pay", "tag", null, null));
            AtomicBoolean forwarded = new AtomicBoolean();
            Reply r = run(store, "op-shared", forwarded);
            assertEquals("operation_id_conflict", r.response().path("error").path("data").path("reason").asText(), r.toString());
            assertEquals(Reply.Kind.REFUSAL, r.kind());
            assertFalse(forwarded.get());
        }
    }

    @Test
    void aStoreThatCannotBeginRefusesTheCallUnsent() throws Exception {
        SqliteOperationStore store = SqliteOperationStore.openForGateway(data, "t");
        store.close();
        AtomicBoolean forwarded = new AtomicBoolean();
        Reply r = run(store, "op-1", forwarded);
        assertEquals("operations_unavailable", r.response().path("error").path("data").path("reason").asText(), r.toString());
        assertEquals(-32001, r.response().path("error").path("code").asInt());
        assertFalse(forwarded.get());
    }

    private static Reply run(OperationStore store, String op, AtomicBoolean forwarded) throws Exception {
        ObjectNode params = JsonNodeFactory.instance.objectNode().put("name", "pay_invoice");
        Call call = new Call("tools/call", IntNode.valueOf(1), "pay__pay_invoice", "pay__pay_invoice", "pay", params);
        call.set(GateFacts.RELEASE, "sha256:" + "a".repeat(64));
        call.set(GateFacts.PASSED, new ActionBoundary.Pass(null, "f".repeat(64), null, op));
        CallChain chain = CallChain.builder().aroundForward(new OperationBegin(store, Runnable::run,
                new GateRecord(Evidence.NONE, "t", "s"), "t", "tag", new SessionTask())).build();
        return chain.run(call, c -> {
            forwarded.set(true);
            return CompletableFuture.completedFuture(Reply.upstream(JsonNodeFactory.instance.objectNode()));
        }).get();
    }
}
