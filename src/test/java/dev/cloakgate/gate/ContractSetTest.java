package dev.cloakgate.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class ContractSetTest {
    private static ToolContract contract(String name, String tool) {
        return ToolContract.parse(GateKit.bytes("{\"apiVersion\":\"cloakgate.dev/v1alpha1\",\"kind\":\"ToolContract\","
                + "\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{\"tools\":{\"" + tool + "\":{}}}}"), name);
    }

    private static String refusal(List<String> policies, List<ToolContract> contracts) {
        return assertThrows(IllegalArgumentException.class, () -> ContractSet.bind(policies, contracts)).getMessage();
    }

    @Test
    void theReleaseBindsExactlyTheContractsLoaded() {
        ToolContract crm = GateKit.crm();
        ToolContract fs = contract("fs-tools", "fs__write");
        ContractSet set = ContractSet.bind(List.of(crm.reference(), fs.reference()), List.of(crm, fs));
        assertEquals("crm__patch", set.rule("crm__patch").tool());
        assertEquals(fs.reference(), set.rule("fs__write").contract());
        assertNull(set.rule("fs__read"));
        assertTrue(set.hasSideEffects());

        ToolContract edited = ToolContract.parse(GateKit.bytes(GateKit.CRM_CONTRACT.replace("280", "281")), "crm");
        String changed = refusal(List.of(crm.reference()), List.of(edited));
        assertTrue(changed.contains(crm.reference()) && changed.contains(edited.reference()), changed);
        String unbound = refusal(List.of(crm.reference()), List.of(crm, fs));
        assertTrue(unbound.contains(fs.reference()) && unbound.contains("not bound"), unbound);
        String missing = refusal(List.of(crm.reference(), fs.reference()), List.of(crm));
        assertTrue(missing.contains(fs.reference()) && missing.contains("no contract named fs-tools"), missing);
        assertTrue(refusal(List.of("policy:crm-tools"), List.of(crm)).contains("is not policy:<name>@sha256:<64 hex>"));
        ToolContract twice = contract("other", "crm__patch");
        String dup = refusal(List.of(crm.reference(), twice.reference()), List.of(crm, twice));
        assertTrue(dup.contains("tool crm__patch is declared by two contracts"), dup);
        assertNull(ContractSet.bind(List.of(), List.of()).rule("crm__patch"));
    }
}
