package dev.cloakgate.cloak.detect;

import java.util.Set;

/**
 * Words that say the number after them is a payment card ("card 5018 0375 9122", "card number
 * 213145802297131", "tarjeta de crédito ..."): with one, any Luhn-valid run of 12 to 19 digits is a card,
 * whatever its issuer range (12-digit Maestro, 15-digit JCB from 2131 or 1800, ranges issued after this list).
 */
final class CardCue {
    private static final Set<String> CUES = Set.of(
            "card", "cards", "cc", "pan", "visa", "mastercard", "amex", "maestro", "jcb", "discover", "diners",
            "unionpay", "creditcard", "debitcard", "karte", "kreditkarte", "kartennummer", "kreditkartennummer",
            "girocard", "carte", "cb", "tarjeta", "cartão", "cartao", "carta", "kaart", "kort", "karta");

    /** Words that may stand between the cue and the number: "card number", "tarjeta de crédito", "carte bancaire n°". */
    private static final Set<String> FILLERS = Set.of(
            "number", "numbers", "no", "nr", "num", "n", "nummer", "numéro", "numero", "número", "is", "was", "the",
            "my", "your", "his", "her", "our", "on", "file", "used", "with", "de", "di", "do", "da", "du", "credit",
            "debit", "crédit", "crédito", "credito", "débito", "debito", "bancaire", "bleue", "kredit", "prepaid",
            "virtual", "corporate", "business", "holder");

    static final Cue CUE = new Cue(CUES, FILLERS, true);

    private CardCue() {
    }

    /** One digit repeated ("0000 0000 0000"): a mask or a placeholder, Luhn or not. */
    static boolean placeholder(CharSequence digits) {
        for (int i = 1; i < digits.length(); i++) {
            if (digits.charAt(i) != digits.charAt(0)) {
                return false;
            }
        }
        return true;
    }
}
