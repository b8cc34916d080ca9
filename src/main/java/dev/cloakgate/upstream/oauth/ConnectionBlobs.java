package dev.cloakgate.upstream.oauth;

import java.io.IOException;
import java.util.Optional;

/**
 * Where {@link TokenStore} keeps each upstream's sealed connection: files under the data dir
 * ({@link FileConnectionBlobs}, one process) or a table the replicas share ({@link PostgresConnectionBlobs}, issue 17:
 * a connection made through one replica serves the sessions of every replica). The blobs are already encrypted and
 * bound to their tenant and upstream; this layer only stores bytes.
 */
public interface ConnectionBlobs {
    /** The blob of this tenant's upstream, empty when none is stored. */
    Optional<byte[]> read(String tenant, String upstream) throws IOException;

    /** Replaces the blob whole (a reader sees the old one or the new one). */
    void write(String tenant, String upstream, byte[] blob) throws IOException;

    void delete(String tenant, String upstream) throws IOException;
}
