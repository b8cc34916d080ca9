package dev.cloakgate.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A Dockerfile read the way the builder reads it, as far as the deploy tests need: comments and line continuations,
 * instructions with their flags ({@code --from}, {@code --chown}), exec-form (JSON) and shell-form arguments, and
 * the stages {@code FROM} opens. No container engine is needed (none runs where the tests run).
 */
record Dockerfile(List<Stage> stages) {

    record Instruction(String keyword, List<String> flags, String rest) {
        /** The value of a {@code --name=value} flag. */
        Optional<String> flag(String name) {
            return flags.stream().filter(f -> f.startsWith("--" + name + "="))
                    .map(f -> f.substring(name.length() + 3)).findFirst();
        }

        /** Exec form ({@code ["a", "b"]}) as its array; shell form split on blanks. */
        List<String> words() {
            String r = rest.strip();
            if (r.startsWith("[")) {
                try {
                    List<String> out = new ArrayList<>();
                    for (JsonNode n : new ObjectMapper().readTree(r)) {
                        out.add(n.asText());
                    }
                    return out;
                } catch (IOException e) {
                    throw new IllegalArgumentException(keyword + " is not a JSON array: " + r, e);
                }
            }
            return List.of(r.split("\\s+"));
        }

        boolean execForm() {
            return rest.strip().startsWith("[");
        }
    }

    /** One build stage: its base ({@code FROM image} or an earlier stage's name), its name, its instructions. */
    record Stage(String base, Optional<String> name, List<Instruction> instructions) {
        List<Instruction> all(String keyword) {
            return instructions.stream().filter(i -> i.keyword().equals(keyword)).toList();
        }

        Optional<Instruction> last(String keyword) {
            List<Instruction> found = all(keyword);
            return found.isEmpty() ? Optional.empty() : Optional.of(found.get(found.size() - 1));
        }
    }

    private static final Pattern FLAG = Pattern.compile("--[a-z-]+=\\S+");
    private static final Pattern FROM = Pattern.compile("(?i)(\\S+)(?:\\s+AS\\s+(\\S+))?");

    static Dockerfile parse(Path file) throws IOException {
        List<Stage> stages = new ArrayList<>();
        List<Instruction> current = null;
        for (String line : logicalLines(Files.readAllLines(file))) {
            String[] kw = line.split("\\s+", 2);
            String keyword = kw[0].toUpperCase(java.util.Locale.ROOT);
            String rest = kw.length > 1 ? kw[1] : "";
            List<String> flags = new ArrayList<>();
            Matcher m = FLAG.matcher(rest);
            while (m.lookingAt()) {
                flags.add(m.group());
                rest = rest.substring(m.end()).stripLeading();
                m = FLAG.matcher(rest);
            }
            if (keyword.equals("FROM")) {
                Matcher f = FROM.matcher(rest.strip());
                if (!f.matches()) {
                    throw new IllegalArgumentException("FROM without an image: " + line);
                }
                current = new ArrayList<>();
                stages.add(new Stage(f.group(1), Optional.ofNullable(f.group(2)), current));
            } else if (current == null) {
                if (!keyword.equals("ARG")) {
                    throw new IllegalArgumentException(keyword + " before the first FROM");
                }
            } else {
                current.add(new Instruction(keyword, List.copyOf(flags), rest));
            }
        }
        return new Dockerfile(List.copyOf(stages));
    }

    /** Drops comments and blank lines and joins lines continued with a trailing backslash. */
    private static List<String> logicalLines(List<String> physical) {
        List<String> out = new ArrayList<>();
        StringBuilder pending = new StringBuilder();
        for (String raw : physical) {
            String line = raw.strip();
            if (line.startsWith("#") || (line.isEmpty() && pending.isEmpty())) {
                continue;
            }
            if (line.endsWith("\\")) {
                pending.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            pending.append(line);
            out.add(pending.toString().strip());
            pending.setLength(0);
        }
        if (!pending.isEmpty()) {
            out.add(pending.toString().strip());
        }
        return out;
    }

    Stage finalStage() {
        return stages.get(stages.size() - 1);
    }

    Optional<Stage> stage(String name) {
        return stages.stream().filter(s -> s.name().filter(name::equals).isPresent()).findFirst();
    }

    /** A base that is an image (not an earlier stage of this file). */
    boolean isImage(String base) {
        return stage(base).isEmpty();
    }
}
