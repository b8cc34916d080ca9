package dev.cloakgate.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterSettingsTest {
    @TempDir
    Path dir;

    private Optional<String> key() throws Exception {
        Path f = dir.resolve("k");
        Files.writeString(f, Base64.getEncoder().encodeToString(ClusterKeyTest.raw()));
        return Optional.of(f.toString());
    }

    private String code(String id, Optional<String> key, String template, String peers) {
        return assertThrows(ClusterSetupException.class, () -> ClusterSettings.of(Optional.ofNullable(id), key,
                Optional.ofNullable(template), Optional.ofNullable(peers))).code();
    }

    @Test
    void noReplicaIdIsOneProcess() throws Exception {
        assertTrue(ClusterSettings.of(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()).isEmpty());
    }

    @Test
    void explicitPeersWinOverTheTemplate() throws Exception {
        ClusterSettings c = ClusterSettings.of(Optional.of("r1"), key(), Optional.of("http://{replica}.x:8080"),
                Optional.of("r0=http://127.0.0.1:8081, r1=http://127.0.0.1:8082/")).orElseThrow();
        assertEquals(Optional.of(URI.create("http://127.0.0.1:8081")), c.peer("r0"));
        assertEquals(Optional.of(URI.create("http://127.0.0.1:8082")), c.peer("r1"));
        assertEquals(Optional.empty(), c.peer("r9"), "not in the peer set");
    }

    @Test
    void theTemplateNamesEveryReplicaByItsId() throws Exception {
        ClusterSettings c = ClusterSettings.of(Optional.of("cloakgate-0"), key(),
                Optional.of("http://{replica}.cloakgate-peers.team-a.svc.cluster.local:8080"), Optional.empty()).orElseThrow();
        assertEquals(Optional.of(URI.create("http://cloakgate-2.cloakgate-peers.team-a.svc.cluster.local:8080")),
                c.peer("cloakgate-2"));
    }

    @Test
    void whatCannotWorkIsRefusedWithAStableCode() throws Exception {
        Optional<String> key = key();
        assertEquals("cluster_replica_id_invalid", code("R0", key, null, "R0=http://a:1"));
        assertEquals("cluster_replica_id_invalid", code("-r0", key, null, null));
        assertEquals("cluster_replica_id_invalid", code("a".repeat(64), key, null, null));
        assertEquals("cluster_key_missing", code("r0", Optional.empty(), "http://{replica}:8080", null));
        assertEquals("cluster_peers_missing", code("r0", key, null, null));
        assertEquals("cluster_peer_url_invalid", code("r0", key, "http://cloakgate:8080", null));
        assertEquals("cluster_peer_url_invalid", code("r0", key, "ftp://{replica}:8080", null));
        assertEquals("cluster_peer_url_invalid", code("r0", key, "http://{replica}:8080/base", null));
        assertEquals("cluster_peers_invalid", code("r0", key, null, "r1=http://a:1"));
        assertEquals("cluster_peers_invalid", code("r0", key, null, "r0=http://a:1,r0=http://b:1"));
        assertEquals("cluster_peers_invalid", code("r0", key, null, "r0=http://a:1,r1"));
        assertEquals("cluster_peers_invalid", code("r0", key, null, "r0=http://a:1,r1=a:1"));
        assertEquals("cluster_peers_invalid", code("r0", key, null, "r0=http://a:1?x=1"));
    }
}
