package dev.cloakgate.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;

/** Issue 15: {@code ledger.witnesses} reaches the gateway as {@code cloakgate.ledger.witnesses} (one comma-separated env). */
class HelmWitnessesTest {
    @TempDir
    Path tmp;

    private static Map<String, EnvVar> env(Path values) {
        StatefulSet sts = HelmChart.render("gw", "team-a", values).one(StatefulSet.class);
        return HelmChartTest.env(HelmChartTest.onlyContainer(sts.getSpec().getTemplate().getSpec()));
    }

    @Test
    void witnessesBecomeTheGatewaysSetting() throws Exception {
        // none by default, so the defaults render as before (and as deploy/kubernetes/base)
        assertFalse(env(null).containsKey("CLOAKGATE_LEDGER_WITNESSES"));
        assertFalse(env(null).containsKey("CLOAKGATE_LEDGER_WITNESS_TIMEOUT"));
        Path values = tmp.resolve("witnesses.yaml");
        Files.writeString(values, """
                ledger:
                  witnesses:
                    - "w.example/a+01020304+BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA@https://w.example/a"
                    - "w.example/b+05060708+BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA@https://w.example/b"
                  witnessTimeout: 5s
                """);
        Map<String, EnvVar> env = env(values);
        assertEquals("w.example/a+01020304+BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA@https://w.example/a,"
                + "w.example/b+05060708+BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA@https://w.example/b",
                env.get("CLOAKGATE_LEDGER_WITNESSES").getValue());
        assertEquals("5s", env.get("CLOAKGATE_LEDGER_WITNESS_TIMEOUT").getValue());
    }
}
