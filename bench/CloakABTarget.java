import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.cloak.Cloaking;
import dev.cloakgate.cloak.Detection;
import dev.cloakgate.cloak.DetectionFactory;
import dev.cloakgate.evidence.Evidence;
import dev.cloakgate.tenant.DetectionSettings;
import dev.cloakgate.tenant.TokenScope;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * One build's side of {@code bench/cloak-ab.sh}: compiled against that build's classes and loaded in its own class
 * loader by {@link CloakAB}, it hands back the cloak's real path ({@code Cloak.toAgent} of a tools/call result, a
 * fresh session per call, as {@code CloakBench} measures it) as a plain {@code Consumer<String>} of the text.
 */
public final class CloakABTarget {
    private static final ObjectMapper M = new ObjectMapper();

    private CloakABTarget() {
    }

    /** {@code config}: "regex+PERSON" or "regex-only". */
    public static Consumer<String> cloaker(String config) throws Exception {
        boolean person = config.equals("regex+PERSON");
        DetectionSettings s = DetectionSettings.defaults();
        s = new DetectionSettings(s.emails(), s.phoneNumbers(), s.creditCards(), s.ibans(), s.usSsns(),
                s.ipAddresses(), s.secrets(), person ? Set.of("PERSON") : Set.of(), null, Map.of(), s.phoneRegions(),
                s.keyHints());
        Detection d = new DetectionFactory().build(s);
        Cloaking cloaking = new Cloaking("bench", d, TokenScope.SESSION, 1_000_000, new SimpleMeterRegistry(),
                Evidence.NONE);
        return text -> {
            ObjectNode result = M.createObjectNode();
            result.putArray("content").addObject().put("type", "text").put("text", text);
            cloaking.session("s").toAgent("crm", "tools/call", result);
        };
    }
}
