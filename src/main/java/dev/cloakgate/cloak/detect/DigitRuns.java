package dev.cloakgate.cloak.detect;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds digit groups separated by single spaces or dashes (4111 1111-1111 1111), not glued to letters or
 * digits on either side, and offers the consumer windows of consecutive groups whose digit count fits: the
 * longest first from each group, so a list of card numbers separated by spaces yields each number.
 */
final class DigitRuns {

    interface Consumer {
        /** True when the candidate was taken (scanning resumes after it). */
        boolean accept(int start, int end, CharSequence digits);
    }

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
                char d = s.charAt(q);
                if (Chars.digit(d)) {
                    runDigits++;
                    q++;
                } else if ((d == ' ' || d == '-') && q + 1 < n && Chars.digit(s.charAt(q + 1))) {
                    q++;
                } else {
                    break;
                }
            }
            if (runDigits < minDigits) {
                i = q;
                continue;
            }
            groups.clear();
            int j = i;
            while (j < n) {
                int g = j;
                while (j < n && Chars.digit(s.charAt(j))) {
                    j++;
                }
                groups.add(new int[] { g, j });
                if (j + 1 < n && (s.charAt(j) == ' ' || s.charAt(j) == '-') && Chars.digit(s.charAt(j + 1))) {
                    j++;
                } else {
                    break;
                }
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
                    if (end == runEnd && gluedEnd) {
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

    private static int len(int[] group) {
        return group[1] - group[0];
    }
}
