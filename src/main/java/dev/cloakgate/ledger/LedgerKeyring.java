package dev.cloakgate.ledger;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.NoteSigner;

/**
 * What every tenant's ledger signs with: the configured master seed (each log's keys are derived from it,
 * {@link LogKeys}), the deployment's {@link LogIdentity}, and optionally the previous master seed, kept for one
 * start after a rotation so the old key can endorse the new one ({@link KeyRotation}).
 *
 * <p>No {@code toString} here holds key material.
 */
public record LedgerKeyring(Ed25519SigningKey master, Optional<Ed25519SigningKey> previous, LogIdentity identity) {

    public LedgerKeyring {
        Objects.requireNonNull(master, "master");
        Objects.requireNonNull(previous, "previous");
        Objects.requireNonNull(identity, "identity");
    }

    public LogKeys keys(String origin) {
        return LogKeys.derive(master, origin);
    }

    /**
     * The keys this gateway holds that may have signed a log's earlier checkpoints: the master under the legacy
     * single name, and the previous master's checkpoint key for this origin and its legacy form.
     */
    List<NoteSigner> predecessors(String origin) {
        List<NoteSigner> out = new ArrayList<>();
        out.add(LogKeys.legacy(master));
        previous.ifPresent(p -> {
            out.add(LogKeys.derive(p, origin).checkpoint());
            out.add(LogKeys.legacy(p));
        });
        return out;
    }

    @Override
    public String toString() {
        return "LedgerKeyring[master " + master.publicKey() + (previous.isPresent() ? ", with previous key" : "")
                + ", " + identity.value() + "]";
    }
}
