package dev.cloakgate.upstream.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Issue 16: who the gateway is at an authorization server, in the specification's order. */
class ClientRegistrationTest {
    private static final AuthServer CIMD = new AuthServer(URI.create("https://as.example"),
            URI.create("https://as.example/authorize"), URI.create("https://as.example/token"), null, List.of(),
            List.of("none"), true);
    private static final OAuthSettings CODE = new OAuthSettings("acme", "crm", OAuthSettings.Grant.AUTHORIZATION_CODE,
            null, null, null, null, null, null, null);
    private final AuthHttp http = new AuthHttp(Duration.ofSeconds(1));

    @Test
    void anHttpsPublicUrlIsTheClientIdWhereTheServerTakesMetadataDocuments() throws Exception {
        ClientRegistration r = new ClientRegistration(http, URI.create("https://gw.example/base"));
        Client c = r.client(CODE, CIMD);
        assertEquals("https://gw.example/base/oauth/client-metadata.json", c.id());
        assertEquals("none", c.authMethod());
        assertNull(c.secret());
        assertEquals(c.id(), r.metadataDocument().get("client_id").asText());
        assertEquals("https://gw.example/base/oauth/callback", r.metadataDocument().get("redirect_uris").get(0).asText());
    }

    @Test
    void withoutHttpsNoDocumentAndWithoutRegistrationNoClient() {
        // an http public URL cannot be a client id; this server offers no registration either
        OAuthFailure f = assertThrows(OAuthFailure.class,
                () -> new ClientRegistration(http, URI.create("http://127.0.0.1:8080")).client(CODE, CIMD));
        assertEquals(OAuthFailure.Code.UPSTREAM_AUTH_FAILED, f.code());
        OAuthFailure none = assertThrows(OAuthFailure.class, () -> new ClientRegistration(http, null).redirectUri());
        assertEquals(OAuthFailure.Code.PUBLIC_URL_REQUIRED, none.code());
    }

    @Test
    void aPreRegisteredClientComesFirst() throws Exception {
        OAuthSettings pre = new OAuthSettings("acme", "crm", OAuthSettings.Grant.AUTHORIZATION_CODE, "gw", null, null,
                null, null, null, null);
        Client c = new ClientRegistration(http, URI.create("https://gw.example")).client(pre, CIMD);
        assertEquals("gw", c.id());
        assertEquals("pre-registered", c.how());
        assertEquals("none", c.authMethod());
    }
}
