package dev.cloakgate.ledger;

/**
 * Which checkpoint origin a tenant's ledger has. A log's origin never changes: it is fixed when the ledger is
 * created ({@code <log identity>/ledger/<tenant>}) and stored with it. A ledger with entries but no stored origin
 * was created before log identities and keeps {@code cloakgate/ledger/<tenant>}. A stored origin the configured
 * identity contradicts refuses the start ({@value #MISMATCH}): signing on under another name would split one log in
 * two, and switching silently would hide that the identity changed.
 *
 * @param legacy the ledger predates log identities
 */
public record LedgerOrigin(String origin, boolean legacy) {
    public static final String MISMATCH = "ledger_origin_mismatch";

    /**
     * @param stored the origin stored with the ledger, null when none (or no ledger yet)
     * @param hasEntries whether the ledger holds entries
     * @throws LedgerStoreException ({@value #MISMATCH}) when the identity contradicts the stored origin
     */
    public static LedgerOrigin resolve(String tenant, String stored, boolean hasEntries, LogIdentity identity) {
        String expected = identity.origin(tenant);
        if (stored == null) {
            return hasEntries ? new LedgerOrigin(LogIdentity.legacyOrigin(tenant), true) : new LedgerOrigin(expected, false);
        }
        if (stored.equals(LogIdentity.legacyOrigin(tenant))) {
            return new LedgerOrigin(stored, true);
        }
        if (!stored.equals(expected)) {
            String storedIdentity = stored.endsWith("/ledger/" + tenant)
                    ? stored.substring(0, stored.length() - ("/ledger/" + tenant).length()) : stored;
            throw new LedgerStoreException(MISMATCH + ": the ledger of tenant '" + tenant + "' has origin " + stored
                    + " but the log identity is " + identity.value() + (identity.generated() ? " (generated, "
                    + LogIdentity.generatedFile(java.nio.file.Path.of("{data-dir}")) + ")" : "") + "; a log's origin never"
                    + " changes: set " + LogIdentity.PROPERTY + "=" + storedIdentity + " to continue this ledger, or move"
                    + " the ledger aside to start a new one");
        }
        return new LedgerOrigin(stored, false);
    }
}
