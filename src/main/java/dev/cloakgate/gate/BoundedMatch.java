package dev.cloakgate.gate;

import java.util.regex.Pattern;

/**
 * A contract's {@code pattern} as an anchored full match, with a budget of steps. The contract's author is trusted
 * but the value is the agent's: a pattern that backtracks badly ({@code (a+)+$}) must not let one argument hold a
 * gateway thread for minutes. The matcher reads the text through a counter; past the budget (linear in the text's
 * length) the match is abandoned and counts as a mismatch, so the call is refused, never let through.
 */
final class BoundedMatch {
    private BoundedMatch() {
    }

    private static final class Exhausted extends RuntimeException {
        Exhausted() {
            super(null, null, false, false);
        }
    }

    private static final class Counted implements CharSequence {
        private final String text;
        private final int from;
        private final int to;
        private final long[] left;

        Counted(String text, int from, int to, long[] left) {
            this.text = text;
            this.from = from;
            this.to = to;
            this.left = left;
        }

        @Override
        public int length() {
            return to - from;
        }

        @Override
        public char charAt(int index) {
            if (--left[0] < 0) {
                throw new Exhausted();
            }
            return text.charAt(from + index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new Counted(text, from + start, from + end, left);
        }

        @Override
        public String toString() {
            return text.substring(from, to);
        }
    }

    static boolean matches(Pattern pattern, String text, long budget) {
        try {
            return pattern.matcher(new Counted(text, 0, text.length(), new long[] {budget})).matches();
        } catch (Exhausted | StackOverflowError tooCostly) {
            // java.util.regex recurses per repetition of some groups: a long value can overflow the stack
            return false;
        }
    }
}
