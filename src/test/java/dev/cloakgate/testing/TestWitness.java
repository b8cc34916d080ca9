package dev.cloakgate.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A transparency-log witness written in the test from C2SP tlog-witness and tlog-cosignature (and signed-note for
 * the notes), with the JDK's own Ed25519 and SHA-256 and none of the gateway's code: it holds its own key, trusts
 * configured log keys per origin, verifies the checkpoint's signature and the RFC 6962 consistency proof from the
 * size it last cosigned, keeps that size per origin, answers 409 with it when the old size differs, and returns an
 * Ed25519 cosignature/v1.
 *
 * <p>Besides {@code POST <prefix>/add-checkpoint} it has a control path for the tests ({@code /control/...}),
 * reached over HTTP because the gateway's tests and their resources live in different class loaders:
 * {@code trust} (body: origin, newline, the log's vkey), {@code forget} (origin: a restart that lost its state),
 * {@code pause} ({@code on}/{@code off}: answer 503 after checking the signature, remembering the checkpoint),
 * {@code adopt} (origin: take the last checkpoint seen while paused as its latest, as if cosigned elsewhere) and
 * {@code state?origin=} ({@code size cosigned conflicts proofs}).
 */
public final class TestWitness implements AutoCloseable {
    private static final String EM_DASH = "\u2014 ";
    private static final byte[] SPKI_ED25519 = HexFormat.of().parseHex("302a300506032b6570032100");

    private record Trusted(String name, byte[] keyId, PublicKey key) {
    }

    private record Latest(long size, byte[] root) {
    }

    private final String name;
    private final KeyPair key;
    private final HttpServer server;
    private final Map<String, Trusted> logs = new HashMap<>();
    private final Map<String, Latest> latest = new HashMap<>();
    private final Map<String, Latest> seen = new HashMap<>();
    private final Map<String, int[]> counts = new HashMap<>(); // origin -> cosigned, conflicts, non-empty proofs verified
    private boolean paused;

    private TestWitness(String name) throws IOException {
        this.name = name;
        try {
            this.key = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/w/add-checkpoint", this::addCheckpoint);
        server.createContext("/control/", this::control);
        server.start();
    }

    public static TestWitness start(String name) throws IOException {
        return new TestWitness(name);
    }

    /** The submission prefix. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/w";
    }

    public String controlUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/control/";
    }

    /** Its verifier key: {@code <name>+<key ID>+base64(0x04 || key)}, key ID = SHA-256(name || \n || 0x04 || key)[:4]. */
    public String vkey() {
        byte[] pub = raw(key.getPublic());
        return name + "+" + HexFormat.of().formatHex(keyId(name, (byte) 0x04, pub)) + "+"
                + Base64.getEncoder().encodeToString(ByteBuffer.allocate(33).put((byte) 0x04).put(pub).array());
    }

    /** A fresh key under the same name: what a wrong pin looks like. */
    public static String otherVkey(String name) throws IOException {
        try (TestWitness other = new TestWitness(name)) {
            return other.vkey();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }

    // ---- add-checkpoint, as tlog-witness says ----

    private void addCheckpoint(HttpExchange x) throws IOException {
        try (x) {
            if (!x.getRequestMethod().equals("POST")) {
                send(x, 405, "text/plain", "POST only\n");
                return;
            }
            byte[] body;
            try (InputStream in = x.getRequestBody()) {
                body = in.readAllBytes();
            }
            String req = new String(body, StandardCharsets.UTF_8);
            int headEnd = req.indexOf("\n\n");
            if (headEnd < 0) {
                send(x, 400, "text/plain", "no blank line after the proof\n");
                return;
            }
            String[] head = req.substring(0, headEnd).split("\n", -1);
            if (!head[0].matches("old (0|[1-9][0-9]*)") || head.length - 1 > 63) {
                send(x, 400, "text/plain", "bad old size line or too many proof lines\n");
                return;
            }
            long old = Long.parseLong(head[0].substring(4));
            List<byte[]> proof = new ArrayList<>();
            for (int i = 1; i < head.length; i++) {
                byte[] h = Base64.getDecoder().decode(head[i]);
                if (h.length != 32) {
                    send(x, 400, "text/plain", "a proof line is not a hash\n");
                    return;
                }
                proof.add(h);
            }
            String note = req.substring(headEnd + 2);
            int split = note.lastIndexOf("\n\n");
            if (split < 0) {
                send(x, 400, "text/plain", "not a signed note\n");
                return;
            }
            String text = note.substring(0, split + 1);
            String[] lines = text.split("\n", -1);
            if (lines.length < 4 || !lines[1].matches("0|[1-9][0-9]*")) {
                send(x, 400, "text/plain", "not a checkpoint\n");
                return;
            }
            String origin = lines[0];
            long size = Long.parseLong(lines[1]);
            byte[] root = Base64.getDecoder().decode(lines[2]);
            synchronized (this) {
                Trusted log = logs.get(origin);
                if (log == null) {
                    send(x, 404, "text/plain", "unknown log\n");
                    return;
                }
                // verify signatures from the trusted key; ignore the others
                boolean verified = false;
                for (String sig : note.substring(split + 2).split("\n")) {
                    if (!sig.startsWith(EM_DASH)) {
                        continue;
                    }
                    String[] p = sig.substring(EM_DASH.length()).split(" ");
                    byte[] raw = Base64.getDecoder().decode(p[1]);
                    if (p[0].equals(log.name()) && Arrays.equals(Arrays.copyOf(raw, 4), log.keyId())) {
                        if (!verify(log.key(), text.getBytes(StandardCharsets.UTF_8), Arrays.copyOfRange(raw, 4, raw.length))) {
                            send(x, 403, "text/plain", "a signature of the trusted key fails\n");
                            return;
                        }
                        verified = true;
                    }
                }
                if (!verified) {
                    send(x, 403, "text/plain", "no signature of a trusted key\n");
                    return;
                }
                if (paused) {
                    seen.put(origin, new Latest(size, root));
                    send(x, 503, "text/plain", "paused\n");
                    return;
                }
                if (old > size) {
                    send(x, 400, "text/plain", "old size past the checkpoint\n");
                    return;
                }
                Latest had = latest.getOrDefault(origin, new Latest(0, sha256()));
                int[] c = counts.computeIfAbsent(origin, o -> new int[3]);
                if (old != had.size()) {
                    c[1]++;
                    send(x, 409, "text/x.tlog.size", had.size() + "\n");
                    return;
                }
                if (size == 0 && !Arrays.equals(root, sha256())) {
                    send(x, 422, "text/plain", "an empty tree with another root\n");
                    return;
                }
                boolean consistent;
                if (old == 0) {
                    consistent = proof.isEmpty();
                } else if (old == size) {
                    consistent = proof.isEmpty() && Arrays.equals(root, had.root());
                } else {
                    consistent = consistent(old, size, had.root(), root, proof);
                    if (consistent) {
                        c[2]++;
                    }
                }
                if (!consistent) {
                    send(x, 422, "text/plain", "not consistent\n");
                    return;
                }
                latest.put(origin, new Latest(size, root));
                c[0]++;
                send(x, 200, "text/plain; charset=utf-8", cosign(text));
            }
        } catch (RuntimeException e) {
            send(x, 400, "text/plain", "unreadable request\n");
        }
    }

    /** A cosignature/v1 line: key ID, 8-byte big-endian timestamp, Ed25519 over the header, time line and text. */
    private String cosign(String text) {
        long now = System.currentTimeMillis() / 1000;
        byte[] message = ("cosignature/v1\ntime " + now + "\n" + text).getBytes(StandardCharsets.UTF_8);
        try {
            Signature s = Signature.getInstance("Ed25519");
            s.initSign(key.getPrivate());
            s.update(message);
            byte[] sig = s.sign();
            byte[] id = keyId(name, (byte) 0x04, raw(key.getPublic()));
            byte[] all = ByteBuffer.allocate(4 + 8 + 64).put(id).putLong(now).put(sig).array();
            return EM_DASH + name + " " + Base64.getEncoder().encodeToString(all) + "\n";
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    // RFC 9162 section 2.1.4.2, written out again here
    static boolean consistent(long first, long second, byte[] firstRoot, byte[] secondRoot, List<byte[]> proof) {
        if (proof.isEmpty()) {
            return false;
        }
        List<byte[]> path = new ArrayList<>();
        if (Long.bitCount(first) == 1) {
            path.add(firstRoot);
        }
        path.addAll(proof);
        long fn = first - 1;
        long sn = second - 1;
        while ((fn & 1) == 1) {
            fn >>= 1;
            sn >>= 1;
        }
        byte[] fr = path.get(0);
        byte[] sr = path.get(0);
        for (int i = 1; i < path.size(); i++) {
            byte[] c = path.get(i);
            if (sn == 0) {
                return false;
            }
            if ((fn & 1) == 1 || fn == sn) {
                fr = sha256(new byte[] { 1 }, c, fr);
                sr = sha256(new byte[] { 1 }, c, sr);
                while ((fn & 1) == 0 && fn != 0) {
                    fn >>= 1;
                    sn >>= 1;
                }
            } else {
                sr = sha256(new byte[] { 1 }, sr, c);
            }
            fn >>= 1;
            sn >>= 1;
        }
        return sn == 0 && Arrays.equals(fr, firstRoot) && Arrays.equals(sr, secondRoot);
    }

    // ---- the test's controls ----

    private void control(HttpExchange x) throws IOException {
        try (x) {
            String what = x.getRequestURI().getPath().substring("/control/".length());
            String body;
            try (InputStream in = x.getRequestBody()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
            }
            synchronized (this) {
                switch (what) {
                    case "trust" -> {
                        String[] p = body.split("\n");
                        trust(p[0], p[1].strip());
                    }
                    case "forget" -> latest.remove(body);
                    case "pause" -> paused = body.equals("on");
                    case "adopt" -> latest.put(body, seen.get(body));
                    case "state" -> {
                        String origin = x.getRequestURI().getQuery().substring("origin=".length());
                        int[] c = counts.getOrDefault(origin, new int[3]);
                        Latest l = latest.get(origin);
                        send(x, 200, "text/plain", (l == null ? 0 : l.size()) + " " + c[0] + " " + c[1] + " " + c[2] + "\n");
                        return;
                    }
                    default -> {
                        send(x, 404, "text/plain", "no such control\n");
                        return;
                    }
                }
            }
            send(x, 200, "text/plain", "ok\n");
        }
    }

    /** Trusts the log key {@code logVkey} (type 0x01) for checkpoints of {@code origin}. */
    public synchronized void trust(String origin, String logVkey) {
        String[] vk = logVkey.split("\\+", 3);
        byte[] typed = Base64.getDecoder().decode(vk[2]);
        logs.put(origin, new Trusted(vk[0], HexFormat.of().parseHex(vk[1]), publicKey(Arrays.copyOfRange(typed, 1, typed.length))));
    }

    /** Its record of {@code origin} keeps the size but another root: to it, the log's next checkpoint is a fork. */
    public synchronized void corrupt(String origin) {
        Latest l = latest.get(origin);
        byte[] root = l.root().clone();
        root[0] ^= 1;
        latest.put(origin, new Latest(l.size(), root));
    }

    /** The size it last cosigned for {@code origin}, 0 when none. */
    public synchronized long size(String origin) {
        Latest l = latest.get(origin);
        return l == null ? 0 : l.size();
    }

    // ---- helpers ----

    private static void send(HttpExchange x, int status, String type, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().set("Content-Type", type);
        x.sendResponseHeaders(status, b.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(b);
        }
    }

    static byte[] keyId(String name, byte type, byte[] key) {
        return Arrays.copyOf(sha256((name + "\n").getBytes(StandardCharsets.UTF_8), new byte[] { type }, key), 4);
    }

    private static byte[] raw(PublicKey k) {
        byte[] enc = k.getEncoded(); // X.509 SubjectPublicKeyInfo: a fixed 12-byte prefix, then the 32-byte key
        return Arrays.copyOfRange(enc, enc.length - 32, enc.length);
    }

    private static PublicKey publicKey(byte[] raw) {
        try {
            byte[] spki = ByteBuffer.allocate(SPKI_ED25519.length + 32).put(SPKI_ED25519).put(raw).array();
            return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(spki));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static boolean verify(PublicKey k, byte[] message, byte[] signature) {
        try {
            Signature s = Signature.getInstance("Ed25519");
            s.initVerify(k);
            s.update(message);
            return s.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    static byte[] sha256(byte[]... parts) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            for (byte[] p : parts) {
                d.update(p);
            }
            return d.digest();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
