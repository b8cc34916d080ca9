package dev.cloakgate.auth;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.List;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Where an issuer's public keys come from: a file (a ConfigMap with the cluster's {@code /openid/v1/jwks}) or a
 * URL fetched with a bounded timeout. Fetching happens on the gateway's auth thread, never while a request waits.
 */
interface JwksSource {
    /** The JWKS document as text. */
    String read() throws IOException;

    /** Whether {@link #read} goes over the network (and so is retried in the background, never at start). */
    boolean remote();

    static JwksSource of(AuthSettings.IssuerSettings s) throws IOException, GeneralSecurityException {
        if (s.jwksFile() == null && s.jwksUrl() == null) {
            return new FromMetadata(s.issuer(), s.jwksCaFile(), s.fetchTimeout());
        }
        return s.jwksFile() != null ? new FromFile(s.jwksFile())
                : new FromUrl(s.jwksUrl(), s.jwksCaFile(), s.jwksTokenFile(), s.fetchTimeout());
    }

    /** An https URL, or an http one to a loopback address: whoever can change keys in transit can sign any token. */
    static boolean trustedTransport(URI u) {
        boolean https = "https".equalsIgnoreCase(u.getScheme());
        boolean loopback = "http".equalsIgnoreCase(u.getScheme()) && u.getHost() != null
                && java.util.Set.of("127.0.0.1", "localhost", "[::1]", "::1").contains(u.getHost().toLowerCase(java.util.Locale.ROOT));
        return u.getHost() != null && (https || loopback);
    }

    /**
     * Issue 16: an OAuth authorization server's keys, found as its metadata names them: RFC 8414's
     * {@code /.well-known/oauth-authorization-server} by path insertion, then OpenID Connect discovery (inserted,
     * then appended), as the MCP authorization specification has clients look. The metadata's {@code issuer} must
     * be the configured issuer exactly (RFC 8414 section 3.3), and its {@code jwks_uri} https (or loopback http).
     */
    final class FromMetadata implements JwksSource {
        private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
        private final String issuer;
        private final Path caFile;
        private final Duration timeout;
        private final List<FromUrl> metadata = new java.util.ArrayList<>();

        FromMetadata(String issuer, Path caFile, Duration timeout) throws IOException, GeneralSecurityException {
            this.issuer = issuer;
            this.caFile = caFile;
            this.timeout = timeout;
            for (URI u : dev.cloakgate.net.WellKnown.authorizationServerMetadata(URI.create(issuer))) {
                metadata.add(new FromUrl(u, caFile, null, timeout));
            }
        }

        @Override
        public String read() throws IOException {
            IOException last = null;
            for (FromUrl m : metadata) {
                com.fasterxml.jackson.databind.JsonNode doc;
                try {
                    doc = JSON.readTree(m.read());
                } catch (IOException e) {
                    last = e;
                    continue;
                }
                if (doc == null || !issuer.equals(doc.path("issuer").asText(null))) {
                    throw new IOException("HTTP 200 but the metadata's issuer is not " + issuer);
                }
                String jwks = doc.path("jwks_uri").asText(null);
                URI u;
                try {
                    u = jwks == null ? null : new URI(jwks);
                } catch (java.net.URISyntaxException e) {
                    u = null;
                }
                if (u == null || !trustedTransport(u)) {
                    throw new IOException("HTTP 200 but the metadata names no https jwks_uri");
                }
                try {
                    return new FromUrl(u, caFile, null, timeout).read();
                } catch (GeneralSecurityException e) {
                    throw new IOException(e.getClass().getSimpleName());
                }
            }
            throw last != null ? last : new IOException("no metadata");
        }

        @Override
        public boolean remote() {
            return true;
        }
    }

    /** At most this much of a JWKS is read: a key set is a few kilobytes. */
    int MAX_BYTES = 1 << 20;

    record FromFile(Path file) implements JwksSource {
        @Override
        public String read() throws IOException {
            if (Files.size(file) > MAX_BYTES) {
                throw new IOException("larger than " + MAX_BYTES + " bytes");
            }
            return Files.readString(file, StandardCharsets.UTF_8);
        }

        @Override
        public boolean remote() {
            return false;
        }
    }

    final class FromUrl implements JwksSource {
        private final URI url;
        private final Path tokenFile;
        private final Duration timeout;
        private final HttpClient http;

        FromUrl(URI url, Path caFile, Path tokenFile, Duration timeout) throws IOException, GeneralSecurityException {
            this.url = url;
            this.tokenFile = tokenFile;
            this.timeout = timeout;
            HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(timeout)
                    .followRedirects(HttpClient.Redirect.NEVER);
            if (caFile != null) {
                b.sslContext(trusting(caFile));
            }
            this.http = b.build();
        }

        @Override
        public String read() throws IOException {
            HttpRequest.Builder req = HttpRequest.newBuilder(url).timeout(timeout).header("Accept", "application/json").GET();
            if (tokenFile != null) {
                // read at each fetch: a projected service-account token is rotated on disk by the kubelet
                req.header("Authorization", "Bearer " + Files.readString(tokenFile, StandardCharsets.UTF_8).strip());
            }
            HttpResponse<InputStream> r;
            try {
                r = http.send(req.build(), HttpResponse.BodyHandlers.ofInputStream());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
            try (InputStream in = r.body()) {
                if (r.statusCode() != 200) {
                    throw new IOException("HTTP " + r.statusCode());
                }
                byte[] body = in.readNBytes(MAX_BYTES + 1);
                if (body.length > MAX_BYTES) {
                    throw new IOException("larger than " + MAX_BYTES + " bytes");
                }
                return new String(body, StandardCharsets.UTF_8);
            }
        }

        @Override
        public boolean remote() {
            return true;
        }

        private static SSLContext trusting(Path caFile) throws IOException, GeneralSecurityException {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int n = 0;
            try (InputStream in = new FileInputStream(caFile.toFile())) {
                for (Certificate cert : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                    store.setCertificateEntry("ca-" + n++, cert);
                }
            }
            if (n == 0) {
                throw new GeneralSecurityException("no certificate in " + caFile);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return ctx;
        }
    }
}
