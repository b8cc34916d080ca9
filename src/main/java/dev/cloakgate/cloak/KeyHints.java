package dev.cloakgate.cloak;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A JSON key (or CSV column) that names what its value is: {@code "email"}, {@code "phone"},
 * {@code "customer"}, {@code "ssn"}. Such a key is strong evidence, so its value is checked with the
 * category's looser hinted test instead of full detection.
 */
public final class KeyHints {
    private static final Map<String, Category> HINTS = new HashMap<>();

    static {
        for (String k : new String[] { "email", "emailaddress", "mail", "email1", "email2", "emails", "contactemail",
                "workemail", "personalemail", "replyto", "from", "to", "cc", "bcc", "sender", "recipient" }) {
            HINTS.put(k, Category.EMAIL);
        }
        for (String k : new String[] { "phone", "phonenumber", "phones", "telephone", "tel", "mobile", "mobilephone",
                "cell", "cellphone", "fax", "msisdn", "workphone", "homephone", "contactphone", "whatsapp" }) {
            HINTS.put(k, Category.PHONE);
        }
        for (String k : new String[] { "ssn", "socialsecuritynumber", "socialsecurity", "ussn" }) {
            HINTS.put(k, Category.US_SSN);
        }
        for (String k : new String[] { "iban", "bankaccount", "accountiban" }) {
            HINTS.put(k, Category.IBAN);
        }
        for (String k : new String[] { "cardnumber", "creditcard", "creditcardnumber", "pan", "ccnumber", "card" }) {
            HINTS.put(k, Category.CREDIT_CARD);
        }
        for (String k : new String[] { "ip", "ipaddress", "clientip", "remoteip", "remoteaddr", "sourceip", "srcip",
                "dstip", "xforwardedfor", "peerip" }) {
            HINTS.put(k, Category.IP_ADDRESS);
        }
        for (String k : new String[] { "secret", "password", "passwd", "pwd", "apikey", "apisecret", "accesstoken",
                "refreshtoken", "authtoken", "clientsecret", "privatekey", "secretkey", "secretaccesskey", "token",
                "bearertoken", "sessiontoken", "webhooksecret", "signingsecret" }) {
            HINTS.put(k, Category.SECRET);
        }
        for (String k : new String[] { "name", "fullname", "firstname", "lastname", "givenname", "familyname", "surname",
                "middlename", "displayname", "customer", "customername", "contact", "contactname", "owner", "ownername",
                "assignee", "assignedto", "author", "reporter", "requester", "patient", "patientname", "employee",
                "employeename", "person", "personname", "accountholder", "cardholder", "holdername", "beneficiary",
                "signatory", "manager", "nom", "prenom", "vorname", "nachname", "nombre", "apellido", "apellidos" }) {
            HINTS.put(k, Category.PERSON);
        }
    }

    private KeyHints() {
    }

    /** The category a key names, or null. Case, separators and a trailing id/s are ignored. */
    public static Category forKey(String key) {
        if (key == null || key.length() > 40) {
            return null;
        }
        StringBuilder k = new StringBuilder(key.length());
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isLetterOrDigit(c)) {
                k.append(Character.toLowerCase(c));
            }
        }
        String n = k.toString();
        Category c = HINTS.get(n);
        if (c == null && n.endsWith("s")) {
            c = HINTS.get(n.substring(0, n.length() - 1));
        }
        return c;
    }

    /** Lower-cased for lookups in CSV headers and the like. */
    static String fold(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
