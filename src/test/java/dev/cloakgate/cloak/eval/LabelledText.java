package dev.cloakgate.cloak.eval;

import java.util.ArrayList;
import java.util.List;

/**
 * One evaluation document: the raw text and its gold spans, parsed from the markup
 * {@code ⟦CATEGORY|value⟧} (or {@code ⟦PHONE@FR|value⟧}, whose region only matters to the set's checker).
 */
public record LabelledText(String name, String text, List<Gold> gold) {

    /** A labelled value: {@code text.substring(start, end)} is of {@code category}. */
    public record Gold(String category, int start, int end) {
        public int length() {
            return end - start;
        }
    }

    public static LabelledText parse(String name, String marked) {
        StringBuilder text = new StringBuilder(marked.length());
        List<Gold> gold = new ArrayList<>();
        int i = 0;
        while (i < marked.length()) {
            int open = marked.indexOf('\u27E6', i);
            if (open < 0) {
                text.append(marked, i, marked.length());
                break;
            }
            text.append(marked, i, open);
            int bar = marked.indexOf('|', open);
            int close = marked.indexOf('\u27E7', open);
            if (bar < 0 || close < 0 || bar > close) {
                throw new IllegalArgumentException(name + ": unbalanced markup at " + open);
            }
            String label = marked.substring(open + 1, bar);
            int at = label.indexOf('@');
            String category = at < 0 ? label : label.substring(0, at);
            String value = marked.substring(bar + 1, close);
            gold.add(new Gold(category, text.length(), text.length() + value.length()));
            text.append(value);
            i = close + 1;
        }
        return new LabelledText(name, text.toString(), List.copyOf(gold));
    }
}
