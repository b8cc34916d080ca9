package dev.cloakgate.cluster;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Cluster mode: this replica's id, the shared key and where each peer replica is reached. Read once at start
 * (and by {@code --check}); every setting that cannot work is refused with a stable code naming the key to fix.
 *
 * @param peers explicit {@code replica -> base URL} (from {@code cloakgate.cluster.peers}); empty when a template is used
 * @param template {@code cloakgate.cluster.peer-url} with {@code {replica}}, or null when explicit peers are given
 */
public record ClusterSettings(String replicaId, ClusterKey key, Map<String, URI> peers, String template) {
    /** A DNS label, as Kubernetes names a StatefulSet's pods (and so the peers' host names). */
    public static final Pattern REPLICA_ID = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
    static final String PLACEHOLDER = "{replica}";

    /**
     * The cluster settings, or empty when no replica id is set (one process, session ids as before).
     *
     * @param peers {@code r0=http://host:port,r1=...}; wins over {@code peerUrl}
     */
    public static Optional<ClusterSettings> of(Optional<String> replicaId, Optional<String> keyFile,
            Optional<String> peerUrl, Optional<String> peers) {
        if (replicaId.isEmpty() || replicaId.get().isBlank()) {
            return Optional.empty();
        }
        String self = replicaId.get().strip();
        if (!REPLICA_ID.matcher(self).matches()) {
            throw new ClusterSetupException("cluster_replica_id_invalid", "cloakgate.cluster.replica-id must be a DNS "
                    + "label (lower-case letters, digits and '-', at most 63, not starting or ending with '-'), as a "
                    + "StatefulSet names its pods");
        }
        ClusterKey key = ClusterKey.read(keyFile);
        if (peers.isPresent() && !peers.get().isBlank()) {
            Map<String, URI> map = parsePeers(peers.get());
            if (!map.containsKey(self)) {
                throw new ClusterSetupException("cluster_peers_invalid", "cloakgate.cluster.peers does not name this "
                        + "replica (" + self + "); list every replica, this one included");
            }
            return Optional.of(new ClusterSettings(self, key, Map.copyOf(map), null));
        }
        if (peerUrl.isEmpty() || peerUrl.get().isBlank()) {
            throw new ClusterSetupException("cluster_peers_missing", "cluster mode needs to know where the other "
                    + "replicas are: set cloakgate.cluster.peer-url (a template with {replica}, e.g. "
                    + "http://{replica}.cloakgate-peers.<namespace>.svc.cluster.local:8080) or cloakgate.cluster.peers "
                    + "(r0=http://host:port,r1=...)");
        }
        String template = peerUrl.get().strip();
        if (!template.contains(PLACEHOLDER)) {
            throw new ClusterSetupException("cluster_peer_url_invalid", "cloakgate.cluster.peer-url must contain "
                    + PLACEHOLDER + " where a replica's id goes");
        }
        baseUrl(template.replace(PLACEHOLDER, self), "cloakgate.cluster.peer-url", "cluster_peer_url_invalid");
        return Optional.of(new ClusterSettings(self, key, Map.of(), template));
    }

    private static Map<String, URI> parsePeers(String text) {
        Map<String, URI> map = new LinkedHashMap<>();
        for (String entry : text.split(",")) {
            String e = entry.strip();
            int eq = e.indexOf('=');
            String id = eq < 0 ? "" : e.substring(0, eq).strip();
            if (!REPLICA_ID.matcher(id).matches()) {
                throw new ClusterSetupException("cluster_peers_invalid", "cloakgate.cluster.peers must be a comma-"
                        + "separated list of <replica-id>=<base URL> with DNS-label replica ids; entry " + (map.size() + 1)
                        + " is not");
            }
            if (map.containsKey(id)) {
                throw new ClusterSetupException("cluster_peers_invalid", "cloakgate.cluster.peers names replica " + id
                        + " twice");
            }
            map.put(id, baseUrl(e.substring(eq + 1).strip(), "cloakgate.cluster.peers (replica " + id + ")",
                    "cluster_peers_invalid"));
        }
        return map;
    }

    /** An http(s) base URL with a host and no query or fragment, without a trailing slash. */
    private static URI baseUrl(String text, String where, String code) {
        URI u;
        try {
            u = new URI(text);
        } catch (URISyntaxException e) {
            u = null;
        }
        // no path: a forward is signed over the path it is sent to, which is the path the owner receives
        if (u == null || u.getHost() == null || u.getRawQuery() != null || u.getRawFragment() != null
                || !(u.getRawPath() == null || u.getRawPath().isEmpty() || "/".equals(u.getRawPath()))
                || !("http".equals(u.getScheme()) || "https".equals(u.getScheme()))) {
            throw new ClusterSetupException(code, where + " must be an http(s) base URL with a host and no path, e.g. "
                    + "http://10.0.0.5:8080");
        }
        String s = u.toString();
        return URI.create(s.endsWith("/") ? s.substring(0, s.length() - 1) : s);
    }

    /** The base URL of replica {@code id}, or empty when it is not in the peer set. */
    public Optional<URI> peer(String id) {
        if (template == null) {
            return Optional.ofNullable(peers.get(id));
        }
        if (!REPLICA_ID.matcher(id).matches()) {
            return Optional.empty();
        }
        return Optional.of(baseUrl(template.replace(PLACEHOLDER, id), "peer", "cluster_peer_url_invalid"));
    }

    @Override
    public String toString() {
        return "ClusterSettings[" + replicaId + ", peers " + (template == null ? peers.keySet() : template) + "]";
    }
}
