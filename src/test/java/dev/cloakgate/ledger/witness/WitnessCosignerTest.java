package dev.cloakgate.ledger.witness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.NoteSigner;
import dev.cloakgate.ledger.Ledger;
import dev.cloakgate.ledger.PostgresLedgerStore;
import dev.cloakgate.testing.PooledDataSource;
import dev.cloakgate.testing.TestPostgres;
import dev.cloakgate.testing.TestWitness;
import io.agroal.api.AgroalDataSource;

/**
 * The gateway's side of C2SP tlog-witness on a real ledger (SQLite, writer thread, checkpoints) and a real witness
 * ({@link TestWitness}) over HTTP, without booting the gateway: what is stored, what survives a restart, and that a
 * witness never holds the ledger up.
 */
class WitnessCosignerTest {
    @TempDir
    Path data;

    // issue 15, log identity: the ledger's keys derive from a master seed under the deployment's log identity
    private final dev.cloakgate.ledger.LedgerKeyring keyring = new dev.cloakgate.ledger.LedgerKeyring(
            Ed25519SigningKey.fromSeed(new byte[32]), java.util.Optional.empty(),
            dev.cloakgate.ledger.LogIdentity.configured("gw.example"));
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private <T extends AutoCloseable> T opened(T c) {
        open.add(c);
        return c;
    }

    private Ledger ledger(Witnessing w) {
        Ledger l = Ledger.open(data, "t", keyring);
        l.witnessWith(w.cosigner(l.store()));
        return l;
    }

    private Witnessing witnessing(String spec, Duration timeout) {
        return opened(new Witnessing(List.of(WitnessEndpoint.parse(spec)), timeout, Duration.ofMillis(100)));
    }

    private static void write(Ledger l, int n) {
        for (int i = 0; i < n; i++) {
            l.submit(JsonNodeFactory.instance.objectNode().put("kind", "test").put("i", i));
        }
        l.flush();
    }

    private static String latestNote(Ledger l) {
        return new String(l.store().latestCheckpoint().note(), StandardCharsets.UTF_8);
    }

    @Test
    void cosignaturesAreStoredWithTheCheckpointAndSurviveARestart() throws Exception {
        TestWitness witness = opened(TestWitness.start("witness.test/u"));
        Witnessing w = witnessing(witness.vkey() + "@" + witness.url(), Duration.ofSeconds(30));
        Ledger l = ledger(w);
        witness.trust(l.origin(), l.keys().checkpoint().verifier().encoded()); // before any checkpoint: the ledger is empty
        write(l, 5);
        long size = l.checkpointNow().size();
        assertTrue(l.awaitWitnesses(Duration.ofSeconds(60)));
        assertTrue(latestNote(l).contains("\n\u2014 witness.test/u "), latestNote(l));
        assertEquals(size, witness.size(l.origin()));
        l.close();

        // the cosigned note replays on the next start (a signature of an unknown key is skipped), and the witness's
        // size was kept: the next request carries a proof from it, which the witness checks
        Ledger again = ledger(w);
        opened(again);
        assertEquals(size, again.store().witnessState(WitnessEndpoint.parse(witness.vkey() + "@" + witness.url()).id()).size());
        write(again, 3);
        long next = again.checkpointNow().size();
        assertTrue(again.awaitWitnesses(Duration.ofSeconds(60)));
        assertEquals(next, witness.size(l.origin()));
        assertTrue(latestNote(again).contains("\n\u2014 witness.test/u "));
    }

    @Test
    void aCosignatureUnderAnotherKeyThanThePinnedOneIsNotKept() throws Exception {
        TestWitness witness = opened(TestWitness.start("witness.test/u"));
        Ledger l = opened(ledger(witnessing(TestWitness.otherVkey("witness.test/u") + "@" + witness.url(), Duration.ofSeconds(30))));
        witness.trust(l.origin(), l.keys().checkpoint().verifier().encoded());
        write(l, 3);
        l.checkpointNow();
        assertTrue(l.awaitWitnesses(Duration.ofSeconds(60)));
        assertEquals(3, witness.size(l.origin()), "the witness cosigned");
        assertFalse(latestNote(l).contains("witness.test/u"), "but not under the key the gateway pins");
    }

    @Test
    void aWitnessThatDoesNotKnowTheLogOrItsKeyGetsNothingStored() throws Exception {
        TestWitness unknownLog = opened(TestWitness.start("witness.test/u")); // 404: it trusts no log
        TestWitness otherKey = opened(TestWitness.start("witness.test/v")); // 403: it trusts another key for the origin
        Witnessing w = opened(new Witnessing(List.of(WitnessEndpoint.parse(unknownLog.vkey() + "@" + unknownLog.url()),
                WitnessEndpoint.parse(otherKey.vkey() + "@" + otherKey.url())), Duration.ofSeconds(30), Duration.ofMillis(100)));
        Ledger l = opened(ledger(w));
        otherKey.trust(l.origin(), new NoteSigner(l.origin(), Ed25519SigningKey.fromSeed(new byte[] {
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 }))
                .verifier().encoded());
        write(l, 2);
        l.checkpointNow();
        assertTrue(l.awaitWitnesses(Duration.ofSeconds(60)));
        assertFalse(latestNote(l).contains("witness.test/"), latestNote(l));
        write(l, 2); // the ledger goes on
        assertEquals(4, l.checkpointNow().size());
    }

    @Test
    void aCheckpointTheWitnessFindsInconsistentIsNotCosignedAndTheLedgerGoesOn() throws Exception {
        TestWitness witness = opened(TestWitness.start("witness.test/u"));
        Ledger l = opened(ledger(witnessing(witness.vkey() + "@" + witness.url(), Duration.ofSeconds(30))));
        witness.trust(l.origin(), l.keys().checkpoint().verifier().encoded());
        write(l, 3);
        l.checkpointNow();
        assertTrue(l.awaitWitnesses(Duration.ofSeconds(60)));
        assertEquals(3, witness.size(l.origin()));
        witness.corrupt(l.origin()); // it holds another root at size 3: the proof from there fails, a 422
        write(l, 2);
        l.checkpointNow();
        assertTrue(l.awaitWitnesses(Duration.ofSeconds(60)));
        assertEquals(3, witness.size(l.origin()), "the witness did not move");
        assertFalse(latestNote(l).contains("witness.test/u"), latestNote(l));
        write(l, 1);
        assertEquals(6, l.checkpointNow().size());
    }

    @Test
    void aWitnessThatNeverAnswersDoesNotHoldTheLedgerUp() throws Exception {
        // accepts connections and never answers: each request waits for the (long) timeout
        ServerSocket silent = opened(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
        List<Socket> held = new ArrayList<>();
        Thread acceptor = new Thread(() -> {
            try {
                while (true) {
                    held.add(silent.accept());
                }
            } catch (IOException stopped) {
                // closed at the end of the test
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
        String vkey = TestWitness.otherVkey("witness.test/silent");
        Witnessing w = witnessing(vkey + "@http://127.0.0.1:" + silent.getLocalPort() + "/w", Duration.ofMinutes(5));
        Ledger l = ledger(w);
        // with the witness hanging, writing, checkpointing and closing all finish (generous bound: a blocked writer
        // would wait the five-minute timeout)
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (int round = 0; round < 3; round++) {
                write(l, 10);
                assertNotNull(l.checkpointNow());
            }
            assertFalse(l.awaitWitnesses(Duration.ofMillis(200)), "the witness is still being waited for");
            l.close();
        });
        assertEquals(30, l.size());
    }

    /**
     * Issue 17: witness cosigning on a PostgreSQL log two replicas share. Each replica sends the checkpoints it signs;
     * the witness cosigns each as an extension of the last (whichever replica sent that), and the cosignature lands in
     * the shared checkpoint note, where an export from either replica finds it.
     */
    @Test
    void eachReplicasCheckpointIsCosignedAndTheCosignatureIsShared() throws Exception {
        AgroalDataSource db = opened(PooledDataSource.of(TestPostgres.server().database("shared_witness").migrated(), 8));
        TestWitness witness = opened(TestWitness.start("witness.test/u"));
        List<Ledger> replicas = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            Witnessing w = opened(new Witnessing(List.of(WitnessEndpoint.parse(witness.vkey() + "@" + witness.url())),
                    Duration.ofSeconds(30), Duration.ofMillis(100)));
            Ledger l = opened(Ledger.open(PostgresLedgerStore.open(db, "t", java.time.Clock.systemUTC()), keyring,
                    Ledger.Settings.defaults()));
            l.witnessWith(w.cosigner(l.store()));
            replicas.add(l);
        }
        Ledger r0 = replicas.get(0);
        Ledger r1 = replicas.get(1);
        witness.trust(r0.origin(), r0.keys().checkpoint().verifier().encoded());

        write(r0, 5);
        assertEquals(5, r0.checkpointNow().size());
        assertTrue(r0.awaitWitnesses(Duration.ofSeconds(60)));
        assertEquals(5, witness.size(r0.origin()));

        write(r1, 3);
        assertEquals(8, r1.checkpointNow().size(), "r1's checkpoint covers r0's entries too");
        assertTrue(r1.awaitWitnesses(Duration.ofSeconds(60)));
        assertEquals(8, witness.size(r0.origin()), "the witness took r1's checkpoint as an extension of r0's");
        for (Ledger l : replicas) {
            String note = new String(l.store().checkpoints(8, 8).get(0).note(), StandardCharsets.UTF_8);
            assertTrue(note.contains("\n\u2014 witness.test/u "), note);
            assertTrue(new String(l.store().checkpoints(5, 5).get(0).note(), StandardCharsets.UTF_8)
                    .contains("\n\u2014 witness.test/u "));
        }
    }
}
