package dev.cloakgate.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Issue 15, witness cosigning: a gateway with one tenant ({@code witnessed}, the real filesystem server) whose
 * checkpoints go to two witnesses: {@link TestWitness} {@code witness.test/a}, and {@code witness.test/b} whose
 * URL nobody listens on (a witness that is down). Published as {@code test.witness.*} system properties.
 */
public class WitnessedGateway implements QuarkusTestResourceLifecycleManager {
    private TestWitness witness;

    @Override
    public Map<String, String> start() {
        NodeFixtures.requireInstalled();
        try {
            Path root = Files.createTempDirectory("cloakgate-witness-");
            Path tenants = Files.createDirectories(root.resolve("tenants"));
            Path fsRoot = Files.createDirectories(root.resolve("fsroot"));
            Files.writeString(fsRoot.resolve("hello.txt"), "Hello from the witnessed tenant.\n");
            Upstreams.tenant(tenants, "witnessed", "prefix",
                    Map.of("fs", Upstreams.stdio(NodeFixtures.FILESYSTEM.toString(), fsRoot.toString())), Map.of("sanitize", false));
            witness = TestWitness.start("witness.test/a");
            String down = TestWitness.otherVkey("witness.test/b");
            System.setProperty("test.witness.control", witness.controlUrl());
            System.setProperty("test.witness.vkey", witness.vkey());
            System.setProperty("test.witness.down.vkey", down);
            System.setProperty("test.witness.fs.root", fsRoot.toString());
            Map<String, String> config = new HashMap<>();
            config.put("cloakgate.tenants-dir", tenants.toString());
            config.put("cloakgate.data-dir", root.resolve("data").toString());
            config.put("cloakgate.ledger.witnesses", witness.vkey() + "@" + witness.url() + "," + down + "@http://127.0.0.1:"
                    + NodeFixtures.freePort() + "/w");
            // generous: an export waits for the witnesses only as long as they take, at most this
            config.put("cloakgate.ledger.witness-timeout", "30s");
            return config;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void stop() {
        if (witness != null) {
            witness.close();
        }
    }
}
