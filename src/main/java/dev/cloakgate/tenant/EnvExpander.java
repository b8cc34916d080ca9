package dev.cloakgate.tenant;

import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Expands {@code ${env:NAME}} from the gateway's own environment, at load time, so a missing variable stops the
 * tenant from loading instead of sending an empty credential upstream.
 */
public final class EnvExpander {
    private static final Pattern REF = Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");
    private final Function<String, String> environment;

    public EnvExpander(Function<String, String> environment) {
        this.environment = environment;
    }

    public static EnvExpander ofSystem() {
        return new EnvExpander(System::getenv);
    }

    public static EnvExpander of(Map<String, String> env) {
        return new EnvExpander(env::get);
    }

    /** @throws IllegalArgumentException naming the variable that is not set */
    public String expand(String value) {
        if (value.indexOf("${") < 0) {
            return value;
        }
        Matcher m = REF.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String v = environment.apply(m.group(1));
            if (v == null) {
                throw new IllegalArgumentException("environment variable " + m.group(1) + " is not set");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(v));
        }
        m.appendTail(out);
        return out.toString();
    }
}
