package dev.cloakgate.testing;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;

/** The admin API over real HTTP/1.1, as an operator's script calls it: one request, its status, challenge and body. */
public final class AdminHttp {
    private final URI admin;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    /** @param admin {@code http://host:port/admin/t/}: paths are resolved against it ({@code tenant/status}) */
    public AdminHttp(URI admin) {
        this.admin = admin;
    }

    /** An answer: its {@code WWW-Authenticate} is {@code challenge} (or null). */
    public record Answer(int status, String challenge, String body) {
        public JsonNode json() {
            return Json.parse(body);
        }

        /** The refusal's stable code. */
        public String error() {
            return json().path("error").asText();
        }
    }

    /** {@code token} null sends no credential; {@code body} null sends none. */
    public Answer send(String method, String path, String token, byte[] body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(admin.resolve(path)).timeout(Duration.ofSeconds(60)).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.headers().firstValue("WWW-Authenticate").orElse(null), r.body());
    }

    public Answer send(String method, String path, String token, String body) throws Exception {
        return send(method, path, token, body == null ? null : body.getBytes(StandardCharsets.UTF_8));
    }

    public Answer send(String method, String path, String token) throws Exception {
        return send(method, path, token, (byte[]) null);
    }
}
