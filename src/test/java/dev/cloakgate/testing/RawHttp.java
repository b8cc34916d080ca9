package dev.cloakgate.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * One raw TCP connection to the gateway, from a chosen local address (all of 127/8 is loopback on Linux), for
 * tests that must behave the way no HTTP client library would: send half a request, send it slowly, never read.
 */
public final class RawHttp implements AutoCloseable {
    private final Socket socket;
    private final URI target;

    private RawHttp(Socket socket, URI target) {
        this.socket = socket;
        this.target = target;
    }

    /** Connects to the gateway that serves {@code target}, from {@code localAddress}. */
    public static RawHttp connect(URI target, String localAddress) throws IOException {
        Socket s = new Socket();
        s.bind(new InetSocketAddress(InetAddress.getByName(localAddress), 0));
        s.connect(new InetSocketAddress(target.getHost(), target.getPort()), 10_000);
        return new RawHttp(s, target);
    }

    public Socket socket() {
        return socket;
    }

    /** The request line and headers of a POST of {@code body} to the target with the given MCP session. */
    public String postHead(int contentLength, String sessionId) {
        return "POST " + target.getRawPath() + " HTTP/1.1\r\nHost: " + target.getHost() + ":" + target.getPort()
                + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                + (sessionId == null ? "" : "Mcp-Session-Id: " + sessionId + "\r\n")
                + "Content-Length: " + contentLength + "\r\n\r\n";
    }

    /** Sends a whole POST of {@code body}. */
    public void post(String body, String sessionId) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        send(postHead(b.length, sessionId) + body);
    }

    public void send(String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /**
     * Reads until the peer closes the connection or {@code millis} pass; returns what arrived (possibly nothing)
     * and whether the connection ended.
     */
    public Received readUntilClosed(long millis) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        long end = System.nanoTime() + millis * 1_000_000L;
        InputStream in = socket.getInputStream();
        byte[] buf = new byte[65536];
        while (System.nanoTime() < end) {
            socket.setSoTimeout((int) Math.max(1, Math.min(500, (end - System.nanoTime()) / 1_000_000L)));
            try {
                int n = in.read(buf);
                if (n < 0) {
                    return new Received(got.toString(StandardCharsets.UTF_8), true, got.size());
                }
                got.write(buf, 0, n);
            } catch (SocketTimeoutException e) {
                // keep waiting
            } catch (IOException e) {
                // reset by the peer: the connection ended too
                return new Received(got.toString(StandardCharsets.UTF_8), true, got.size());
            }
        }
        return new Received(got.toString(StandardCharsets.UTF_8), false, got.size());
    }

    /** Reads until the response head has arrived (or the connection ended, or {@code millis} passed). */
    public String readHead(long millis) throws IOException {
        StringBuilder got = new StringBuilder();
        long end = System.nanoTime() + millis * 1_000_000L;
        InputStream in = socket.getInputStream();
        while (System.nanoTime() < end && got.indexOf("\r\n\r\n") < 0) {
            socket.setSoTimeout((int) Math.max(1, Math.min(500, (end - System.nanoTime()) / 1_000_000L)));
            try {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                got.append((char) b);
            } catch (SocketTimeoutException e) {
                // keep waiting
            } catch (IOException e) {
                break;
            }
        }
        return got.toString();
    }

    /** What a connection delivered before it ended (or the wait ran out). */
    public record Received(String text, boolean closed, long bytes) {
        public String status() {
            int eol = text.indexOf("\r\n");
            return eol < 0 ? text : text.substring(0, eol);
        }

        public String body() {
            int head = text.indexOf("\r\n\r\n");
            return head < 0 ? "" : text.substring(head + 4);
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
