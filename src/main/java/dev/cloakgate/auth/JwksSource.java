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
        return s.jwksFile() != null ? new FromFile(s.jwksFile())
                : new FromUrl(s.jwksUrl(), s.jwksCaFile(), s.jwksTokenFile(), s.fetchTimeout());
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
