package dev.cloakgate.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 15: the log identity, configured or generated once, and the origins it gives. */
class LogIdentityTest {
    @TempDir
    Path data;

    @Test
    void aConfiguredIdentityGivesEachTenantItsOrigin() {
        for (String ok : List.of("gateway.acme.example", "acme.example/cloakgate-prod", "localhost", "a-1.b.example/x/y_z.~")) {
            LogIdentity id = LogIdentity.resolve(Optional.of(ok), data);
            assertEquals(ok, id.value());
            assertFalse(id.generated());
            assertEquals(ok + "/ledger/demo", id.origin("demo"));
        }
        assertFalse(Files.exists(LogIdentity.generatedFile(data)), "a configured identity generates nothing");
    }

    @Test
    void anIdentityThatIsNotURLLikeIsRefusedWithAStableCodeAndWhatToGive() {
        for (String bad : List.of("https://gateway.acme.example", "Gateway.Acme.Example", "gateway.acme.example/",
                "acme.example//x", "acme.example/../x", "acme .example", "acme+x.example", "-acme.example", "acme..example",
                "acme.example/a b", "x".repeat(201))) {
            SigningKeyException e = assertThrows(SigningKeyException.class, () -> LogIdentity.configured(bad), bad);
            assertTrue(e.getMessage().startsWith("invalid_log_identity: cloakgate.ledger.log-identity is not a log identity ("),
                    e.getMessage());
            assertTrue(e.getMessage().contains("gateway.acme.example"), "an example of what to give: " + e.getMessage());
        }
    }

    @Test
    void unsetItIsGeneratedOnceUnderTheDataDirAsAnInvalidHost() throws Exception {
        LogIdentity first = LogIdentity.resolve(Optional.empty(), data);
        assertTrue(first.generated());
        assertTrue(first.value().matches("[0-9a-f]{16}\\.cloakgate\\.invalid"), first.value());
        assertEquals(first.value(), Files.readString(LogIdentity.generatedFile(data)).strip());
        assertEquals(first, LogIdentity.resolve(Optional.empty(), data), "kept, not generated again");
        assertEquals(first, LogIdentity.resolve(Optional.of("  "), data), "blank is unset");
        Files.writeString(LogIdentity.generatedFile(data), "NOT AN IDENTITY\n");
        SigningKeyException e = assertThrows(SigningKeyException.class, () -> LogIdentity.resolve(Optional.empty(), data));
        assertTrue(e.getMessage().startsWith("invalid_log_identity: "), e.getMessage());
    }
}
