package dev.cloakgate.cloak;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;

/**
 * Spellings of names already found, and where they occur in a text. Forms are keyed by their first word folded to
 * lower case; a text is read once, word by word, with one hash lookup per word and a comparison only where a first
 * word matches, so the cost is linear in the text however many forms there are (at most {@value #PER_WORD} share a
 * first word). A form matches whole words only; its words may be separated in the text by any run of whitespace.
 * Forms without a lower-case letter (capitals, logins compared ignoring case) never match next to {@code _}: that
 * is how the token grammar joins its parts, so neither a gateway token nor an escaped shape an upstream wrote
 * ({@code [PERSON_0]}, {@code [~CREDIT_CARD_1]}) can have a piece taken for a name. Not thread-safe.
 */
final class NameForms {
    /** Forms kept per first word: beyond it a first word shared by that many names stops adding forms. */
    static final int PER_WORD = 64;

    /** How a form is compared: exactly, or ignoring case (a login). */
    enum Kind {
        EXACT, LOGIN
    }

    /** A whole-word occurrence of a form in a text. */
    record Match(int start, int end) {
    }

    /** One stored spelling; {@code hash} is its first word's, as {@link #find} computes it. Immutable: shared. */
    private record Form(String text, Kind kind, boolean caps, int hash) {
        /** Where the form ends when it starts at {@code start} of {@code s}, or -1. */
        int end(String s, int start) {
            int n = s.length();
            int i = start;
            int j = 0;
            while (j < text.length()) {
                char fc = text.charAt(j);
                if (i < n && invisible(s.charAt(i))) {
                    i++; // read as the model reads it: a zero-width space or soft hyphen inside does not hide a name
                    continue;
                }
                if (space(fc)) {
                    while (j < text.length() && space(text.charAt(j))) {
                        j++;
                    }
                    if (i >= n || !space(s.charAt(i))) {
                        return -1;
                    }
                    while (i < n && space(s.charAt(i))) {
                        i++;
                    }
                    continue;
                }
                if (i >= n) {
                    return -1;
                }
                char sc = s.charAt(i);
                if (sc != fc && !(kind == Kind.LOGIN && Character.toLowerCase(sc) == fc)) {
                    return -1;
                }
                i++;
                j++;
            }
            return bounded(s, start, i) ? i : -1;
        }

        private boolean bounded(String s, int start, int end) {
            int n = s.length();
            char before = start == 0 ? ' ' : s.charAt(start - 1);
            int next = end;
            while (next < n && invisible(s.charAt(next))) {
                next++;
            }
            char after = next == n ? ' ' : s.charAt(next);
            if (next < n && word(after)) {
                return false;
            }
            if (caps && (before == '_' || after == '_')) {
                return false; // a piece of a token shape, never a name
            }
            if (kind == Kind.LOGIN) {
                if (before == '.' || before == '-') {
                    return false;
                }
                if (after == '-') {
                    return false;
                }
                // a sentence's full stop after a login is not part of it; "mdubois.old" is another login
                int k = end;
                while (k < n && s.charAt(k) == '.') {
                    k++;
                }
                return k == end || k == n || !(word(s.charAt(k)) || s.charAt(k) == '_' || s.charAt(k) == '-');
            }
            return true;
        }
    }

    private int[] keys = new int[16];
    private Bucket[] buckets = new Bucket[16];
    private int used;

    boolean isEmpty() {
        return used == 0;
    }

    /**
     * A spelling made ready once (its composed and decomposed Unicode forms, lower-cased for a login) and added to
     * as many {@link NameForms} as need it: a name's spellings serve its message and its session.
     */
    static final class Spelling {
        private final Form[] forms;

        private Spelling(Form[] forms) {
            this.forms = forms;
        }
    }

    /**
     * A spelling of a name (in its composed and decomposed Unicode forms); a login is compared ignoring case.
     * A text that does not start with a letter has no forms.
     */
    static Spelling spelling(String text, Kind kind) {
        String v = text;
        boolean ascii = true;
        boolean asciiCapital = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            ascii &= c < 0x80;
            asciiCapital |= c >= 'A' && c <= 'Z';
            if (invisible(c)) {
                StringBuilder visible = new StringBuilder(text.length());
                text.chars().filter(x -> !invisible((char) x)).forEach(x -> visible.append((char) x)); // the text skips them
                v = visible.toString();
                break;
            }
        }
        // ASCII without capitals is its own lower case (the logins are made lower-cased)
        String t = kind == Kind.LOGIN && !(ascii && !asciiCapital) ? v.toLowerCase(java.util.Locale.ROOT) : v;
        if (ascii) {
            // ASCII is its own composed and decomposed form: a name of a few hundred forms per message skips both
            Form f = form(t, kind);
            return new Spelling(f == null ? new Form[0] : new Form[] { f });
        }
        List<Form> forms = new ArrayList<>(3);
        for (String x : new String[] { t, Normalizer.normalize(t, Normalizer.Form.NFC),
            Normalizer.normalize(t, Normalizer.Form.NFD) }) {
            Form f = form(x, kind);
            if (f != null) {
                forms.add(f);
            }
        }
        return new Spelling(forms.toArray(new Form[0]));
    }

    private static Form form(String t, Kind kind) {
        if (t.isEmpty() || !Character.isLetter(t.codePointAt(0))) {
            return null;
        }
        boolean caps = true;
        for (int i = 0; i < t.length() && caps; i++) {
            caps = !Character.isLowerCase(t.charAt(i));
        }
        return new Form(t, kind, caps || kind == Kind.LOGIN, firstWordHash(t));
    }

    /** Adds a spelling of a name: {@code add(spelling(text, kind))}. */
    void add(String text, Kind kind) {
        add(spelling(text, kind));
    }

    /** Adds a spelling made ready by {@link #spelling}. */
    void add(Spelling spelling) {
        for (Form f : spelling.forms) {
            put(f);
        }
    }

    private void put(Form f) {
        int h = f.hash;
        if ((used + 1) * 2 > keys.length) {
            grow();
        }
        int slot = slot(h);
        Bucket b = buckets[slot];
        if (b == null) {
            keys[slot] = h;
            buckets[slot] = new Bucket(f);
            used++;
            return;
        }
        b.add(f);
    }

    /**
     * The forms of one first word, longest first (so the first form that matches at a position is the longest
     * there), those of one length in the order added; at most {@value #PER_WORD}.
     */
    private static final class Bucket {
        private Form[] forms = new Form[4];
        private int size;

        Bucket(Form first) {
            forms[0] = first;
            size = 1;
        }

        /**
         * Adds a form once: one already added is here (only a form of its length can be), or the bucket was
         * full then and still is (buckets only grow).
         */
        void add(Form f) {
            if (size >= PER_WORD) {
                return;
            }
            int length = f.text.length();
            // the first form not longer than f (lengths descend)
            int lo = 0;
            int hi = size;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (forms[mid].text.length() > length) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            int at = lo;
            while (at < size && forms[at].text.length() == length) {
                Form x = forms[at];
                if (x == f || x.kind == f.kind && x.text.equals(f.text)) {
                    return;
                }
                at++;
            }
            if (size == forms.length) {
                forms = java.util.Arrays.copyOf(forms, Math.min(PER_WORD, size * 2));
            }
            System.arraycopy(forms, at, forms, at + 1, size - at);
            forms[at] = f;
            size++;
        }

        /** The end of the first form that starts at {@code start} of {@code s}, or -1. */
        int longest(String s, int start) {
            for (int i = 0; i < size; i++) {
                int end = forms[i].end(s, start);
                if (end > 0) {
                    return end;
                }
            }
            return -1;
        }
    }

    /** What each first word's bucket holds, in the order it is read ({@code kind:text}), buckets by hash: for tests. */
    java.util.SortedMap<Integer, List<String>> contents() {
        java.util.SortedMap<Integer, List<String>> out = new java.util.TreeMap<>();
        for (int i = 0; i < buckets.length; i++) {
            if (buckets[i] != null) {
                List<String> forms = new ArrayList<>();
                for (int k = 0; k < buckets[i].size; k++) {
                    forms.add(buckets[i].forms[k].kind + ":" + buckets[i].forms[k].text);
                }
                out.put(keys[i], forms);
            }
        }
        return out;
    }

    /** The hash {@link #find} computes for the word that starts a form of {@code text}: for tests. */
    static int firstWordHashOf(String text) {
        return firstWordHash(text);
    }

    /**
     * Every whole-word occurrence of a form of {@code a} or {@code b} in {@code s}, left to right, never
     * overlapping, the longest at each position.
     */
    static List<Match> find(String s, NameForms a, NameForms b) {
        List<Match> out = null;
        int n = s.length();
        int i = 0;
        while (i < n) {
            if (!word(s.charAt(i))) {
                i++;
                continue;
            }
            int start = i;
            int h = 0;
            while (i < n && word(s.charAt(i))) {
                char c = s.charAt(i++);
                if (!invisible(c)) {
                    h = 31 * h + lower(c);
                }
            }
            int end = Math.max(a.longest(h, s, start), b.longest(h, s, start));
            if (end > 0) {
                if (out == null) {
                    out = new ArrayList<>();
                }
                out.add(new Match(start, end));
                i = Math.max(i, end);
            }
        }
        return out == null ? List.of() : out;
    }

    /** The end of the longest form whose first word hashes to {@code h} that starts at {@code start}, or -1. */
    private int longest(int h, String s, int start) {
        if (used == 0) {
            return -1;
        }
        Bucket b = buckets[slot(h)];
        return b == null ? -1 : b.longest(s, start);
    }

    private int slot(int h) {
        int mask = keys.length - 1;
        int x = h * 0x9E3779B9;
        int i = (x ^ x >>> 16) & mask;
        while (buckets[i] != null && keys[i] != h) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private void grow() {
        int[] oldKeys = keys;
        Bucket[] old = buckets;
        keys = new int[oldKeys.length * 2];
        buckets = new Bucket[oldKeys.length * 2];
        for (int i = 0; i < old.length; i++) {
            if (old[i] != null) {
                int slot = slot(oldKeys[i]);
                keys[slot] = oldKeys[i];
                buckets[slot] = old[i];
            }
        }
    }

    /** The hash {@link #find} computes for the first word of {@code t}. */
    private static int firstWordHash(String t) {
        int h = 0;
        for (int i = 0; i < t.length() && word(t.charAt(i)); i++) {
            h = 31 * h + lower(t.charAt(i));
        }
        return h;
    }

    /**
     * A character of a word: a letter or digit, a combining mark (a decomposed accent), half of a surrogate pair,
     * or an invisible format character, which joins what it sits between as a reader sees it.
     */
    static boolean word(char c) {
        return c < LATIN1_WORD.length ? LATIN1_WORD[c] : slowWord(c);
    }

    // Latin-1 answers looked up: every character of every string of a message with a name is asked
    private static final boolean[] LATIN1_WORD = new boolean[256];
    private static final boolean[] LATIN1_INVISIBLE = new boolean[256];

    static {
        for (char c = 0; c < 256; c++) {
            LATIN1_WORD[c] = slowWord(c);
            LATIN1_INVISIBLE[c] = Character.getType(c) == Character.FORMAT;
        }
    }

    private static final char[] LATIN1_LOWER = new char[256];

    static {
        for (char c = 0; c < 256; c++) {
            LATIN1_LOWER[c] = Character.toLowerCase(c);
        }
    }

    /** {@link Character#toLowerCase(char)}. */
    private static char lower(char c) {
        return c < LATIN1_LOWER.length ? LATIN1_LOWER[c] : Character.toLowerCase(c);
    }

    private static boolean slowWord(char c) {
        if (Character.isLetterOrDigit(c) || Character.isSurrogate(c)) {
            return true;
        }
        int t = Character.getType(c);
        return t == Character.NON_SPACING_MARK || t == Character.COMBINING_SPACING_MARK || t == Character.ENCLOSING_MARK
                || t == Character.FORMAT;
    }

    /** A format character (zero-width space, soft hyphen, joiners, bidi controls): nothing a reader sees. */
    private static boolean invisible(char c) {
        return c < LATIN1_INVISIBLE.length ? LATIN1_INVISIBLE[c] : Character.getType(c) == Character.FORMAT;
    }

    private static boolean space(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c);
    }
}
