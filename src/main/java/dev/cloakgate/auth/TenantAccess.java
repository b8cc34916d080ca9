package dev.cloakgate.auth;

/**
 * The one question every surface of the gateway asks before it acts for a caller: which principal presents this
 * {@code Authorization} header to this tenant, and does it hold the role. A REST resource of the admin API asks it
 * with the tenant of its path and the role its operation needs, and writes {@link Access.Refused} as it is.
 */
public interface TenantAccess {
    /**
     * @param tenant the tenant named by the request's path
     * @param authorization the request's {@code Authorization} header, or null
     * @param role the role the operation needs
     */
    Access check(String tenant, String authorization, Role role);
}
