package dev.cloakgate.tenant;

import java.time.Instant;

/**
 * Where one tenant's configuration stands, for operators (the admin API's tenant status): the file serving now,
 * and the last file that was refused. Names, digests, JSON paths and times only: never a value from the file.
 *
 * @param file the tenant file as the gateway reads it ({@code {tenants-dir}/{tenant}.json})
 * @param digest SHA-256 of the bytes of the configuration serving new sessions; null when none was ever accepted
 * @param loadedAt when that configuration was accepted (at start or by a reload); null when none was
 * @param lastRejected the last version of the file that was refused (the previous configuration kept serving);
 *        null when none was
 * @param fileRejected true while the file on disk is the refused one (the serving configuration is older than it)
 * @param acceptingSessions false once the file was removed (existing sessions go on until they end), or when no
 *        version of it was ever accepted
 * @param removedAt when the file was removed; null while it is there
 */
public record TenantStatus(String tenant, String file, String digest, Instant loadedAt, Rejection lastRejected,
        boolean fileRejected, boolean acceptingSessions, Instant removedAt) {

    /**
     * A version of the tenant file that was refused.
     *
     * @param path the JSON path of what is wrong ({@code $.policy.budget.tool_calls}), {@code $} for the whole file
     * @param message what is wrong and how to fix it, with quoted values removed
     * @param digest SHA-256 of the refused bytes (to tell versions apart), null when the file could not be read
     */
    public record Rejection(String file, String path, String message, String digest, Instant at) {
    }

    static TenantStatus loaded(String tenant, String file, String digest, Instant at) {
        return new TenantStatus(tenant, file, digest, at, null, false, true, null);
    }

    /** A tenant file seen for the first time by a reload, before it is judged. */
    static TenantStatus unseen(String tenant, String file) {
        return new TenantStatus(tenant, file, null, null, null, false, false, null);
    }

    TenantStatus accepted(String file, String digest, Instant at) {
        return new TenantStatus(tenant, file, digest, at, lastRejected, false, true, null);
    }

    TenantStatus rejected(Rejection r) {
        return new TenantStatus(tenant, file, digest, loadedAt, r, true, acceptingSessions, removedAt);
    }

    /** The file is back to the version serving (after a refused edit was undone). */
    TenantStatus unchanged() {
        return new TenantStatus(tenant, file, digest, loadedAt, lastRejected, false, acceptingSessions, removedAt);
    }

    TenantStatus removed(Instant at) {
        return new TenantStatus(tenant, file, digest, loadedAt, lastRejected, false, false, at);
    }
}
