package dev.cloakgate.cloak.detect;

import java.util.Locale;
import java.util.Set;

/**
 * The word that introduces a number, read backwards from it: a label or a verb ("Phone:", "call me on",
 * "card number") is evidence of what the number is, the way a JSON key is. Between the cue and the number there
 * may be punctuation and at most a few connecting words ("me", "on", "no.", "de"), nothing else: in
 * "Order: 4673395" or "call about ticket 4815162342" the nearest word is no cue, so there is none. The look back
 * is bounded, so each number costs a constant.
 */
final class Cue {
    /** How far back the cue may start, in characters. */
    private static final int MAX_BACK = 40;
    /** Connecting words allowed between the cue and the number. */
    private static final int MAX_FILLERS = 3;

    private final Set<String> cues;
    private final Set<String> fillers;
    private final boolean afterHyphen;

    /**
     * @param cues lower-case words that say what the number is
     * @param fillers lower-case words that may connect a cue to its number
     * @param afterHyphen whether a cue may end a hyphenated word ("EC-Karte"); a street ("Kaiser-Wilhelm-Ring")
     *        is no verb
     */
    Cue(Set<String> cues, Set<String> fillers, boolean afterHyphen) {
        this.cues = cues;
        this.fillers = fillers;
        this.afterHyphen = afterHyphen;
    }

    /**
     * Whether a cue introduces the number starting at {@code start}. {@code chainEnd} is where a number this cue
     * already introduced ends (-1 if none): a list after one label ("Tel: 2345 6789 / 2345 6790") shares it.
     */
    boolean introduces(String s, int start, int chainEnd) {
        int floor = Math.max(0, start - MAX_BACK);
        int i = start;
        boolean spaced = false;
        for (int words = 0; words <= MAX_FILLERS; words++) {
            while (i > floor && glue(s.charAt(i - 1))) {
                i--;
                spaced |= s.charAt(i) == ' ' || s.charAt(i) == '/';
            }
            if (i == chainEnd && i < start) {
                return spaced; // "Tel: 2345 6789, 2345 6790", but not the next cell of "Tel:,0612345678,4673395"
            }
            int w = i;
            while (w > floor && Character.isLetter(s.charAt(w - 1))) {
                w--;
            }
            if (w == i || (w == floor && floor > 0)) {
                return false; // no word here, or one cut by the window
            }
            char before = w > 0 ? s.charAt(w - 1) : ' ';
            if (Chars.wordish(before)) {
                return false; // "3tel", "x_phone"
            }
            String word = s.substring(w, i).toLowerCase(Locale.ROOT);
            if (cues.contains(word)) {
                // a one-letter label ("T: 467 3395", "F: ...") only with its colon
                return (afterHyphen || before != '-') && (word.length() > 1 || (i < start && s.charAt(i) == ':'));
            }
            if (!fillers.contains(word)) {
                return false;
            }
            spaced = true;
            i = w;
        }
        return false;
    }

    /** Punctuation that may sit between a label and its value: "Tel.:", "(work)", "| Phone |", "**Fax:**". */
    private static boolean glue(char c) {
        return switch (c) {
            case ' ', '\t', '\n', '\r', ':', '.', '-', '=', '(', ')', '[', ']', '/', ',', '*', '|', '"', '\'', '>',
                    '°' -> true;
            default -> false;
        };
    }
}
