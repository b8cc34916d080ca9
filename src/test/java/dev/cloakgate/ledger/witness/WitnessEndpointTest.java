package dev.cloakgate.ledger.witness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** {@code cloakgate.ledger.witnesses} entries: {@code <cosignature/v1 vkey>@<URL>}, refused with a message that says why. */
class WitnessEndpointTest {
    private static final String VKEY = "witness.example.com/w1+7e6f4aaa+BNdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea";

    @Test
    void readsKeyAndSubmissionPrefix() {
        WitnessEndpoint w = WitnessEndpoint.parse(VKEY + "@https://witness.example.com/w1/");
        assertEquals("witness.example.com/w1+7e6f4aaa", w.id());
        assertEquals("https://witness.example.com/w1/add-checkpoint", w.addCheckpoint().toString());
        assertEquals("http://127.0.0.1:8080/add-checkpoint", WitnessEndpoint.parse(VKEY + "@http://127.0.0.1:8080").addCheckpoint()
                .toString());
    }

    @Test
    void refusesWhatIsNotAWitness() {
        assertRefused(VKEY, "<verifier key>@<https URL");
        assertRefused(VKEY + "@http://witness.example.com/w1", "https (http only to a loopback address)");
        assertRefused(VKEY + "@https://user@witness.example.com/w1", "without user");
        assertRefused(VKEY + "@https://witness.example.com/w1?x=1", "without user, query");
        assertRefused("example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k@https://w.example",
                "type 0x04");
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> WitnessEndpoint.parseAll(
                List.of(VKEY + "@https://a.example", VKEY + "@https://b.example"), "cloakgate.ledger.witnesses"));
        assertTrue(twice.getMessage().startsWith("cloakgate.ledger.witnesses[1]: "), twice.getMessage());
    }

    private static void assertRefused(String spec, String says) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WitnessEndpoint.parse(spec));
        assertTrue(e.getMessage().contains(says), e.getMessage());
    }
}
