package dev.cloakgate.tenant;

import java.util.List;

/**
 * The tenant's {@code ledger} block: who may export its evidence. Auditors hold bearer tokens of their own,
 * separate from agents and operators; the file keeps only each token's SHA-256 (a token is random and long, so
 * its hash is safe to store, unlike a hash of personal data), so reading the file does not give the credential.
 *
 * @param auditorTokenSha256 lower-case hex SHA-256 of each auditor token; empty means nobody may export
 */
public record LedgerSettings(List<String> auditorTokenSha256) {
    public LedgerSettings {
        auditorTokenSha256 = List.copyOf(auditorTokenSha256);
    }

    public static LedgerSettings none() {
        return new LedgerSettings(List.of());
    }
}
