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
        VALUES.put("PERSON", List.of("Marie Dubois", "James Okafor"));
    }

    private Plants() {
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
    }
}
