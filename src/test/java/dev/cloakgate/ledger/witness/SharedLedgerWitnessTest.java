package dev.cloakgate.ledger.witness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.ledger.Ledger;
import dev.cloakgate.ledger.LedgerKeyring;
import dev.cloakgate.ledger.LogIdentity;
import dev.cloakgate.ledger.PostgresLedgerStore;
import dev.cloakgate.testing.PooledDataSource;
import dev.cloakgate.testing.TestPostgres;
import dev.cloakgate.testing.TestWitness;
import io.agroal.api.AgroalDataSource;

/**
 * Issue 17: witness cosigning on a log two replicas share. Each replica sends the checkpoints it signs; the witness
 * cosigns each as an extension of the last (whichever replica sent that), and the cosignature lands in the shared
 * checkpoint note, where an export from either replica finds it.
 */
class SharedLedgerWitnessTest {
    private final LedgerKeyring keyring = new LedgerKeyring(Ed25519SigningKey.fromSeed(new byte[32]), java.util.Optional.empty(),
            LogIdentity.configured("gw.example"));
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

    private static void write(Ledger l, int n) {
        for (int i = 0; i < n; i++) {
            l.submit(JsonNodeFactory.instance.objectNode().put("kind", "test").put("i", i));
        }
        l.flush();
    }

    @Test
    void eachReplicasCheckpointIsCosignedAndTheCosignatureIsShared() throws Exception {
        AgroalDataSource db = opened(PooledDataSource.of(TestPostgres.server().database("shared_witness"), 8));
        Flyway.configure().dataSource(db).locations("classpath:db/migration").load().migrate();
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
