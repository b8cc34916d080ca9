package dev.cloakgate.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Base64;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

class SessionIdCodecTest {
    private final SessionIdCodec codec = new SessionIdCodec(ClusterKey.of(ClusterKeyTest.raw()));

    @Test
    void anIdOpensToItsOwnerForItsTenantAndRevealsNothing() {
        String id = codec.issue("team-a", "cloakgate-2");
        assertEquals(Optional.of("cloakgate-2"), codec.owner("team-a", id));
        assertFalse(id.contains("cloakgate-2"));
        assertFalse(new String(Base64.getUrlDecoder().decode(id.substring(3)), java.nio.charset.StandardCharsets.ISO_8859_1)
                .contains("cloakgate-2"), "the owner is encrypted, not encoded");
        // MCP: visible ASCII only
        assertTrue(id.chars().allMatch(c -> c >= 0x21 && c <= 0x7e), id);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            assertTrue(seen.add(codec.issue("team-a", "r0")));
        }
        assertEquals(Optional.of("a".repeat(63)), codec.owner("t", codec.issue("t", "a".repeat(63))));
    }

    @Test
    void anotherTenantsIdIsNoIdHere() {
        String id = codec.issue("team-a", "r0");
        assertEquals(Optional.empty(), codec.owner("team-b", id));
    }

    @Test
    void everyAlteredTruncatedOrExtendedIdIsRefused() {
        String id = codec.issue("team-a", "r1");
        byte[] raw = Base64.getUrlDecoder().decode(id.substring(3));
        for (int i = 0; i < raw.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] t = raw.clone();
                t[i] ^= (byte) (1 << bit);
                assertEquals(Optional.empty(), codec.owner("team-a", "c1." + Base64.getUrlEncoder().withoutPadding()
                        .encodeToString(t)), "byte " + i + " bit " + bit);
            }
        }
        for (int n = 0; n < id.length(); n++) {
            assertEquals(Optional.empty(), codec.owner("team-a", id.substring(0, n)), "truncated to " + n);
        }
        assertEquals(Optional.empty(), codec.owner("team-a", id + "A"));
        assertEquals(Optional.empty(), codec.owner("team-a", id.replace("c1.", "c2.")));
        assertEquals(Optional.empty(), codec.owner("team-a", "0123456789abcdef0123456789abcdef"));
        assertEquals(Optional.empty(), codec.owner("team-a", null));
        assertEquals(Optional.empty(), codec.owner("team-a", "c1." + "A".repeat(5000)));
    }

    @Test
    void anIdOfAnotherClusterKeyIsRefused() {
        byte[] other = ClusterKeyTest.raw();
        other[0] ^= 1;
        String foreign = new SessionIdCodec(ClusterKey.of(other)).issue("team-a", "r0");
        assertEquals(Optional.empty(), codec.owner("team-a", foreign));
        assertNotEquals(codec.issue("team-a", "r0"), foreign);
    }
}
