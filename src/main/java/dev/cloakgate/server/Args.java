package dev.cloakgate.server;

/** The small parsing the admin commands and the export route share. */
public final class Args {
    private Args() {
    }

    /** The value after {@code name}, or null when the option is absent. */
    static String option(String[] args, String name) {
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return null;
    }

    /** An entry number (non-negative), {@code fallback} when absent; NumberFormatException otherwise. */
    public static long seq(String text, long fallback) {
        if (text == null || text.isEmpty()) {
            return fallback;
        }
        long v = Long.parseLong(text);
        if (v < 0) {
            throw new NumberFormatException("negative");
        }
        return v;
    }
}
