package dev.cloakgate.cloak.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.cloakgate.cloak.Finding;

/** An AWS secret access key written beside its access key id is the other half of one credential. */
class AwsKeyPairTest {
    private static final String ID = "AKIAZ7QW3ERT5YUI9OPL";
    private static final String SECRET = "q8Vn2Lr+T0zXbKc4/YhWm1sPdE7uFgJa9iRo3NlC";

    private static List<String> found(String text) {
        List<Finding> out = new ArrayList<>();
        new SecretDetector().detect(text, out);
        List<String> values = new ArrayList<>();
        for (Finding f : out) {
            values.add(text.substring(f.start(), f.end()));
        }
        return values;
    }

    @Test
    void theSecretBesideItsIdIsFoundInTheShapesAPairIsWritten() {
        assertEquals(List.of(ID, SECRET), found("Access key ID: " + ID + "\nSecret access key: " + SECRET));
        assertEquals(List.of(ID, SECRET), found("user,access_key_id,secret\nci-bot," + ID + "," + SECRET));
        assertEquals(List.of(ID, SECRET), found("creds " + ID + " / " + SECRET + " rotate monthly"));
        assertEquals(List.of(ID, SECRET), found(SECRET + " (paired with " + ID + ")").stream().sorted().toList());
    }

    @Test
    void onlyAWholeFortyCharacterRunWithMixedCaseAndDigitsNearAnIdCounts() {
        // no id: a 40-character run alone is not claimed by this rule
        assertEquals(List.of(), found("blob " + SECRET));
        // a git commit hash (lower-case hex) beside an id is not a secret key
        assertEquals(List.of(ID), found(ID + " rotated in commit 3f9d2c1b7a6e5d4c3b2a1f0e9d8c7b6a5f4e3d2c"));
        // a longer base64 run (41 characters, or padded) is something else
        assertEquals(List.of(ID), found(ID + " " + SECRET + "x"));
        assertEquals(List.of(ID), found(ID + " " + SECRET.substring(1) + "="));
        // AWS's documented placeholder pair is inert
        assertEquals(List.of(), found("AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"));
        // out of reach: far from the id
        assertEquals(List.of(ID), found(ID + " " + "-".repeat(200) + " " + SECRET));
    }
}
