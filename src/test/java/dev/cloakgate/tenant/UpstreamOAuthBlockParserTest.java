package dev.cloakgate.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cloakgate.upstream.oauth.OAuthSettings;

/** Issue 16: an HTTP upstream's oauth block; every mistake refused naming its key, no secret written in the file. */
class UpstreamOAuthBlockParserTest {
    private static final String AUTH = ",\"auth\":{\"mode\":\"none\"}}";
    private final TenantParser parser = new TenantParser(EnvExpander.of(Map.of("CRM_SECRET", "s3cret")), Path.of("/work"));

    @Test
    void aClientCredentialsBlockNamesItsSecretFileAndTenant() throws Exception {
        UpstreamConfig.Http h = http("{\"grant\":\"client_credentials\",\"client_id\":\"gw\","
                + "\"client_secret_file\":\"secrets/crm\",\"scope\":\"read write\"}");
        OAuthSettings o = h.oauth();
        assertEquals("t", o.tenant());
        assertEquals("crm", o.upstream());
        assertEquals(OAuthSettings.Grant.CLIENT_CREDENTIALS, o.grant());
        assertEquals(Path.of("/work/secrets/crm"), o.clientSecretFile());
        assertNull(o.clientSecret());
        assertEquals("read write", o.scope());
    }

    @Test
    void anAuthorizationCodeBlockMayNameNoClient() throws Exception {
        OAuthSettings o = http("{\"grant\":\"authorization_code\"}").oauth();
        assertEquals(OAuthSettings.Grant.AUTHORIZATION_CODE, o.grant());
        assertNull(o.clientId());
    }

    @Test
    void aSecretComesFromTheEnvironmentNeverFromTheFile() throws Exception {
        assertEquals("s3cret", http("{\"grant\":\"client_credentials\",\"client_id\":\"gw\","
                + "\"client_secret\":\"${env:CRM_SECRET}\"}").oauth().clientSecret());
        TenantConfigException e = failure("{\"grant\":\"client_credentials\",\"client_id\":\"gw\","
                + "\"client_secret\":\"s3cret\"}", "");
        assertEquals("$.upstreams.crm.oauth.client_secret", e.path());
        assertTrue(!e.getMessage().contains("s3cret"), e.getMessage());
    }

    @Test
    void oauthAndAnAuthorizationHeaderExcludeEachOther() {
        assertEquals("$.upstreams.crm.oauth", failure("{\"grant\":\"authorization_code\"}",
                ",\"headers\":{\"Authorization\":\"Bearer x\"}").path());
    }

    @Test
    void mistakesAreRefusedAtTheirKey() {
        assertEquals("$.upstreams.crm.oauth.grant", failure("{\"grant\":\"password\"}", "").path());
        assertEquals("$.upstreams.crm.oauth.scopes", failure("{\"grant\":\"authorization_code\",\"scopes\":\"a\"}", "").path());
        assertEquals("$.upstreams.crm.oauth", failure("{\"grant\":\"client_credentials\",\"client_id\":\"gw\"}", "").path());
        assertEquals("$.upstreams.crm.oauth.token_endpoint_auth", failure("{\"grant\":\"client_credentials\","
                + "\"client_id\":\"gw\",\"client_secret_file\":\"f\",\"token_endpoint_auth\":\"private_key_jwt\"}", "").path());
        assertEquals("$.upstreams.crm.oauth.client_id", failure("{\"grant\":\"authorization_code\","
                + "\"private_key_file\":\"k.pem\"}", "").path());
        assertEquals("$.upstreams.crm.oauth", failure("{\"grant\":\"authorization_code\"}",
                ",\"transport\":\"sse\"").path());
    }

    @Test
    void crossAppAccessNamesTheIdentityProvidersSideAndNeedsARegisteredClient() throws Exception {
        OAuthSettings o = http("{\"grant\":\"cross_app_access\",\"client_id\":\"gw\",\"client_secret_file\":\"s\","
                + "\"id_token_file\":\"idp/token\",\"idp_token_endpoint\":\"https://idp.example/oauth2/token\","
                + "\"idp_client_id\":\"gw-at-idp\"}").oauth();
        assertEquals(OAuthSettings.Grant.CROSS_APP_ACCESS, o.grant());
        assertEquals(new OAuthSettings.CrossApp(Path.of("/work/idp/token"), "https://idp.example/oauth2/token", "gw-at-idp"),
                o.crossApp());
        // the identity provider's side is required, over https (whoever answers in clear picks the grant)
        assertEquals("$.upstreams.crm.oauth", failure("{\"grant\":\"cross_app_access\",\"client_id\":\"gw\","
                + "\"client_secret_file\":\"s\",\"idp_token_endpoint\":\"https://idp.example/token\"}", "").path());
        assertEquals("$.upstreams.crm.oauth.idp_token_endpoint", failure("{\"grant\":\"cross_app_access\",\"client_id\":\"gw\","
                + "\"client_secret_file\":\"s\",\"id_token_file\":\"t\",\"idp_token_endpoint\":\"http://idp.example/token\"}",
                "").path());
        // a registered client at the upstream's authorization server, as for client credentials
        assertEquals("$.upstreams.crm.oauth", failure("{\"grant\":\"cross_app_access\",\"id_token_file\":\"t\","
                + "\"idp_token_endpoint\":\"https://idp.example/token\"}", "").path());
        // and the identity provider's keys mean nothing to another grant
        assertEquals("$.upstreams.crm.oauth", failure("{\"grant\":\"authorization_code\",\"id_token_file\":\"t\"}", "").path());
        assertNull(http("{\"grant\":\"authorization_code\"}").oauth().crossApp());
    }

    private UpstreamConfig.Http http(String oauth) throws TenantConfigException {
        return (UpstreamConfig.Http) parse(oauth, "").upstreams().get("crm");
    }

    private TenantConfig parse(String oauth, String more) throws TenantConfigException {
        String json = "{\"upstreams\":{\"crm\":{\"url\":\"https://crm.example/mcp\",\"oauth\":" + oauth + more + "}}" + AUTH;
        return parser.parse("t", "t.json", json.getBytes(StandardCharsets.UTF_8));
    }

    private TenantConfigException failure(String oauth, String more) {
        return assertThrows(TenantConfigException.class, () -> parse(oauth, more));
    }
}
