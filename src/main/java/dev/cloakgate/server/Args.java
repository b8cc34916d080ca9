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

    /**
     * The first argument from {@code from} on that is not one of {@code valued} (followed by its value) nor one of
     * {@code flags}, or null when every one is known: a command refuses what it does not know (a typo, {@code --help})
     * instead of ignoring it.
     */
    static String unexpected(String[] args, int from, java.util.Set<String> valued, java.util.Set<String> flags) {
        for (int i = from; i < args.length; i++) {
            if (valued.contains(args[i]) && i + 1 < args.length) {
                i++;
            } else if (!flags.contains(args[i])) {
                return args[i];
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
