package dev.cloakgate.crypto;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * The body of a C2SP tlog-checkpoint: origin, tree size and RFC 6962 root hash, one per line, then optional
 * extension lines. It is the text of a {@link SignedNote}; the signature line carries the key ID.
 */
public record Checkpoint(String origin, long size, byte[] rootHash, List<String> extensions) {

    public static final int HASH_LENGTH = 32;

    public Checkpoint {
        List<String> reasons = new ArrayList<>();
        checkOrigin(origin, reasons);
        if (size < 0) {
            reasons.add("tree size is negative");
        }
        if (rootHash.length != HASH_LENGTH) {
            reasons.add("root hash is " + rootHash.length + " bytes, not " + HASH_LENGTH);
        }
        extensions = List.copyOf(extensions);
        for (String line : extensions) {
            checkLine("extension line", line, reasons);
        }
        if (!reasons.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", reasons));
        }
        rootHash = rootHash.clone();
    }

    public Checkpoint(String origin, long size, byte[] rootHash) {
        this(origin, size, rootHash, List.of());
    }

    @Override
    public byte[] rootHash() {
        return rootHash.clone();
    }

    /** The note text: every line ends in a newline. */
    public String text() {
        StringBuilder text = new StringBuilder()
                .append(origin).append('\n')
                .append(Long.toUnsignedString(size)).append('\n')
                .append(Base64.getEncoder().encodeToString(rootHash)).append('\n');
        for (String line : extensions) {
            text.append(line).append('\n');
        }
        return text.toString();
    }

    /** Reads a checkpoint body, for instance the text of a verified note, naming every reason it is refused. */
    public static Parse parse(String text) {
        List<String> reasons = new ArrayList<>();
        if (!text.endsWith("\n")) {
            return new Parse.Malformed(List.of("checkpoint text does not end in a newline"));
        }
        String[] lines = text.substring(0, text.length() - 1).split("\n", -1);
        if (lines.length < 3) {
            return new Parse.Malformed(List.of("a checkpoint has at least three lines, not " + lines.length));
        }
        checkOrigin(lines[0], reasons);
        long size = parseSize(lines[1], reasons);
        byte[] root = parseRoot(lines[2], reasons);
        List<String> extensions = Arrays.asList(lines).subList(3, lines.length);
        for (String line : extensions) {
            checkLine("extension line", line, reasons);
        }
        if (!reasons.isEmpty()) {
            return new Parse.Malformed(reasons);
        }
        return new Parse.Ok(new Checkpoint(lines[0], size, root, extensions));
    }

    /** What {@link #parse} found. */
    public sealed interface Parse {
        record Ok(Checkpoint checkpoint) implements Parse {
        }

        record Malformed(List<String> reasons) implements Parse {
            public Malformed {
                reasons = List.copyOf(reasons);
            }
        }
    }

    private static long parseSize(String line, List<String> reasons) {
        // ASCII digits only, no sign, no leading zero except "0" itself
        if (!line.matches("0|[1-9][0-9]*")) {
            reasons.add("tree size is not a decimal without leading zeros");
            return 0;
        }
        try {
            return Long.parseLong(line);
        } catch (NumberFormatException e) {
            reasons.add("tree size beyond 2^63-1");
            return 0;
        }
    }

    private static byte[] parseRoot(String line, List<String> reasons) {
        try {
            byte[] root = Base64.getDecoder().decode(line);
            if (root.length == HASH_LENGTH && Base64.getEncoder().encodeToString(root).equals(line)) {
                return root;
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        reasons.add("root hash is not base64 of 32 bytes");
        return new byte[HASH_LENGTH];
    }

    private static void checkOrigin(String origin, List<String> reasons) {
        checkLine("origin", origin, reasons);
    }

    private static void checkLine(String what, String line, List<String> reasons) {
        if (line.isEmpty()) {
            reasons.add(what + " is empty");
        } else if (line.chars().anyMatch(c -> c < 0x20)) {
            reasons.add(what + " holds a control character or newline");
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Checkpoint that && origin.equals(that.origin) && size == that.size
                && Arrays.equals(rootHash, that.rootHash) && extensions.equals(that.extensions);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * (31 * origin.hashCode() + Long.hashCode(size)) + Arrays.hashCode(rootHash))
                + extensions.hashCode();
    }

    @Override
    public String toString() {
        return "Checkpoint[" + origin + ", " + size + ", " + HexFormat.of().formatHex(rootHash) + ", " + extensions + "]";
    }
}
