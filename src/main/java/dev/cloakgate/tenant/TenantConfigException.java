package dev.cloakgate.tenant;

import java.util.List;

/**
 * One or more tenant files that cannot be used, each problem naming its file and the JSON path of the offending key.
 * A file is read to the end and every problem reported at once (unknown keys first: a typo usually explains what
 * follows), so an operator fixes a file in one pass rather than one error per start.
 */
public final class TenantConfigException extends Exception {
    /** One thing to fix: where, and what. Never the offending value (a tenant file holds credentials). */
    public record Problem(String file, String path, String message) {
        @Override
        public String toString() {
            return file + ": " + path + ": " + message;
        }
    }

    private final List<Problem> problems;

    public TenantConfigException(String file, String path, String problem) {
        this(List.of(new Problem(file, path, problem)));
    }

    public TenantConfigException(List<Problem> problems) {
        super(message(problems));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a configuration error needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    private static String message(List<Problem> problems) {
        if (problems.size() == 1) {
            return problems.get(0).toString();
        }
        StringBuilder b = new StringBuilder(problems.size() + " problems:");
        problems.forEach(p -> b.append("\n  ").append(p));
        return b.toString();
    }

    /** Every problem, in the order to read them. */
    public List<Problem> problems() {
        return problems;
    }

    /** The first problem's file. */
    public String file() {
        return problems.get(0).file();
    }

    /** The first problem's JSON path. */
    public String path() {
        return problems.get(0).path();
    }
}
