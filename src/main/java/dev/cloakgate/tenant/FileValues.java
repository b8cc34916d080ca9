package dev.cloakgate.tenant;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Takes a tenant file's own values out of what is said about it while the gateway runs (the log and the tenant
 * status of a refused reload): the file and the JSON path say where the problem is, and a value can be a host, a
 * path or a name the operator would not see in a log. A message may quote a value the file chose (an unknown
 * control, a model file that did not load); each string value of the file is replaced by {@code …}.
 */
final class FileValues {
    private static final ObjectMapper M = new ObjectMapper();
    /** Shorter values are words the message needs more than they could tell ({@code "fs"}, {@code "a"}). */
    private static final int MIN_LENGTH = 3;

    private FileValues() {
    }

    static String removedFrom(String message, byte[] file) {
        if (message == null || file == null) {
            return message;
        }
        List<String> values = new ArrayList<>();
        // token by token, so a file the parser refused still gives up the values before the point it broke
        try (JsonParser p = M.getFactory().createParser(file)) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                if (t == JsonToken.VALUE_STRING && p.getTextLength() >= MIN_LENGTH) {
                    values.add(p.getText());
                }
            }
        } catch (IOException e) {
            // values read so far are enough: the parser's message for a broken file names only the position
        }
        values.sort(Comparator.comparingInt(String::length).reversed()); // a value inside a longer one goes after it
        String out = message;
        for (String v : values) {
            if (out.contains(v)) {
                out = out.replace(v, "…");
            }
        }
        return out;
    }
}
