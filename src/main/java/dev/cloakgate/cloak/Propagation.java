package dev.cloakgate.cloak;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.cloak.detect.NameFinderDetector;

/**
 * A name found once is cloaked wherever it appears again toward the agent, after the typed pass, in every string
 * and key of the message (base64 text included; discriminators and binary excepted):
 * <ul>
 * <li>within the message, every name the typed pass found in any of its fields, with its parts (each word of at
 * least three letters that starts with a capital and is not a common capitalised word, as written and in
 * capitals) and the logins made from it, as {@link NameFinderDetector} propagates within one text;</li>
 * <li>across the session, every name of two words or more the session's vault holds (found in an earlier message),
 * as written and in capitals, its family name alone, and its logins of five characters or more. A given name
 * alone, and a name that was only ever found as one word, are not propagated beyond their message: "Will",
 * "Grace" or "Rose" would then become tokens in every later sentence that starts with them.</li>
 * </ul>
 * Each occurrence becomes the token of exactly the text it covers ({@link Vault}: "DUBOIS" its own token), so a
 * token still restores to the bytes the upstream wrote. Cost: nothing while the vault holds no name and the
 * message found none; otherwise one walk and one pass over each string's words ({@link NameForms}).
 */
final class Propagation {
    /** A session login shorter than this is a chance string ("lwu"), not evidence of a person. */
    static final int SESSION_LOGIN = 5;
    /** Within a message, a login of three characters or more made from a name found there is that person. */
    static final int MESSAGE_LOGIN = 3;

    private final NameForms session = new NameForms();
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    /** How many of the vault's names {@link #session} holds the forms of. */
    private int pulled;

    /**
     * Cloaks, in place, the names of {@code foundHere} (what the typed pass found in this payload) and those the
     * vault knew before, wherever the typed pass left them.
     */
    void apply(JsonNode payload, Set<String> foundHere, Vault vault, String upstream, Counts counts) {
        // each name's spellings are made once, for this message and for the session
        Map<String, NameSpellings> spelled = new HashMap<>();
        NameForms here = new NameForms();
        for (String name : foundHere) {
            NameSpellings n = new NameSpellings(name);
            spelled.put(name, n);
            n.addForMessage(here, MESSAGE_LOGIN);
        }
        boolean known = pull(vault, spelled);
        if (here.isEmpty() && !known) {
            return;
        }
        // the session's forms are read under one read lock for the whole message; a concurrent pull waits for it
        lock.readLock().lock();
        try {
            TreeText.rewrite(payload, (k, s, binaryField) -> k != null && Walker.DISCRIMINATORS.contains(k) ? s
                    : Base64Text.map(s, binaryField, t -> cloak(t, here, vault, upstream, counts), null).value(),
                    k -> cloak(k, here, vault, upstream, counts));
        } finally {
            lock.readLock().unlock();
        }
    }

    private String cloak(String s, NameForms here, Vault vault, String upstream, Counts counts) {
        List<NameForms.Match> found = NameForms.find(s, here, session);
        if (found.isEmpty()) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length());
        int at = 0;
        for (NameForms.Match m : found) {
            out.append(s, at, m.start()).append(vault.tokenFor(Category.PERSON, s.substring(m.start(), m.end()), upstream));
            counts.cloaked(Category.PERSON);
            at = m.end();
        }
        return out.append(s, at, s.length()).toString();
    }

    /**
     * Adds the forms of the names the vault gained since the last pull (with the spellings already made for this
     * message's names); whether any name is known now.
     */
    private boolean pull(Vault vault, Map<String, NameSpellings> spelled) {
        int size = vault.names();
        lock.writeLock().lock();
        try {
            if (size > pulled) {
                for (String name : vault.namesFrom(pulled)) {
                    NameSpellings n = spelled.get(name);
                    (n != null ? n : new NameSpellings(name)).addForSession(session, SESSION_LOGIN);
                    pulled++;
                }
            }
            return !session.isEmpty();
        } finally {
            lock.writeLock().unlock();
        }
    }
}
