package dev.cloakgate.ledger.witness;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.cloakgate.crypto.WitnessKey;

/**
 * A configured witness: its cosignature/v1 verifier key and its C2SP tlog-witness submission prefix, written
 * {@code <vkey>@<https URL>}, as {@code cloakgate.ledger.witnesses} lists them. Plain http is accepted only to a
 * loopback address (a witness beside the gateway): a cosignature is verified whatever carries it, but a network
 * path that can drop or delay requests should not be an unauthenticated one.
 */
public record WitnessEndpoint(WitnessKey key, URI submissionPrefix) {

    /** The witness's identity in logs and in the ledger's state: key name and key ID. */
    public String id() {
        return key.name() + "+" + key.keyId().hex();
    }

    public URI addCheckpoint() {
        String prefix = submissionPrefix.toString();
        return URI.create((prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix) + "/add-checkpoint");
    }

    /** Parses one {@code <vkey>@<URL>}; the message says what is wrong and how it should look. */
    public static WitnessEndpoint parse(String spec) {
        String s = spec.strip();
        int keyEnd = s.indexOf('+', s.indexOf('+') + 1);
        int at = keyEnd < 0 ? -1 : s.indexOf('@', keyEnd);
        if (at < 0) {
            throw new IllegalArgumentException("a witness is <verifier key>@<https URL of its submission prefix>, e.g."
                    + " witness.example/w1+1234abcd+BASE64@https://witness.example/w1");
        }
        WitnessKey key;
        try {
            key = WitnessKey.parse(s.substring(0, at));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the witness key before '@': " + e.getMessage());
        }
        return new WitnessEndpoint(key, url(s.substring(at + 1)));
    }

    /** Parses every spec; refuses two entries for one witness key. */
    public static List<WitnessEndpoint> parseAll(List<String> specs, String setting) {
        List<WitnessEndpoint> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < specs.size(); i++) {
            if (specs.get(i).isBlank()) {
                continue;
            }
            WitnessEndpoint w;
            try {
                w = parse(specs.get(i));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(setting + "[" + i + "]: " + e.getMessage());
            }
            if (!seen.add(w.id())) {
                throw new IllegalArgumentException(setting + "[" + i + "]: witness " + w.id() + " is listed twice");
            }
            out.add(w);
        }
        return out;
    }

    private static URI url(String text) {
        URI u;
        try {
            u = new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("the witness URL after '@' does not parse: " + e.getReason());
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (u.getHost() == null || u.getRawUserInfo() != null || u.getRawQuery() != null || u.getRawFragment() != null) {
            throw new IllegalArgumentException("the witness URL after '@' is scheme://host[:port][/path], without user,"
                    + " query or fragment");
        }
        if (!scheme.equals("https") && !(scheme.equals("http") && dev.cloakgate.net.Loopback.host(u.getHost()))) {
            throw new IllegalArgumentException("the witness URL must be https (http only to a loopback address), not "
                    + (scheme.isEmpty() ? "schemeless" : scheme));
        }
        return u;
    }

}
