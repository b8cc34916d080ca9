package dev.cloakgate.net;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Whether a URL's host is a loopback address, the one place plain http is allowed for what must otherwise be
 * https (a witness, an upstream's OAuth servers): {@code localhost} or a loopback IP literal; another name is
 * never resolved here (what it resolves to may change).
 */
public final class Loopback {
    private Loopback() {
    }

    public static boolean host(String host) {
        String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        if (h.equalsIgnoreCase("localhost")) {
            return true;
        }
        if (!h.matches("[0-9.]+|[0-9a-fA-F:]+")) {
            return false; // a name other than localhost is not resolved here
        }
        try {
            return InetAddress.getByName(h).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
