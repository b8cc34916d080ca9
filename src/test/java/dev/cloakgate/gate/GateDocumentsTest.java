package dev.cloakgate.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class GateDocumentsTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void yamlAndJsonOfTheSameDocumentHashAlike() {
        String yaml = "kind: Release\nspec:\n  tools:\n    - tool:crm__patch@4\n";
        String json = "{\"spec\":{\"tools\":[\"tool:crm__patch@4\"]},\"kind\":\"Release\"}";
        assertEquals(Domains.hash(Domains.RELEASE, GateDocuments.read(b(json), "j")),
                Domains.hash(Domains.RELEASE, GateDocuments.read(b(yaml), "y")));
    }

    @Test
    void duplicateKeysAliasesAndNonObjectsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> GateDocuments.read(b("a: 1\na: 2\n"), "y"));
        assertThrows(IllegalArgumentException.class, () -> GateDocuments.read(b("{\"a\":1,\"a\":2}"), "j"));
        assertThrows(IllegalArgumentException.class,
                () -> GateDocuments.read(b("a: &x [1, 2]\nb: [*x, *x]\n"), "aliases"));
        assertThrows(IllegalArgumentException.class, () -> GateDocuments.read(b("- 1\n- 2\n"), "list"));
        assertThrows(IllegalArgumentException.class, () -> GateDocuments.read(b("[1]"), "list"));
    }
}
