package dev.cloakgate.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** The personal values the leak probe plants, one list per category; none may reach the client. */
public final class Plants {
    public static final Map<String, List<String>> VALUES = new LinkedHashMap<>();

    static {
        VALUES.put("EMAIL", List.of("marie.dubois@example-eu.fr", "j.okafor@example.com"));
        VALUES.put("PHONE", List.of("+33 6 12 34 56 78", "+1 415-555-2671"));
        VALUES.put("CREDIT_CARD", List.of("4111 1111 1111 1111", "5555555555554444"));
        VALUES.put("IBAN", List.of("DE89 3704 0044 0532 0130 00", "GB82WEST12345698765432"));
        VALUES.put("US_SSN", List.of("123-45-6789"));
        VALUES.put("IP_ADDRESS", List.of("203.0.113.42", "2001:db8::8a2e:370:7334"));
        VALUES.put("SECRET", List.of("AKIAQ3EGRE7NX6TRZ4MB", "ghp_0123456789abcdefghijklmnopqrstuvwxyz"));
        // issue 14: names the PERSON model is weak on (diacritics, a less common culture), so the probe tests the
        // cloak's propagation and hints rather than the model's luck
        VALUES.put("PERSON", List.of("Marie Dubois", "James Okafor", "El\u00ednborg Gu\u00f0mundsd\u00f3ttir", "Nomvula Dlamini"));
        // the same kinds of values written differently (Unicode, obfuscation, encodings)
        also("CREDIT_CARD", "4242\u00a04242\u00a04242\u00a04242", "5200.8282.8282.8210", "4012\u20138888\u20138888\u20131881",
                "5105 1051\n0510 5100", "4000\u200b0566\u200b5566\u200b5556", "\uff16\uff10\uff11\uff11 \uff10\uff10\uff10\uff19 "
                        + "\uff19\uff10\uff11\uff13 \uff19\uff14\uff12\uff14");
        also("EMAIL", "lea.martin\uff20example.org", "k.mensah\ufe6bexample.net", "sofia.rossi[at]example[dot]it",
                "tomas.novak (at) example (dot) cz", "ana.silva at example dot pt", "nadia.haddad&#64;example.ma");
        also("PHONE", "\uff0b\uff14\uff14 \uff12\uff10 \uff17\uff19\uff14\uff16 \uff10\uff19\uff15\uff18",
                "%2B1%20415%20555%200198", "+33\u00a06\u00a098\u00a076\u00a054\u00a032");
        also("US_SSN", "\u0662\u0661\u0669-\u0660\u0669-\u0669\u0669\u0669\u0669", "078.05.1120", "234-56-\u200b7890",
                "345\u200b67\u200b8901");
        also("IBAN", "FR14\u200c2004\u200c1010\u200c0505\u200c0001\u200c3M02\u200c606", "NL91\u00a0ABNA\u00a00417\u00a01643\u00a000");
    }

    private Plants() {
    }

    private static void also(String category, String... more) {
        List<String> all = new ArrayList<>(VALUES.get(category));
        all.addAll(List.of(more));
        VALUES.put(category, List.copyOf(all));
    }

    /**
     * What must not reach the client, as a search over JSON text finds it: every value as written and as JSON
     * escapes it (a line break inside a card is {@code \\n} on the wire), and the parts of each card the leak
     * probe splits over sibling JSON values ({@code split_fields}: four strings of four digits, and two of eight),
     * quoted, plain and inside JSON text, and the family name of each planted name alone.
     */
    public static List<String> searchForms() {
        List<String> out = new ArrayList<>();
        for (String v : all()) {
            out.add(v);
            String escaped = Json.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(v));
            escaped = escaped.substring(1, escaped.length() - 1);
            if (!escaped.equals(v)) {
                out.add(escaped);
            }
        }
        for (String name : VALUES.get("PERSON")) {
            // a family name alone (the probe writes one after the full name was mentioned): a leak as much
            out.add(name.substring(name.lastIndexOf(' ') + 1));
        }
        for (String card : VALUES.get("CREDIT_CARD")) {
            String d = card.replaceAll("[^0-9]", "");
            if (d.length() != 16) {
                continue; // the probe splits the 16-digit cards written with ASCII digits, and only those
            }
            for (String part : List.of(d.substring(0, 4), d.substring(4, 8), d.substring(8, 12), d.substring(12),
                    d.substring(0, 4) + " " + d.substring(4, 8), d.substring(8, 12) + " " + d.substring(12))) {
                out.add("\"" + part + "\"");
                out.add("\\\"" + part + "\\\"");
            }
        }
        return out;
    }

    public static List<String> all() {
        List<String> out = new ArrayList<>();
        VALUES.values().forEach(out::addAll);
        return out;
    }

    public static ObjectNode json() {
        ObjectNode o = Json.object();
        VALUES.forEach((k, v) -> o.set(k, Json.MAPPER.valueToTree(v)));
        return o;
    }

    /** A folder for the real filesystem server whose contents, file names and folder names carry the values. */
    public static void fillFolder(Path dir) throws IOException {
        Files.writeString(dir.resolve("customers.csv"), "name,email,phone,card\n"
                + "Marie Dubois,marie.dubois@example-eu.fr,+33 6 12 34 56 78,4111 1111 1111 1111\n"
                + "James Okafor,j.okafor@example.com,+1 415-555-2671,5555555555554444\n");
        Files.createDirectories(dir.resolve("people/marie.dubois@example-eu.fr"));
        Files.writeString(dir.resolve("people/marie.dubois@example-eu.fr/notes.txt"),
                "Met Marie Dubois on Tuesday; IBAN DE89 3704 0044 0532 0130 00; SSN 123-45-6789.\n");
        Files.writeString(dir.resolve("j.okafor@example.com.txt"), "login from 203.0.113.42 and 2001:db8::8a2e:370:7334\n");
        Files.writeString(dir.resolve("config.env"), "AWS_ACCESS_KEY_ID=AKIAQ3EGRE7NX6TRZ4MB\n"
                + "GITHUB_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyz\nIBAN=GB82WEST12345698765432\n");
        // every value written differently, one labelled line each, read by the real filesystem server
        StringBuilder differently = new StringBuilder();
        VALUES.forEach((category, values) -> values.forEach(v -> differently.append(category.toLowerCase(java.util.Locale.ROOT))
                .append(": ").append(v).append('\n')));
        Files.writeString(dir.resolve("written-differently.txt"), differently);
    }
}
