package dev.cloakgate.cloak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The normalised view detectors read, and the map of its spans back to the text as written. */
class NormalizedTextTest {

    /** What of the original a finding at view [viewStart, viewEnd) covers. */
    private static String back(String original, int viewStart, int viewEnd) {
        return back(NormalizedText.of(original), original, viewStart, viewEnd);
    }

    private static String back(NormalizedText v, String original, int viewStart, int viewEnd) {
        List<Finding> f = new ArrayList<>(List.of(new Finding(Category.CREDIT_CARD, viewStart, viewEnd)));
        v.toOriginal(f, 0);
        return original.substring(f.get(0).start(), f.get(0).end());
    }

    @Test
    void plainAsciiIsItsOwnView() {
        String s = "Card 4111 1111 1111 1111, 100% sure & done: a%zz &#; &amp;";
        NormalizedText v = NormalizedText.of(s);
        assertSame(s, v.text());
        assertTrue(v.identity());
        assertEquals(7, v.start(7));
        assertEquals(9, v.end(9));
    }

    @Test
    void compatibilityFormsDigitsSpacesAndDashesReadPlain() {
        assertEquals("4111 1111 1111 1111", NormalizedText.of("\uff14\uff11\uff11\uff11\u00a01111\u202f1111\u30001111").text());
        assertEquals("lea@example.org k@example.net", NormalizedText.of("lea\uff20example.org k\ufe6bexample.net").text());
        assertEquals("219-09-9999", NormalizedText.of("\u0662\u0661\u0669\u2013\u0660\u0669\u2212\u0669\u0669\u0669\u0669").text());
        assertEquals("123-45-6789", NormalizedText.of("\u0967\u0968\u0969\u2011\u096a\u096b\u2014\u096c\u096d\u096e\u096f").text());
        assertEquals("a\nb", NormalizedText.of("a\u2028b").text());
        assertEquals("+44 20", NormalizedText.of("\uff0b\uff14\uff14\u3000\uff12\uff10").text());
        assertEquals("Marie Dubois caf\u00e9", NormalizedText.of("Marie Dubois caf\u00e9").text(), "already plain");
    }

    @Test
    void invisibleCharactersGoAndTheirSpanComesBack() {
        String s = "pay 4111\u200b1111\u200c1111\u2060\u00ad1111\ufeff now";
        NormalizedText v = NormalizedText.of(s);
        assertEquals("pay 4111111111111111 now", v.text());
        assertEquals("4111\u200b1111\u200c1111\u2060\u00ad1111", back(s, 4, 20), "the invisibles inside go with it");
        assertEquals(" now", s.substring(v.start(20)), "the one after the value stays outside it");
        assertTrue(v.invisibleBefore(8) && v.invisibleBefore(12) && v.invisibleBefore(16));
        assertFalse(v.invisibleBefore(9) || v.invisibleBefore(4));
        assertEquals("FR1420041010050500013M02606",
                NormalizedText.of("FR14\u200c2004\u200c1010\u200c0505\u200c0001\u200c3M02\u200c606").text());
        assertEquals("ab", NormalizedText.of("a\u202e\u2066\u034f\ufe0f\u3164b").text(), "bidi, joiners, selectors, fillers");
    }

    @Test
    void escapesABrowserOrAUrlParserUndoesAreDecoded() {
        String s = "tel=%2B1%20415%20555%200198&x=1";
        NormalizedText v = NormalizedText.of(s);
        assertEquals("tel=+1 415 555 0198&x=1", v.text());
        assertEquals("%2B1%20415%20555%200198", back(s, 4, 19));
        assertEquals("nadia@example.ma", NormalizedText.of("nadia&#64;example.ma").text());
        assertEquals("nadia@example.ma", NormalizedText.of("nadia&#x40;example&period;ma").text());
        assertEquals("a b", NormalizedText.of("a%C2%A0b").text(), "UTF-8 sequences, then the same normalisation");
        assertEquals("ab", NormalizedText.of("a%E2%80%8Bb").text(), "an encoded zero-width space is still invisible");
        assertEquals("%ZZ %C3 %0A %ff &#0; &#xD800;", NormalizedText.of("%ZZ %C3 %0A %ff &#0; &#xD800;").text(),
                "broken, truncated or control escapes stay as written");
    }

    @Test
    void aSpanInsideAnExpansionCoversTheWholeCharacter() {
        String s = "x\ufb01le \ud835\udfd2\ud835\udfcf1";
        NormalizedText v = NormalizedText.of(s);
        assertEquals("xfile 411", v.text());
        assertEquals("\ufb01", back(s, 1, 2), "f of a ligature");
        assertEquals("\ufb01", back(s, 2, 3), "i of a ligature");
        assertEquals("\ud835\udfd2\ud835\udfcf1", back(s, 6, 9), "mathematical digits are two chars each");
    }

    @Test
    void theViewForAModelKeepsPunctuationAndDropsOnlyWhatIsInvisible() {
        String s = "山本様（さくら） — Ma​rie Du­bois, Ｊｏｙ 100%20";
        NormalizedText v = NormalizedText.asWritten(s);
        assertEquals("山本様（さくら） — Marie Dubois, Joy 100%20", v.text());
        assertEquals("Ma​rie Du­bois", back(v, s, 11, 23));
        String plain = s.substring(0, 11);
        assertSame(plain, NormalizedText.asWritten(plain).text(), "nothing to do: itself");
    }
}
