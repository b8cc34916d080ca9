package dev.cloakgate.ledger.witness;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * One C2SP tlog-witness {@code add-checkpoint} request: body {@code old <size>\n}, the consistency proof's hashes
 * one base64 line each, a blank line, then the signed checkpoint note; and what the witness's answer means.
 */
public final class AddCheckpoint {
    /** The spec's cap on proof lines: a consistency proof of a tree of up to 2^63 leaves. */
    public static final int MAX_PROOF_LINES = 63;
    // a few cosignature lines; anything larger is not an answer to this request
    private static final int MAX_RESPONSE_BYTES = 64 * 1024;

    /** What the witness answered. */
    public sealed interface Outcome {
        /** 200: the signature lines it returned (not yet verified: the caller checks them against the pinned key). */
        record Cosigned(List<String> lines) implements Outcome {
        }

        /** 409: the witness last cosigned {@code size}, not the old size sent. */
        record Conflict(long size) implements Outcome {
        }

        /** A status that says the request will not succeed as sent (403, 404, 422, 400, or a 409 that does not read). */
        record Refused(int status, String meaning) implements Outcome {
        }

        /** No usable answer (connection, timeout, 5xx, other statuses): worth another try later. */
        record Unavailable(String reason) implements Outcome {
        }
    }

    private final HttpClient http;
    private final Duration timeout;

    public AddCheckpoint(HttpClient http, Duration timeout) {
        this.http = http;
        this.timeout = timeout;
    }

    /** The request body: old size, proof lines, blank line, the note as stored. */
    public static byte[] body(long oldSize, List<byte[]> proof, byte[] signedNote) {
        if (proof.size() > MAX_PROOF_LINES) {
            throw new IllegalArgumentException(proof.size() + " proof lines, the protocol allows " + MAX_PROOF_LINES);
        }
        StringBuilder b = new StringBuilder("old ").append(Long.toString(oldSize)).append('\n');
        for (byte[] h : proof) {
            b.append(Base64.getEncoder().encodeToString(h)).append('\n');
        }
        b.append('\n');
        byte[] head = b.toString().getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[head.length + signedNote.length];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(signedNote, 0, out, head.length, signedNote.length);
        return out;
    }

    public Outcome send(URI addCheckpoint, long oldSize, List<byte[]> proof, byte[] signedNote) {
        HttpRequest request = HttpRequest.newBuilder(addCheckpoint).timeout(timeout)
                .header("Content-Type", "text/plain; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body(oldSize, proof, signedNote))).build();
        HttpResponse<java.io.InputStream> r;
        byte[] answer;
        try {
            r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (java.io.InputStream in = r.body()) {
                answer = in.readNBytes(MAX_RESPONSE_BYTES + 1);
            }
        } catch (HttpTimeoutException e) {
            return new Outcome.Unavailable("no answer within " + timeout.toMillis() + " ms");
        } catch (IOException e) {
            return new Outcome.Unavailable("connection failed (" + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome.Unavailable("interrupted");
        }
        if (answer.length > MAX_RESPONSE_BYTES) {
            return new Outcome.Unavailable("answer larger than " + MAX_RESPONSE_BYTES + " bytes");
        }
        String text = new String(answer, StandardCharsets.UTF_8);
        return switch (r.statusCode()) {
            case 200 -> cosigned(text);
            case 409 -> conflict(r, text);
            case 400 -> new Outcome.Refused(400, "the witness found the request malformed (old size past the checkpoint's?)");
            case 403 -> new Outcome.Refused(403, "the witness does not trust the checkpoint's signature: give it the log's"
                    + " checkpoint verifier key");
            case 404 -> new Outcome.Refused(404, "the witness does not know this log's origin: register the log with it");
            case 422 -> new Outcome.Refused(422, "the witness found the checkpoint inconsistent with what it cosigned before"
                    + " (consistency proof or root at equal size): a fork, or a damaged ledger");
            default -> new Outcome.Unavailable("HTTP " + r.statusCode());
        };
    }

    private static Outcome cosigned(String text) {
        List<String> lines = new ArrayList<>();
        if (!text.endsWith("\n")) {
            return new Outcome.Unavailable("a 200 answer whose last line does not end in a newline");
        }
        for (String line : text.substring(0, text.length() - 1).split("\n", -1)) {
            if (!line.startsWith("\u2014 ")) {
                return new Outcome.Unavailable("a 200 answer with a line that is not a note signature");
            }
            lines.add(line);
        }
        return new Outcome.Cosigned(lines);
    }

    private static Outcome conflict(HttpResponse<?> r, String text) {
        String type = r.headers().firstValue("Content-Type").orElse("");
        if (!type.strip().startsWith("text/x.tlog.size") || !text.matches("(0|[1-9][0-9]{0,18})\n")) {
            return new Outcome.Refused(409, "a 409 answer that is not a text/x.tlog.size tree size");
        }
        try {
            return new Outcome.Conflict(Long.parseLong(text.strip()));
        } catch (NumberFormatException e) {
            return new Outcome.Refused(409, "a 409 answer whose tree size is beyond 2^63-1");
        }
    }
}
