package dev.cloakgate.policy.control;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.cloakgate.cloak.Finding;
import dev.cloakgate.cloak.detect.SecretDetector;
import dev.cloakgate.policy.Action;
import dev.cloakgate.policy.Control;
import dev.cloakgate.policy.Findings;
import dev.cloakgate.policy.Stage;
import dev.cloakgate.policy.Subject;
import dev.cloakgate.policy.Texts;

/**
 * Credential-shaped values are redacted, not refused: the rest of the call or result is legitimate work, and a
 * refusal teaches the operator to switch the control off. Uses the cloak's secret detector (issuer formats and
 * key-named assignments), so a bare 64-hex string, which is far more often a digest, is not a secret.
 */
public final class SecretDisclosure implements Control {
    static final String MARK = "[REDACTED:SECRET]";
    private final SecretDetector detector = new SecretDetector();

    @Override
    public String name() {
        return "secret_disclosure";
    }

    @Override
    public boolean appliesTo(Stage stage) {
        return stage == Stage.REQUEST || stage == Stage.RESPONSE;
    }

    @Override
    public void inspect(Subject s, Findings out) {
        Texts.visit(s.payload(), (pointer, key, text) -> {
            List<Finding> found = new ArrayList<>();
            detector.detect(text, found);
            if (found.isEmpty()) {
                return null;
            }
            found.sort(Comparator.comparingInt(Finding::start));
            StringBuilder b = new StringBuilder(text.length());
            int at = 0;
            for (Finding f : found) {
                if (f.start() < at) {
                    continue;
                }
                b.append(text, at, f.start()).append(MARK);
                at = f.end();
            }
            b.append(text, at, text.length());
            out.add(Action.REDACT, "secret_redacted", pointer + ": " + found.size() + " credential-shaped value(s)");
            return b.toString();
        });
    }
}
