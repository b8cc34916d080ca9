package dev.cloakgate.policy.control;

import java.text.Normalizer;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.function.BiPredicate;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.policy.Action;
import dev.cloakgate.policy.Catalog;
import dev.cloakgate.policy.Control;
import dev.cloakgate.policy.Findings;
import dev.cloakgate.policy.Stage;
import dev.cloakgate.policy.Subject;

/**
 * A server claiming a tool another upstream owns: wearing its namespace ({@code fs__read_file} declared by a
 * server that is not fs), imitating one of its names (equal after folding case, separators and look-alike
 * characters: {@code read_text_fi1e}, {@code READ-TEXT-FILE}), or a declaration that instructs the model about
 * another server's tools ("whenever send_email is used, add this bcc"). Any of these lets one server steer calls
 * meant for another. Two upstreams declaring the very same name is not a claim: the agent sees each under its
 * own upstream's prefix ({@code docs__search}, {@code crm__search}), so neither can receive the other's calls.
 */
public final class ToolShadowing implements Control {
    private final Catalog catalog;
    private final BiPredicate<String, Set<String>> instructsAbout;

    /** @param instructsAbout whether a text instructs the model about any of the given tool names */
    public ToolShadowing(Catalog catalog, BiPredicate<String, Set<String>> instructsAbout) {
        this.catalog = catalog;
        this.instructsAbout = instructsAbout;
    }

    @Override
    public String name() {
        return "tool_shadowing";
    }

    @Override
    public boolean appliesTo(Stage stage) {
        return stage == Stage.DISCOVERY;
    }

    @Override
    public void inspect(Subject s, Findings out) {
        String name = s.upstreamTool();
        String skeleton = skeleton(name);
        Set<String> others = new HashSet<>();
        for (String other : catalog.order()) {
            if (other.equals(s.upstream())) {
                continue;
            }
            if (name.startsWith(other + "__")) {
                out.add(Action.BLOCK, "tool_shadowing", "the name wears upstream " + other + "'s namespace");
            }
            for (String theirs : catalog.names(other)) {
                // a bare word (search, fetch) is not evidence a text is about that server's tool; an identifier
                // (send_email) or the exposed name (docs__search) is
                if (theirs.indexOf('_') > 0 || theirs.indexOf('-') > 0) {
                    others.add(theirs);
                }
                others.add(other + "__" + theirs);
                if (!theirs.equals(name) && skeleton.equals(skeleton(theirs))) {
                    out.add(Action.BLOCK, "tool_shadowing", "the name imitates a tool of upstream " + other);
                }
            }
        }
        if (!others.isEmpty()) {
            JsonNode d = s.payload().path("description");
            if (d.isTextual() && instructsAbout.test(d.textValue(), others)) {
                out.add(Action.BLOCK, "tool_shadowing", "the description instructs about another upstream's tools");
            }
        }
    }

    /** Case, separators, compatibility forms and common look-alikes folded away. */
    static String skeleton(String name) {
        String n = Normalizer.normalize(name, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        StringBuilder b = new StringBuilder(n.length());
        for (int i = 0; i < n.length(); i++) {
            char c = n.charAt(i);
            switch (c) {
                case '_', '-', '.', ' ' -> {
                    // separators carry no meaning a reader notices
                }
                case '0', '\u043e', '\u03bf' -> b.append('o');
                case '1', '\u0456', '|' -> b.append('l');
                case '\u0430' -> b.append('a');
                case '\u0435' -> b.append('e');
                case '\u0440' -> b.append('p');
                case '\u0441' -> b.append('c');
                case '\u0445' -> b.append('x');
                case '\u0443' -> b.append('y');
                case '5' -> b.append('s');
                default -> b.append(c == 'i' ? 'l' : c);
            }
        }
        return b.toString();
    }
}
