package dev.cloakgate.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cloakgate.crypto.Ed25519SigningKey;
import dev.cloakgate.crypto.SignerKeys;
import dev.cloakgate.gate.CertificationVerifier;
import dev.cloakgate.gate.ReleaseManifest;

class ReleaseCommandTest {
    static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");
    static final String MANIFEST = """
            apiVersion: cloakgate.dev/v1alpha1
            kind: Release
            metadata: { name: crm-agent }
            spec:
              tools: ["tool:crm__patch@4"]
            """;

    @TempDir
    Path dir;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int run(String... args) {
        out.reset();
        err.reset();
        return new ReleaseCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Clock.fixed(NOW, ZoneOffset.UTC)).run(args);
    }

    String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    String line(String key) {
        return out().lines().filter(l -> l.startsWith(key + " ")).findFirst().orElseThrow().substring(key.length() + 1);
    }

    Path keygen(String name) {
        assertEquals(0, run("release", "keygen", "--out", dir.resolve(name).toString()), err.toString());
        return dir.resolve(name);
    }

    @Test
    void keygenWritesAnOwnerOnlySeedAndPrintsItsKeyId() throws IOException {
        Path key = keygen("approver.key");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(key)));
        Ed25519SigningKey read = Ed25519SigningKey.fromFile(key);
        String spec = out().strip();
        assertEquals(SignerKeys.spec(read.publicKey()), spec);
        assertEquals(1, SignerKeys.parse(List.of(spec)).asMap().size()); // what a tenant's trust keys take
        assertFalse(err.toString().contains(Files.readString(key).strip())); // the seed is never printed
    }

    @Test
    void keygenNeverOverwrites() throws IOException {
        Path key = keygen("k");
        byte[] before = Files.readAllBytes(key);
        assertEquals(1, run("release", "keygen", "--out", key.toString()));
        assertTrue(err.toString().contains("exists"), err.toString());
        assertArrayEquals(before, Files.readAllBytes(key));
        assertEquals(2, run("release", "keygen", "--out", dir.resolve("no/such/dir/k").toString()));
        assertEquals(2, run("release", "keygen"));
        assertEquals(2, run("release", "keygen", "--out", dir.resolve("x").toString(), "--force"));
    }

    @Test
    void certifyWritesACertificationTheVerifierAccepts() throws IOException {
        Path key = keygen("k");
        String trust = out().strip();
        Path manifest = Files.writeString(dir.resolve("release.yaml"), MANIFEST);
        Path cert = dir.resolve("release.cert.dsse.json");
        assertEquals(0, run("release", "certify", "--manifest", manifest.toString(), "--key", key.toString(),
                "--environment", "production", "--expires", "12h", "--out", cert.toString()), err.toString());
        String release = ReleaseManifest.read(manifest).releaseHash();
        assertEquals(release, line("release"));
        assertEquals("2025-06-01T12:00:00Z 2025-06-02T00:00:00Z", line("valid"));
        CertificationVerifier v = new CertificationVerifier(SignerKeys.parse(List.of(trust)), Set.of(), Set.of(),
                "production", Duration.ZERO, Clock.fixed(NOW.plusSeconds(60), ZoneOffset.UTC));
        CertificationVerifier.Certified c = assertInstanceOf(CertificationVerifier.Certified.class,
                v.verify(Files.readAllBytes(cert), release));
        assertEquals(c.statementDigest(), line("statement")); // the digest printed is the one revocation takes
        assertEquals(c.keyid(), line("keyid"));
        // revoking the printed digest refuses it
        CertificationVerifier revoked = new CertificationVerifier(SignerKeys.parse(List.of(trust)), Set.of(line("statement")),
                Set.of(), "production", Duration.ZERO, Clock.fixed(NOW.plusSeconds(60), ZoneOffset.UTC));
        assertEquals("statement_revoked", ((CertificationVerifier.Refused) revoked.verify(Files.readAllBytes(cert), release))
                .reason());
    }

    @Test
    void certifyWindowOptions() throws IOException {
        Path key = keygen("k");
        Path manifest = Files.writeString(dir.resolve("m.yaml"), MANIFEST);
        assertEquals(0, run("release", "certify", "--manifest", manifest.toString(), "--key", key.toString(),
                "--environment", "staging", "--not-before", "2025-07-01T00:00:00+02:00", "--not-after",
                "2025-08-01T00:00:00Z", "--out", dir.resolve("a.json").toString()), err.toString());
        assertEquals("2025-06-30T22:00:00Z 2025-08-01T00:00:00Z", line("valid"));
        assertEquals(0, run("release", "certify", "--manifest", manifest.toString(), "--key", key.toString(),
                "--environment", "staging", "--out", dir.resolve("b.json").toString()), err.toString());
        assertEquals("2025-06-01T12:00:00Z 2025-07-01T12:00:00Z", line("valid")); // 30 days by default
        assertEquals(0, run("release", "certify", "--manifest", manifest.toString(), "--key", key.toString(),
                "--environment", "staging", "--expires", "PT15M", "--out", dir.resolve("c.json").toString()));
        assertEquals("2025-06-01T12:00:00Z 2025-06-01T12:15:00Z", line("valid"));
    }

    @Test
    void certifyRefusalsAndUsage() throws IOException {
        Path key = keygen("k");
        Path manifest = Files.writeString(dir.resolve("m.yaml"), MANIFEST);
        Path cert = dir.resolve("c.json");
        String[] base = {"release", "certify", "--manifest", manifest.toString(), "--key", key.toString(), "--environment",
            "production", "--out", cert.toString()};
        assertEquals(0, run(base));
        byte[] first = Files.readAllBytes(cert);
        assertEquals(1, run(base)); // never over an existing certification
        assertArrayEquals(first, Files.readAllBytes(cert));

        Path bad = Files.writeString(dir.resolve("bad.yaml"), MANIFEST + "  extra: 1\n");
        assertEquals(1, run("release", "certify", "--manifest", bad.toString(), "--key", key.toString(), "--environment",
                "production", "--out", dir.resolve("d.json").toString()));
        assertTrue(err.toString().contains("spec.extra"), err.toString());
        assertFalse(Files.exists(dir.resolve("d.json")));
        assertEquals(1, run("release", "certify", "--manifest", manifest.toString(), "--key", key.toString(),
                "--environment", "prod uction", "--out", dir.resolve("d.json").toString()));
        assertEquals(1, run("release", "certify", "--manifest", manifest.toString(), "--key", key.toString(),
                "--environment", "production", "--not-before", "2025-07-01T00:00:00Z", "--not-after",
                "2025-06-01T00:00:00Z", "--out", dir.resolve("d.json").toString()));
        assertEquals(2, run("release", "certify", "--manifest", manifest.toString(), "--key", dir.resolve("none").toString(),
                "--environment", "production", "--out", dir.resolve("d.json").toString()));
        assertEquals(2, run("release", "certify", "--manifest", manifest.toString(), "--key", key.toString(),
                "--environment", "production", "--expires", "1w", "--out", dir.resolve("d.json").toString()));
        assertEquals(2, run("release", "certify", "--manifest", manifest.toString(), "--key", key.toString(),
                "--environment", "production", "--expires", "1h", "--not-after", "2026-01-01T00:00:00Z", "--out",
                dir.resolve("d.json").toString()));
        assertEquals(2, run("release", "certify", "--manifest", manifest.toString(), "--key", key.toString(), "--out",
                dir.resolve("d.json").toString()));
        assertFalse(Files.exists(dir.resolve("d.json")));
    }

    @Test
    void hashPrintsTheReleaseHashAlikeForYamlAndJson() throws IOException {
        Path yaml = Files.writeString(dir.resolve("m.yaml"), MANIFEST);
        Path json = Files.writeString(dir.resolve("m.json"), "{\"metadata\":{\"name\":\"crm-agent\"},\"kind\":\"Release\","
                + "\"spec\":{\"tools\":[\"tool:crm__patch@4\"]},\"apiVersion\":\"cloakgate.dev/v1alpha1\"}");
        assertEquals(0, run("release", "hash", "--manifest", yaml.toString()));
        String hash = out().strip();
        assertTrue(hash.matches("sha256:[0-9a-f]{64}"), hash);
        assertEquals(0, run("release", "hash", "--manifest", json.toString()));
        assertEquals(hash, out().strip());
        assertEquals(1, run("release", "hash", "--manifest", Files.writeString(dir.resolve("b.yaml"), "kind: Release\n")
                .toString()));
        assertEquals(2, run("release", "hash", "--manifest", dir.resolve("absent.yaml").toString()));
        assertEquals(2, run("release", "hash"));
        assertEquals(2, run("release", "hash", "--manifest", yaml.toString(), "--contract", yaml.toString()));
        assertEquals(2, run("release", "frobnicate"));
        assertEquals(2, run("release"));
    }

    @Test
    void hashOfAContractPrintsTheReferenceTheReleaseBinds() throws IOException {
        String text = "apiVersion: cloakpipe.co/v1alpha1\nkind: ToolContract\nmetadata: { name: crm-tools }\nspec:\n"
                + "  tools:\n    crm__patch:\n      arguments:\n        record: { type: string }\n";
        Path contract = Files.writeString(dir.resolve("contract.yaml"), text);
        assertEquals(0, run("release", "hash", "--contract", contract.toString()));
        assertEquals(dev.cloakgate.gate.ToolContract.parse(text.getBytes(java.nio.charset.StandardCharsets.UTF_8), "c")
                .reference(), out().strip());
        assertTrue(out().strip().matches("policy:crm-tools@sha256:[0-9a-f]{64}"), out());
        assertEquals(1, run("release", "hash", "--contract", Files.writeString(dir.resolve("bad.yaml"),
                text.replace("type: string", "tpye: string")).toString()));
        assertEquals(2, run("release", "hash", "--contract", dir.resolve("absent.yaml").toString()));
    }

    @Test
    void toolsDigestReadsAToolsListResult() throws IOException {
        String tools = "[{\"name\":\"b\",\"inputSchema\":{\"type\":\"object\"}},{\"name\":\"a\",\"inputSchema\":{}}]";
        Path bare = Files.writeString(dir.resolve("t.json"), tools);
        Path result = Files.writeString(dir.resolve("r.json"), "{\"tools\":" + tools + "}");
        Path response = Files.writeString(dir.resolve("s.json"), "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":"
                + tools + "}}");
        assertEquals(0, run("release", "tools-digest", "--tools", bare.toString()));
        String digest = out().strip();
        assertTrue(digest.matches("sha256:[0-9a-f]{64}"));
        assertEquals(0, run("release", "tools-digest", "--tools", result.toString()));
        assertEquals(digest, out().strip());
        assertEquals(0, run("release", "tools-digest", "--tools", response.toString()));
        assertEquals(digest, out().strip());
        assertEquals(1, run("release", "tools-digest", "--tools", Files.writeString(dir.resolve("x.json"), "{\"x\":1}")
                .toString()));
    }

    @Test
    void mainRoutesReleaseToTheCommand() {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        assertEquals(2, Main.command(new PrintStream(o), new PrintStream(e), "release", "bogus"));
        assertTrue(e.toString().contains("release keygen --out FILE"));
        assertTrue(Main.USAGE.contains("release certify"));
    }
}
