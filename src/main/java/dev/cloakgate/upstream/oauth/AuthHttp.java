package dev.cloakgate.upstream.oauth;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.StringJoiner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The OAuth client's HTTP: discovery documents, registration and token requests, over the JDK's client. Redirects
 * are never followed (a metadata URL answers itself or not at all), every URL must be https or http to a loopback
 * address (whoever changes an authorization server's answer in transit takes the upstream), and a body is read up
 * to a bound.
 */
public final class AuthHttp {
    private static final int MAX_BODY = 256 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client;
    private final Duration timeout;

    public AuthHttp(Duration timeout) {
        this.client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).connectTimeout(timeout).build();
        this.timeout = timeout;
    }

    /** One answer: status, the headers the client reads, and the body (at most the bound). */
    public record Answer(int status, String location, String wwwAuthenticate, byte[] body) {
        /** The body as a JSON object, or null when it is not one. */
        public JsonNode json() {
            try {
                JsonNode n = JSON.readTree(body);
                return n != null && n.isObject() ? n : null;
            } catch (IOException e) {
                return null;
            }
        }
    }

    public Answer get(URI url) throws OAuthFailure {
        return send(url, HttpRequest.newBuilder(url).GET().header("Accept", "application/json"));
    }

    /** A form POST ({@code application/x-www-form-urlencoded}), with extra headers (client authentication). */
    public Answer postForm(URI url, Map<String, String> form, Map<String, String> headers) throws OAuthFailure {
        HttpRequest.Builder b = HttpRequest.newBuilder(url).POST(HttpRequest.BodyPublishers.ofString(form(form)))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Accept", "application/json");
        headers.forEach(b::header);
        return send(url, b);
    }

    public Answer postJson(URI url, JsonNode body, Map<String, String> headers) throws OAuthFailure {
        HttpRequest.Builder b;
        try {
            b = HttpRequest.newBuilder(url).POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        b.header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream");
        headers.forEach(b::header);
        return send(url, b);
    }

    private Answer send(URI url, HttpRequest.Builder b) throws OAuthFailure {
        requireSafe(url);
        try {
            HttpResponse<InputStream> r = client.send(b.timeout(timeout).build(), HttpResponse.BodyHandlers.ofInputStream());
            byte[] body;
            try (InputStream in = r.body()) {
                body = in.readNBytes(MAX_BODY);
            }
            return new Answer(r.statusCode(), r.headers().firstValue("location").orElse(null),
                    r.headers().firstValue("www-authenticate").orElse(null), body);
        } catch (IOException e) {
            throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED,
                    "could not reach " + origin(url) + " (" + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_FAILED, "interrupted while reaching " + origin(url));
        }
    }

    /** {@code application/x-www-form-urlencoded} of the pairs, in their order. */
    public static String form(Map<String, String> form) {
        StringJoiner j = new StringJoiner("&");
        form.forEach((k, v) -> j.add(enc(k) + "=" + enc(v)));
        return j.toString();
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** The scheme, host and port of a URL: what an error may name of it (never its path or query). */
    public static String origin(URI url) {
        return url.getScheme() + "://" + url.getHost() + (url.getPort() >= 0 ? ":" + url.getPort() : "");
    }

    /** https, or http to a loopback address; no user info. */
    public static void requireSafe(URI url) throws OAuthFailure {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(java.util.Locale.ROOT);
        boolean ok = url.getHost() != null && url.getRawUserInfo() == null
                && (scheme.equals("https") || scheme.equals("http") && dev.cloakgate.net.Loopback.host(url.getHost()));
        if (!ok) {
            throw new OAuthFailure(OAuthFailure.Code.UPSTREAM_AUTH_INSECURE_URL, "an OAuth URL of the upstream ("
                    + (url.getHost() == null ? "no host" : scheme + "://" + url.getHost())
                    + ") is not https (http is allowed only to a loopback address)");
        }
    }

}
