package dev.cloakgate.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.cloakgate.testing.AdminHttp;
import dev.cloakgate.testing.AdminHttp.Answer;
import dev.cloakgate.testing.AuthTenants;
import dev.cloakgate.testing.Upstreams;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 15: every admin endpoint asks for the credential before it says anything about the tenant. A caller without
 * a valid credential of the tenant gets the same 401 (status, code, message, challenge) whether the tenant exists
 * with auditors, exists without any, or does not exist at all; only a principal of the tenant learns more.
 */
@QuarkusTest
@WithTestResource(Upstreams.class)
class AdminCredentialFirstTest {
    /** Every admin endpoint: method and path under {@code /admin/t/{tenant}/}. */
    private static final String[][] ENDPOINTS = { { "GET", "status" }, { "GET", "sessions" },
            { "DELETE", "sessions/0011223344556677" }, { "PUT", "sessions/0011223344556677/task-context" },
            { "GET", "pins" }, { "GET", "pins/pending" }, { "POST", "pins/accept" }, { "GET", "ledger/export" },
            { "POST", "approvals" }, { "GET", "operations" }, { "POST", "operations/op-1/reconcile" },
            // issue 16: an upstream's OAuth connection
            { "GET", "upstreams/crm/oauth" }, { "POST", "upstreams/crm/oauth/connect" }, { "DELETE", "upstreams/crm/oauth" } };
    /** A tenant with an auditor and an operator, one with an operator and no auditor, and none at all. */
    private static final List<String> TENANTS = List.of("fs", "no-auditor", "no-such-tenant-3c1e");

    @TestHTTPResource("/admin/t/")
    URI admin;

    private Answer send(String method, String path, String token) throws Exception {
        return new AdminHttp(admin).send(method, path, token);
    }

    /** What a caller can tell apart: everything of the answer. */
    private static List<String> seen(Answer a) {
        return Arrays.asList(Integer.toString(a.status()), a.challenge(), a.body());
    }

    @Test
    void withoutAValidCredentialEveryTenantAnswersTheSame401() throws Exception {
        // none, made up, and valid elsewhere (another tenant's auditor and operator)
        List<String> credentials = Arrays.asList(null, "made-up-token-8d2f", AuthTenants.B_AUDITOR, AuthTenants.B_OPERATOR);
        for (String[] e : ENDPOINTS) {
            for (String token : credentials) {
                List<List<String>> answers = new ArrayList<>();
                for (String tenant : TENANTS) {
                    Answer r = send(e[0], tenant + "/" + e[1], token);
                    assertEquals(401, r.status(), e[0] + " " + tenant + "/" + e[1] + ": " + r.body());
                    assertEquals(token == null ? "missing_credential" : "invalid_token", r.error(), r.body());
                    answers.add(seen(r));
                }
                for (List<String> a : answers) {
                    assertEquals(answers.get(0), a, e[0] + " " + e[1] + " answered differently across " + TENANTS);
                }
            }
        }
    }

    @Test
    void onlyAnAuthenticatedPrincipalLearnsMore() throws Exception {
        // the operator of the tenant without auditors is told the export needs a role it lacks
        Answer export = send("GET", "no-auditor/ledger/export", Upstreams.NO_AUDITOR_OPERATOR_TOKEN);
        assertEquals(403, export.status(), export.body());
        assertEquals("role_required", export.error());
        Answer status = send("GET", "no-auditor/status", Upstreams.NO_AUDITOR_OPERATOR_TOKEN);
        assertEquals(200, status.status(), status.body());
        // and a tenant's auditor exports its ledger
        assertEquals(200, send("GET", "fs/ledger/export", Upstreams.AUDITOR_TOKEN).status());
    }
}
