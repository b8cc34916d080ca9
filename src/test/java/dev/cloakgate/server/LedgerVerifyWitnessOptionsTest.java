package dev.cloakgate.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** {@code ledger verify --witness --min-witnesses}: options that cannot be meant are a usage error (exit 2) saying why. */
class LedgerVerifyWitnessOptionsTest {
    private static final String WITNESS = "witness.example.com/w1+7e6f4aaa+BNdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea";
    private static final String LOG_KEY = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k";

    private static String refused(String... options) {
        List<String> args = new ArrayList<>(List.of("ledger", "verify", "no-such-bundle.zip", "--trust-key",
                "530d903a=" + "00".repeat(32)));
        args.addAll(List.of(options));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = new LedgerVerifyCommand(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)).run(args.toArray(String[]::new));
        assertEquals(2, exit, err.toString(StandardCharsets.UTF_8));
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void witnessOptionsThatCannotBeMetAreUsageErrors() {
        assertTrue(refused("--min-witnesses", "1").contains("--min-witnesses 1 needs as many --witness keys (0 given)"));
        assertTrue(refused("--witness", WITNESS, "--min-witnesses", "2").contains("(1 given)"));
        assertTrue(refused("--witness", WITNESS, "--min-witnesses", "two").contains("a number of witnesses"));
        assertTrue(refused("--witness", WITNESS, "--witness", WITNESS).contains("given twice"));
        // a log's key (signed-note type 0x01) is not a witness's cosigning key
        assertTrue(refused("--witness", LOG_KEY).contains("type 0x01"));
        assertTrue(refused("--witness").contains("--witness needs a value"));
    }
}
