package dev.cloakgate.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cloakgate.store.OperationStore.Begin;
import dev.cloakgate.store.OperationStore.Outcome;
import dev.cloakgate.store.OperationStore.Settled;
import dev.cloakgate.store.OperationStore.Start;

/**
 * The contract of every {@link OperationStore} (issue 17: SQLite and PostgreSQL), on the real storage: every
 * transition, replay, reconcile, the sweep of a previous process's calls and the outbox of reconciliations. A subclass
 * opens the gateway's store of tenant {@link #T} on the same storage at each {@link #open}.
 */
abstract class OperationStoreContract {
    static final String T = "acme";
    static final ObjectMapper M = new ObjectMapper();

    /** The gateway's store of {@link #T} on this test's storage (the same rows at every call). */
    abstract OperationStore open(Clock clock);

    OperationStore open() {
        return open(Clock.systemUTC());
    }

    static Start start(String tool) {
        return start(T, tool);
    }

    static Start start(String tenant, String tool) {
        return new Start(tenant, tool, "crm", "s-1a2b", "sha256:" + "ab".repeat(32), "task-7");
    }

    static JsonNode result(String text) throws Exception {
        // a decimal written 1.0 must replay as 1.0, as the gateway's codec read it
        return new dev.cloakgate.jsonrpc.JsonCodec(new dev.cloakgate.jsonrpc.JsonCodec.Limits(64, 1 << 20))
                .parse("{\"content\":[{\"type\":\"text\",\"text\":\"" + text + "\"}],\"structuredContent\":{\"amount\":1.0,\"n\":12345678901234567890},\"isError\":false}");
    }

    @Test
    void aNewOperationIsRecordedInFlightBeforeForwarding() {
        Clock at = Clock.fixed(Instant.parse("2026-12-02T10:00:00.123456Z"), ZoneOffset.UTC);
        try (OperationStore s = open(at)) {
            assertEquals(new Begin.Started(1), s.begin("op-1", start("crm__patch")));
            Operation o = s.get("op-1").orElseThrow();
            assertEquals(OperationState.IN_FLIGHT, o.state());
            assertEquals("crm__patch", o.tool());
            assertEquals("crm", o.upstream());
            assertEquals("s-1a2b", o.session());
            assertEquals("sha256:" + "ab".repeat(32), o.approval());
            assertEquals("task-7", o.taskId());
            assertEquals(1, o.attempts());
            assertEquals(Instant.parse("2026-12-02T10:00:00.123456Z"), o.createdAt());
            assertEquals(o.createdAt(), o.updatedAt());
            assertNull(o.reconciledBy());
            assertFalse(o.resultStored());
            assertEquals(List.of(o), s.list(OperationState.IN_FLIGHT));
            assertEquals(List.of(), s.list(OperationState.UNKNOWN));
            assertTrue(s.get("op-2").isEmpty());
        }
    }

    @Test
    void aDoneOperationReplaysItsStoredResultAfterAReopenAndIsNotStartedAgain() throws Exception {
        JsonNode r = result("paid [EMAIL_0]");
        try (OperationStore s = open()) {
            s.begin("op-1", start("crm__patch"));
            assertEquals(new Settled.Recorded(OperationState.DONE), s.settle("op-1", OperationState.DONE, r));
            assertEquals(new Begin.Replay(r), s.begin("op-1", start("crm__patch")));
        }
        try (OperationStore s = open()) {
            Begin b = s.begin("op-1", start("crm__patch"));
            Begin.Replay replay = assertInstanceOf(Begin.Replay.class, b);
            assertEquals(r, replay.result());
            assertEquals("1.0", replay.result().at("/structuredContent/amount").toString());
            assertEquals("12345678901234567890", replay.result().at("/structuredContent/n").toString());
            Operation o = s.get("op-1").orElseThrow();
            assertEquals(OperationState.DONE, o.state());
            assertEquals(1, o.attempts());
            assertTrue(o.resultStored());
            assertEquals(List.of(), s.sweptAtOpen());
        }
    }

    @Test
    void aFailedOperationKeepsNoResultAndIsStartedAgain() throws Exception {
        try (OperationStore s = open()) {
            s.begin("op-1", start("crm__patch"));
            assertEquals(new Settled.Recorded(OperationState.FAILED), s.settle("op-1", OperationState.FAILED, result("boom")));
            Operation failed = s.get("op-1").orElseThrow();
            assertEquals(OperationState.FAILED, failed.state());
            assertFalse(failed.resultStored());
            assertEquals(new Begin.Started(2), s.begin("op-1", new Start(T, "crm__patch", "crm", "s-other", null, "task-7")));
            Operation again = s.get("op-1").orElseThrow();
            assertEquals(OperationState.IN_FLIGHT, again.state());
            assertEquals(2, again.attempts());
            assertEquals("s-other", again.session(), "the row describes the latest attempt");
            assertNull(again.approval());
        }
    }

    @Test
    void anOperationInFlightIsNotStartedTwice() {
        try (OperationStore s = open()) {
            s.begin("op-1", start("crm__patch"));
            assertEquals(new Begin.InFlight(), s.begin("op-1", start("crm__patch")));
            assertEquals(1, s.get("op-1").orElseThrow().attempts());
        }
    }

    @Test
    void anUpstreamThatDiesMidCallLeavesTheOperationUnknownUntilReconciled() throws Exception {
        try (OperationStore s = open()) {
            s.begin("op-1", start("crm__patch"));
            assertEquals(OperationState.UNKNOWN, s.markUnknown("op-1"));
            assertEquals(new Begin.Unknown(), s.begin("op-1", start("crm__patch")));
            assertEquals(OperationState.UNKNOWN, s.markUnknown("op-1"));
            // a late answer does not settle what the gateway already reported as unknown
            assertEquals(new Settled.Kept(OperationState.UNKNOWN, null), s.settle("op-1", OperationState.DONE, result("late")));
            assertEquals(List.of("op-1"), s.list(OperationState.UNKNOWN).stream().map(Operation::id).toList());

            s.begin("op-2", start("crm__patch"));
            s.settle("op-2", OperationState.DONE, result("x"));
            assertEquals(OperationState.DONE, s.markUnknown("op-2"), "a settled call stays settled");
            OperationRefusedException e = assertThrows(OperationRefusedException.class, () -> s.markUnknown("op-404"));
            assertEquals("operation_not_found", e.code());
        }
    }

    @Test
    void countsGiveEveryStateWithZeroForNone() {
        try (OperationStore s = open()) {
            s.begin("op-a", start("crm__patch"));
            s.begin("op-b", start("crm__patch"));
            s.begin("op-c", start("crm__patch"));
            s.markUnknown("op-b");
            s.settle("op-c", OperationState.FAILED, null);
            java.util.Map<OperationState, Long> n = s.counts();
            assertEquals(java.util.Map.of(OperationState.IN_FLIGHT, 1L, OperationState.UNKNOWN, 1L, OperationState.FAILED,
                    1L, OperationState.DONE, 0L, OperationState.NOT_APPLIED, 0L), n);
        }
    }

    @Test
    void reconciledDoneIsAnsweredAsReconciledAndNotAppliedIsStartedAgain() {
        Clock at = Clock.fixed(Instant.parse("2026-12-02T11:00:00Z"), ZoneOffset.UTC);
        try (OperationStore s = open(at)) {
            s.begin("op-done", start("crm__patch"));
            s.markUnknown("op-done");
            Operation o = s.reconcile("op-done", Outcome.DONE, false, "alice");
            assertEquals(OperationState.DONE, o.state());
            assertEquals("alice", o.reconciledBy());
            assertEquals(Instant.parse("2026-12-02T11:00:00Z"), o.reconciledAt());
            assertFalse(o.resultStored());
            assertEquals(new Begin.Reconciled(OperationState.DONE), s.begin("op-done", start("crm__patch")));

            s.begin("op-na", start("crm__patch"));
            s.markUnknown("op-na");
            assertEquals(OperationState.NOT_APPLIED, s.reconcile("op-na", Outcome.parse("not-applied"), false, "bob").state());
            assertEquals(new Begin.Started(2), s.begin("op-na", start("crm__patch")));
            Operation retried = s.get("op-na").orElseThrow();
            assertEquals(OperationState.IN_FLIGHT, retried.state());
            assertNull(retried.reconciledBy(), "the retry is the gateway's again");
        }
    }

    @Test
    void reconcileRefusesWhatIsNotUnknownAndInFlightWithoutForce() throws Exception {
        try (OperationStore s = open()) {
            OperationRefusedException missing = assertThrows(OperationRefusedException.class,
                    () -> s.reconcile("op-404", Outcome.DONE, true, "alice"));
            assertEquals("operation_not_found", missing.code());
            assertNull(missing.state());

            s.begin("op-fly", start("crm__patch"));
            OperationRefusedException flying = assertThrows(OperationRefusedException.class,
                    () -> s.reconcile("op-fly", Outcome.DONE, false, "alice"));
            assertEquals("operation_not_unknown", flying.code());
            assertEquals(OperationState.IN_FLIGHT, flying.state());
            assertTrue(flying.getMessage().contains("--force"), flying.getMessage());
            assertEquals(OperationState.IN_FLIGHT, s.get("op-fly").orElseThrow().state(), "a refusal changes nothing");

            s.begin("op-done", start("crm__patch"));
            s.settle("op-done", OperationState.DONE, result("x"));
            s.begin("op-failed", start("crm__patch"));
            s.settle("op-failed", OperationState.FAILED, null);
            s.begin("op-na", start("crm__patch"));
            s.markUnknown("op-na");
            s.reconcile("op-na", Outcome.NOT_APPLIED, false, "alice");
            for (String id : List.of("op-done", "op-failed", "op-na")) {
                OperationState before = s.get(id).orElseThrow().state();
                for (boolean force : new boolean[] {false, true}) {
                    OperationRefusedException e = assertThrows(OperationRefusedException.class,
                            () -> s.reconcile(id, Outcome.DONE, force, "alice"));
                    assertEquals("operation_not_unknown", e.code());
                    assertEquals(before, e.state());
                }
                assertEquals(before, s.get(id).orElseThrow().state());
            }
            assertInstanceOf(Begin.Replay.class, s.begin("op-done", start("crm__patch")), "the stored result survives a refused reconcile");
            assertThrows(IllegalArgumentException.class, () -> s.reconcile("op-fly", Outcome.DONE, true, " "));
            assertThrows(IllegalArgumentException.class, () -> Outcome.parse("maybe"));
        }
    }

    @Test
    void anOperatorsForcedReconcileWinsOverTheLateAnswer() throws Exception {
        try (OperationStore s = open()) {
            s.begin("op-1", start("crm__patch"));
            s.reconcile("op-1", Outcome.NOT_APPLIED, true, "alice");
            assertEquals(new Settled.Kept(OperationState.NOT_APPLIED, "alice"), s.settle("op-1", OperationState.DONE, result("late")));
            assertEquals(OperationState.NOT_APPLIED, s.markUnknown("op-1"));
            Operation o = s.get("op-1").orElseThrow();
            assertEquals(OperationState.NOT_APPLIED, o.state());
            assertFalse(o.resultStored());
            s.begin("op-2", start("crm__patch"));
            assertEquals(OperationState.DONE, s.reconcile("op-2", Outcome.DONE, true, "bob").state());
            assertEquals(new Settled.Kept(OperationState.DONE, "bob"), s.settle("op-2", OperationState.FAILED, null));
            assertEquals(new Begin.Reconciled(OperationState.DONE), s.begin("op-2", start("crm__patch")));
        }
    }

    @Test
    void settleTakesDoneWithAResultOrFailed() {
        try (OperationStore s = open()) {
            s.begin("op-1", start("crm__patch"));
            for (OperationState st : List.of(OperationState.IN_FLIGHT, OperationState.UNKNOWN, OperationState.NOT_APPLIED)) {
                assertThrows(IllegalArgumentException.class, () -> s.settle("op-1", st, M.createObjectNode()));
            }
            assertThrows(IllegalArgumentException.class, () -> s.settle("op-1", OperationState.DONE, null));
            assertEquals(OperationState.IN_FLIGHT, s.get("op-1").orElseThrow().state());
            OperationRefusedException e = assertThrows(OperationRefusedException.class,
                    () -> s.settle("op-404", OperationState.FAILED, null));
            assertEquals("operation_not_found", e.code());
        }
    }

    @Test
    void anOperationIdNamesOneToolAndOneTenantAndIsPlainText() throws Exception {
        try (OperationStore s = open()) {
            s.begin("op-1", start("crm__patch"));
            s.settle("op-1", OperationState.DONE, result("invoice paid"));
            // a second approval reusing the id for another call must not get the first call's result
            OperationRefusedException e = assertThrows(OperationRefusedException.class, () -> s.begin("op-1", start("crm__delete")));
            assertEquals("operation_id_conflict", e.code());
            assertEquals(OperationState.DONE, s.get("op-1").orElseThrow().state());
            for (String bad : new String[] {"", "-x", "a b", "../x", "x\n", "\u00e9", "a".repeat(129), null}) {
                assertThrows(IllegalArgumentException.class, () -> s.begin(bad, start("crm__patch")), String.valueOf(bad));
                assertFalse(Operation.validId(bad));
            }
            assertTrue(Operation.validId("3f0c8a62-9d7e-4c1b-8a55-0e4f2b1d9c77"));
            assertTrue(Operation.validId("op-" + "0123456789abcdef".repeat(2)));
            assertThrows(IllegalArgumentException.class, () -> s.begin("op-2", new Start("other", "crm__patch", "crm", null, null, null)));
        }
    }

    @Test
    void aReopenSweepsWhatThePreviousProcessLeftInFlight() throws Exception {
        try (OperationStore s = open()) {
            s.begin("op-flying", start("crm__patch"));
            s.begin("op-done", start("crm__patch"));
            s.settle("op-done", OperationState.DONE, result("x"));
            assertEquals(List.of(), s.sweptAtOpen());
        }
        try (OperationStore s = open()) {
            assertEquals(List.of("op-flying"), s.sweptAtOpen());
            assertEquals(OperationState.UNKNOWN, s.get("op-flying").orElseThrow().state());
            assertEquals(OperationState.DONE, s.get("op-done").orElseThrow().state());
            assertEquals(new Begin.Unknown(), s.begin("op-flying", start("crm__patch")));
            assertEquals(0, s.sweep());
        }
    }

    @Test
    void eachReconciliationWaitsInTheOutboxUntilRecorded() throws Exception {
        Clock at = Clock.fixed(Instant.parse("2026-12-02T12:00:00Z"), ZoneOffset.UTC);
        try (OperationStore s = open(at)) {
            assertEquals(List.of(), s.unrecorded());
            for (String id : List.of("op-1", "op-2")) {
                s.begin(id, start("crm__patch"));
                s.markUnknown(id);
            }
            s.reconcile("op-2", Outcome.DONE, false, "alice");
            s.reconcile("op-1", Outcome.NOT_APPLIED, false, "bob");
            List<OperationStore.Reconciliation> open = s.unrecorded();
            assertEquals(List.of("op-2", "op-1"), open.stream().map(OperationStore.Reconciliation::operationId).toList(), "oldest first");
            assertEquals(OperationState.DONE, open.get(0).state());
            assertEquals("alice", open.get(0).byWhom());
            assertEquals(Instant.parse("2026-12-02T12:00:00Z"), open.get(0).at());
            s.recorded(open.get(0).seq());
            assertEquals(List.of("op-1"), s.unrecorded().stream().map(OperationStore.Reconciliation::operationId).toList());
            s.recorded(open.get(1).seq());
            assertEquals(List.of(), s.unrecorded());
        }
    }
}
