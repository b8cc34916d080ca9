package dev.cloakgate.server.admin;

import jakarta.ws.rs.core.Application;

import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;

/**
 * The admin API of a running gateway, per tenant under {@code /admin/t/{tenant}/}: each endpoint asks for one role
 * of the tenant's {@code auth} block (operator, approver, auditor). Its OpenAPI document is served on the management
 * interface ({@code /q/openapi}), beside health and metrics.
 */
@OpenAPIDefinition(info = @Info(title = "cloakgate admin API", version = "1", description = "Per tenant: tenant status,"
        + " sessions, tool pins, the action gate's operations and sessions' task contexts (operator), approval receipts"
        + " (approver) and the ledger export (auditor). Every request sends"
        + " `Authorization: Bearer <token or JWT of a principal of the tenant>`; refusals are"
        + " `{\"error\": code, \"message\": what to fix}`."))
@SecurityScheme(securitySchemeName = AdminApi.BEARER, type = SecuritySchemeType.HTTP, scheme = "bearer",
        description = "a static token of the tenant's auth block, or a JWT of one of its issuers")
public class AdminApi extends Application {
    static final String BEARER = "bearer";
}
