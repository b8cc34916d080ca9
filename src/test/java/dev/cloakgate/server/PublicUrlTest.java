package dev.cloakgate.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.Test;

/** Issue 16: cloakgate.public-url, normalised, and refused when it cannot name a resource. */
class PublicUrlTest {
    @Test
    void normalisesSchemeHostAndTrailingSlash() {
        assertEquals("https://gw.example", PublicUrl.parse("HTTPS://GW.Example/").value());
        assertEquals("https://gw.example:8443/mcp-gw", PublicUrl.parse(" https://gw.example:8443/mcp-gw// ").value());
        assertEquals("http://localhost:8080", PublicUrl.parse("http://localhost:8080").value());
        assertEquals(Optional.empty(), PublicUrl.of(Optional.of(" ")));
    }

    @Test
    void refusesWhatIsNotABaseUrl() {
        for (String bad : new String[] { "gw.example", "ftp://gw.example", "https://user@gw.example", "https://gw.example/?x=1",
                "https://gw.example/#f", "https:///path", "not a url" }) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PublicUrl.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("public_url_invalid"), e.getMessage());
        }
    }
}
