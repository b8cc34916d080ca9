package dev.cloakgate.session;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Pagination cursors for lists merged from several upstreams. The client gets an opaque random handle; which
 * upstream and which of its cursors stay in the session, so upstream cursors never reach the client and a
 * forged cursor can only name state this session created.
 */
public final class CursorTable {
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Map<String, String>> cursors;

    public CursorTable(int capacity) {
        this.cursors = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Map<String, String>> eldest) {
                return size() > capacity;
            }
        };
    }

    /** A handle for the upstream cursors still to be followed (upstream name to its cursor). */
    public synchronized String issue(Map<String, String> remaining) {
        byte[] b = new byte[12];
        random.nextBytes(b);
        String handle = "cg1." + HexFormat.of().formatHex(b);
        cursors.put(handle, Map.copyOf(remaining));
        return handle;
    }

    /** The state behind a handle, or null when it is unknown or has aged out. */
    public synchronized Map<String, String> redeem(String handle) {
        return cursors.get(handle);
    }
}
