package dev.cloakgate.gate;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.SignerKeys;

/** Keys, contexts and contracts for the action boundary's tests. */
final class GateKit {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Ed25519SigningKey ORCHESTRATOR = key(1);
    static final Ed25519SigningKey APPROVER = key(2);
    static final Ed25519SigningKey STRANGER = key(3);
    static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    static final Duration SKEW = Duration.ofSeconds(30);
    static final String RELEASE = "sha256:" + "a".repeat(64);

    /** The seed's example contract, with the exposed name cloakgate gives the tool. */
    static final String CRM_CONTRACT = """
            apiVersion: cloakpipe.co/v1alpha1
            kind: ToolContract
            metadata:
              name: crm-tools
            spec:
              tools:
                crm__patch:
                  sideEffect: true
                  requiresApproval: true
                  arguments:
                    tenant: { bindTo: task.tenant }
                    record: { bindTo: task.record }
                    patch:
                      type: object
                      minProperties: 1
                      additionalProperties: false
                      properties:
                        stage: { enum: [qualified, review] }
                        note:  { type: string, maxLength: 280 }
                  required: [tenant, record, patch]
                crm__search:
                  arguments:
                    query: { type: string, maxLength: 100 }
                  required: [query]
            """;

    private GateKit() {
    }

    static Ed25519SigningKey key(int seed) {
        byte[] b = new byte[32];
        b[0] = (byte) seed;
        return Ed25519SigningKey.fromSeed(b);
    }

    static SignerKeys trust(Ed25519SigningKey... keys) {
        return SignerKeys.parse(java.util.Arrays.stream(keys).map(k -> SignerKeys.spec(k.publicKey())).toList());
    }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static ToolContract crm() {
        return ToolContract.parse(bytes(CRM_CONTRACT), "crm-tools.yaml");
    }

    static ObjectNode taskJson() {
        return (ObjectNode) json("{\"taskId\":\"t-981\",\"tenant\":\"demo-co\",\"record\":\"lead-42\"}");
    }

    /** A context signed by {@code signer} and verified under the orchestrator key. */
    static TaskContexts.Outcome context(Ed25519SigningKey signer) {
        byte[] env = TaskContexts.sign(taskJson(), NOW.minusSeconds(60), Duration.ofHours(1), signer).toJson();
        return TaskContexts.verify(env, trust(ORCHESTRATOR), NOW, SKEW);
    }

    static TaskContext trustedContext() {
        return ((TaskContexts.Verified) context(ORCHESTRATOR)).context();
    }

    static ContractSet crmSet() {
        ToolContract c = crm();
        return ContractSet.bind(List.of(c.reference()), List.of(c));
    }
}
