package dev.cloakgate.cloak.detect;

import java.util.List;

import dev.cloakgate.cloak.Category;
import dev.cloakgate.cloak.Finding;
import dev.cloakgate.cloak.NormalizedText;

/**
 * US Social Security numbers written {@code 123-45-6789}, {@code 123 45 6789} or {@code 123.45.6789}, with the
 * ranges the SSA never issues rejected: area 000, 666 and 900-999, group 00, serial 0000. A bare nine-digit run
 * is too common to take without a key that names it, unless invisible characters split it where the dashes go
 * ({@code 123<ZWSP>45<ZWSP>6789}): that is an SSN disguised, not a count.
 */
public final class UsSsnDetector implements Detector {

    @Override
    public Category category() {
        return Category.US_SSN;
    }

    @Override
    public void detect(NormalizedText view, List<Finding> out) {
        String s = view.text();
        detect(s, out);
        if (!view.removedAny()) {
            return;
        }
        // nine digits that invisible characters split 3-2-4
        int n = s.length();
        int i = 0;
        while (i < n) {
            if (!Chars.digit(s.charAt(i))) {
                i++;
                continue;
            }
            int end = i;
            while (end < n && Chars.digit(s.charAt(end))) {
                end++;
            }
            if (end - i == 9 && (i == 0 || !Chars.wordish(s.charAt(i - 1))) && !Chars.wordAt(s, end)
                    && view.invisibleBefore(i + 3) && view.invisibleBefore(i + 5)
                    && validRanges(num(s, i, 3), num(s, i + 3, 2), num(s, i + 5, 4))) {
                out.add(new Finding(Category.US_SSN, i, end));
            }
            i = end;
        }
    }

    @Override
    public void detect(String s, List<Finding> out) {
        int n = s.length();
        for (int i = 0; i + 11 <= n; i++) {
            if (!Chars.digit(s.charAt(i)) || (i > 0 && (notUnderscoreWord(s.charAt(i - 1)) || s.charAt(i - 1) == '-'
                    || (s.charAt(i - 1) == '.' && i > 1 && Chars.digit(s.charAt(i - 2)))))) {
                continue;
            }
            char sep = s.charAt(i + 3);
            if ((sep != '-' && sep != ' ' && sep != '.') || s.charAt(i + 6) != sep) {
                continue;
            }
            if (!digits(s, i, 3) || !digits(s, i + 4, 2) || !digits(s, i + 7, 4)) {
                continue;
            }
            int end = i + 11;
            if (end < n && (notUnderscoreWord(s.charAt(end)) || ((s.charAt(end) == '-' || s.charAt(end) == '.')
                    && end + 1 < n && Chars.digit(s.charAt(end + 1))))) {
                continue;
            }
            if (validRanges(num(s, i, 3), num(s, i + 4, 2), num(s, i + 7, 4))) {
                out.add(new Finding(Category.US_SSN, i, end));
                i = end - 1;
            }
        }
    }

    @Override
    public boolean acceptsHinted(String value) {
        String d = value.replaceAll("[\\s.-]", "");
        return d.length() == 9 && d.chars().allMatch(Character::isDigit)
                && validRanges(Integer.parseInt(d.substring(0, 3)), Integer.parseInt(d.substring(3, 5)),
                        Integer.parseInt(d.substring(5)));
    }

    /** Letters and digits glue; an underscore separates (ssn_card_520-63-7741.png). */
    private static boolean notUnderscoreWord(char c) {
        return c != '_' && Chars.wordish(c);
    }

    static boolean validRanges(int area, int group, int serial) {
        return area != 0 && area != 666 && area < 900 && group != 0 && serial != 0;
    }

    private static boolean digits(String s, int from, int count) {
        for (int i = from; i < from + count; i++) {
            if (!Chars.digit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static int num(String s, int from, int count) {
        int v = 0;
        for (int i = from; i < from + count; i++) {
            v = v * 10 + (s.charAt(i) - '0');
        }
        return v;
    }
}
