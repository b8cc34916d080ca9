package dev.cloakgate.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.Test;

class CheckpointTest {

    private static byte[] root(int fill) {
        byte[] root = new byte[32];
        Arrays.fill(root, (byte) fill);
        return root;
    }

    /** The example body of the C2SP tlog-checkpoint spec. */
    @Test
    void parsesTheSpecExample() {
        String text = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n";
        Checkpoint checkpoint = assertInstanceOf(Checkpoint.Parse.Ok.class, Checkpoint.parse(text)).checkpoint();
        assertEquals("example.com/behind-the-sofa", checkpoint.origin());
        assertEquals(20852163L, checkpoint.size());
        assertArrayEquals(Base64.getDecoder().decode("CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I="), checkpoint.rootHash());
        assertEquals(text, checkpoint.text());
    }

    @Test
    void buildsAndReadsBackWithExtensions() {
        Checkpoint checkpoint = new Checkpoint("cloakgate.example/tenant-a", 0, root(7), List.of("ext one", "— two"));
        String text = checkpoint.text();
        assertEquals("cloakgate.example/tenant-a\n0\n" + Base64.getEncoder().encodeToString(root(7))
                + "\next one\n— two\n", text);
        assertEquals(checkpoint, assertInstanceOf(Checkpoint.Parse.Ok.class, Checkpoint.parse(text)).checkpoint());
    }

    @Test
    void reportsEveryReasonAMalformedBodyIsRefused() {
        String r = Base64.getEncoder().encodeToString(root(1));
        var malformed = assertInstanceOf(Checkpoint.Parse.Malformed.class, Checkpoint.parse("\n007\nAAAA\n\n"));
        assertEquals(4, malformed.reasons().size(), malformed.reasons().toString());
        for (String bad : new String[] {
            "o\n1\n" + r, // no final newline
            "o\n1\n", // two lines
            "o\n-1\n" + r + "\n",
            "o\n+1\n" + r + "\n",
            "o\n01\n" + r + "\n",
            "o\n1 \n" + r + "\n",
            "o\n99999999999999999999\n" + r + "\n",
            "o\n1\n" + r.replace("=", "") + "\n", // unpadded
            "o\n1\n" + Base64.getEncoder().encodeToString(new byte[31]) + "\n",
            "o\n1\n" + r + "\n\n", // empty extension line
        }) {
            assertInstanceOf(Checkpoint.Parse.Malformed.class, Checkpoint.parse(bad), bad);
        }
    }

    @Test
    void refusesToBuildWhatCannotBeRead() {
        assertThrows(IllegalArgumentException.class, () -> new Checkpoint("", 1, root(1)));
        assertThrows(IllegalArgumentException.class, () -> new Checkpoint("a\nb", 1, root(1)));
        assertThrows(IllegalArgumentException.class, () -> new Checkpoint("o", -1, root(1)));
        assertThrows(IllegalArgumentException.class, () -> new Checkpoint("o", 1, new byte[20]));
        assertThrows(IllegalArgumentException.class, () -> new Checkpoint("o", 1, root(1), List.of("")));
    }

    /** A checkpoint is a signed note: signing, verifying and tampering end to end. */
    @Test
    void signedCheckpointRoundTripAndTamper() {
        byte[] seed = new byte[32];
        Arrays.fill(seed, (byte) 9);
        NoteSigner log = new NoteSigner("cloakgate.example/tenant-a", Ed25519SigningKey.fromSeed(seed));
        Checkpoint checkpoint = new Checkpoint(log.name(), 42, root(3));
        String note = SignedNote.sign(checkpoint.text(), List.of(log));

        var verified = assertInstanceOf(NoteVerification.Verified.class,
                SignedNote.open(note.getBytes(StandardCharsets.UTF_8), List.of(log.verifier())));
        assertEquals(checkpoint, assertInstanceOf(Checkpoint.Parse.Ok.class, Checkpoint.parse(verified.text())).checkpoint());
        // the key ID travels in the signature line
        String blob = note.substring(note.lastIndexOf(' ') + 1).trim();
        assertArrayEquals(log.keyId().bytes(), Arrays.copyOf(Base64.getDecoder().decode(blob), 4));

        String grown = note.replaceFirst("\n42\n", "\n43\n");
        var rejected = assertInstanceOf(NoteVerification.Rejected.class,
                SignedNote.open(grown.getBytes(StandardCharsets.UTF_8), List.of(log.verifier())));
        assertEquals(NoteVerification.Kind.BAD_SIGNATURE, rejected.problems().get(0).kind());
    }
}
