package dev.cloakgate.cloak;

import java.util.Locale;

/**
 * What a detected value is; the token {@code [CATEGORY_n]} names it so the model can still reason about the
 * kind of value it stands for. The NER types beyond PERSON are off unless {@code detection.ner_entity_types}
 * asks for them.
 */
public enum Category {
    EMAIL, PHONE, CREDIT_CARD, IBAN, US_SSN, IP_ADDRESS, SECRET, PERSON,
    ORGANIZATION, LOCATION, DATE, TIME, MONEY, PERCENTAGE;

    /**
     * Which category wins when two findings overlap: validated, deterministic categories outrank the
     * statistical ones, and a secret outranks everything that may sit inside it. An IBAN outranks a card: its
     * 11 to 30 digits often hold a Luhn-valid run (one in ten does), and a card found there would leave the
     * country, check digits and bank code in the clear; no card number holds an IBAN's letters.
     */
    public int precedence() {
        return switch (this) {
            case SECRET -> 0;
            case IBAN -> 1;
            case CREDIT_CARD -> 2;
            case EMAIL -> 3;
            case US_SSN -> 4;
            case PHONE -> 5;
            case IP_ADDRESS -> 6;
            case PERSON -> 7;
            default -> 8;
        };
    }

    /** True for the categories found by a model rather than a validator. */
    public boolean statistical() {
        return precedence() >= 7;
    }

    public static Category parse(String s) {
        return valueOf(s.trim().toUpperCase(Locale.ROOT));
    }
}
