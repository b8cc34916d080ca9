package dev.cloakgate.evidence;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.policy.TenantSecret;
import dev.cloakgate.session.CallLog;

/** A tenant's unchecked tools/calls as evidence: the arguments bound by length and HMAC, the session by digest. */
public final class ForwardedCalls implements CallLog {
    private final String tenant;
    private final TenantSecret secret;
    private final Evidence evidence;

    public ForwardedCalls(String tenant, TenantSecret secret, Evidence evidence) {
        this.tenant = tenant;
        this.secret = secret;
        this.evidence = evidence;
    }

    @Override
    public void forwarded(String sessionId, String upstream, String tool, JsonNode arguments) {
        // the same text a decision binds (the JSON as Jackson writes it), so an auditor checks both alike
        String json = arguments == null ? "null" : arguments.toString();
        evidence.record(new Event.Forwarded(tenant, secret.sessionDigest(sessionId), upstream, tool,
                json.getBytes(StandardCharsets.UTF_8).length, secret.hmac(json)));
    }
}
