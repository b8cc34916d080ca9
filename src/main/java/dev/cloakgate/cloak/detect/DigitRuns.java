package dev.cloakgate.cloak.detect;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds digit groups separated by single spaces, dashes or dots, or by a line break (4111 1111-1111 1111, a
 * number wrapped over two lines), not glued to letters or digits on either side, and offers the consumer windows
 * of consecutive groups whose digit count fits: the longest first from each group, so a list of card numbers
 * separated by spaces yields each number. Dots and line breaks also separate versions, decimals and columns of
 * figures, so a window they join must be grouped as a card is printed (4-4-4-4, 4-6-5...); one joined only by
 * line breaks must be the whole run, not a stretch of a longer column.
 */
final class DigitRuns {

    interface Consumer {
        /** True when the candidate was taken (scanning resumes after it). */
        boolean accept(int start, int end, CharSequence digits);
    }

    /** What joins a group to the one before it. */
    private static final int PLAIN = 0;
    private static final int DOT = 1;
    private static final int LINE = 2;
    /** A line break may carry this much around it: a trailing space or dash, indentation on the next line. */
    private static final int MAX_LINE_SEPARATOR = 8;

    private DigitRuns() {
    }

    static void scan(String s, int minDigits, int maxDigits, Consumer consumer) {
        int n = s.length();
        int i = 0;
        List<int[]> groups = new ArrayList<>();
        StringBuilder digits = new StringBuilder(24);
        while (i < n) {
            char c = s.charAt(i);
            if (!Chars.digit(c) || (i > 0 && (Chars.asciiLetter(s.charAt(i - 1)) || Chars.digit(s.charAt(i - 1))))) {
                i++;
                continue;
            }
            // quick pass: most digit runs in text are short and never reach minDigits
            int runDigits = 0;
            int q = i;
            while (q < n) {
                if (Chars.digit(s.charAt(q))) {
                    runDigits++;
                    q++;
                    continue;
                }
                int next = separatorEnd(s, q);
                if (next < 0) {
                    break;
                }
                q = next;
            }
            if (runDigits < minDigits) {
                i = q;
                continue;
            }
            groups.clear();
            int j = i;
            int joinedBy = PLAIN;
            while (j < n) {
                int g = j;
                while (j < n && Chars.digit(s.charAt(j))) {
                    j++;
                }
                groups.add(new int[] { g, j, joinedBy });
                int next = separatorEnd(s, j);
                if (next < 0) {
                    break;
                }
                joinedBy = kind(s, j, next);
                j = next;
            }
            int runEnd = groups.get(groups.size() - 1)[1];
            boolean gluedEnd = runEnd < n && (Chars.asciiLetter(s.charAt(runEnd)) || s.charAt(runEnd) == '_');
            int g = 0;
            while (g < groups.size()) {
                int taken = -1;
                int total = 0;
                int last = g;
                while (last < groups.size() && total + len(groups.get(last)) <= maxDigits) {
                    total += len(groups.get(last));
                    last++;
                }
                for (int k = last - 1; k >= g && taken < 0; k--) {
                    int count = 0;
                    for (int x = g; x <= k; x++) {
                        count += len(groups.get(x));
                    }
                    if (count < minDigits) {
                        break;
                    }
                    int end = groups.get(k)[1];
                    if ((end == runEnd && gluedEnd) || !joinsAsPrinted(groups, g, k)) {
                        continue;
                    }
                    digits.setLength(0);
                    for (int x = g; x <= k; x++) {
                        digits.append(s, groups.get(x)[0], groups.get(x)[1]);
                    }
                    if (consumer.accept(groups.get(g)[0], end, digits)) {
                        taken = k;
                    }
                }
                g = taken >= 0 ? taken + 1 : g + 1;
            }
            i = runEnd;
        }
    }

    /**
     * Groups {@code g..k} joined only by spaces and dashes may be grouped any way (as before); a dot or a line
     * break among the joins asks for a card's printed grouping, and line breaks alone for the whole run.
     */
    private static boolean joinsAsPrinted(List<int[]> groups, int g, int k) {
        boolean dot = false;
        boolean line = false;
        boolean plain = false;
        for (int x = g + 1; x <= k; x++) {
            int by = groups.get(x)[2];
            dot |= by == DOT;
            line |= by == LINE;
            plain |= by == PLAIN;
        }
        if (!dot && !line) {
            return true;
        }
        if (line && !plain && !dot && (g != 0 || k != groups.size() - 1)) {
            return false;
        }
        int parts = k - g + 1;
        int[] lens = new int[parts];
        for (int x = 0; x < parts; x++) {
            lens[x] = len(groups.get(g + x));
        }
        if (parts == 3 && lens[0] == 4 && lens[1] == 6 && (lens[2] == 5 || lens[2] == 4)) {
            return true; // American Express 4-6-5, Diners Club 4-6-4
        }
        if (parts < 4) {
            return false;
        }
        for (int x = 0; x < parts - 1; x++) {
            if (lens[x] != 4) {
                return false;
            }
        }
        return lens[parts - 1] >= 1 && lens[parts - 1] <= 4;
    }

    /**
     * The end of the separator at {@code j} when a digit follows it: one space, dash or dot, or a line break with
     * at most a space or dash before it and indentation after it. -1 when there is none.
     */
    static int separatorEnd(String s, int j) {
        int n = s.length();
        if (j + 1 >= n) {
            return -1;
        }
        char c = s.charAt(j);
        if ((c == ' ' || c == '-' || c == '.') && Chars.digit(s.charAt(j + 1))) {
            return j + 1;
        }
        int k = j;
        if (c == ' ' || c == '-') {
            k++;
        }
        if (k < n && s.charAt(k) == '\r') {
            k++;
        }
        if (k < n && s.charAt(k) == '\n') {
            k++;
        } else if (k == j || s.charAt(k - 1) != '\r') {
            return -1;
        }
        while (k < n && k - j < MAX_LINE_SEPARATOR && (s.charAt(k) == ' ' || s.charAt(k) == '\t')) {
            k++;
        }
        return k < n && Chars.digit(s.charAt(k)) ? k : -1;
    }

    private static int kind(String s, int from, int to) {
        if (to - from > 1 || s.charAt(from) == '\n' || s.charAt(from) == '\r') {
            return LINE;
        }
        return s.charAt(from) == '.' ? DOT : PLAIN;
    }

    private static int len(int[] group) {
        return group[1] - group[0];
    }
}
