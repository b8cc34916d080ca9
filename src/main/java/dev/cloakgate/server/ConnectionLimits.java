package dev.cloakgate.server;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Open connections per client address and overall. A connection over either cap is refused before anything of
 * it is read, so one address cannot hold the gateway's file descriptors and the rest of the world cannot hold
 * more than the process can carry. An IPv6 client is counted by its /64: one host is usually given a whole /64,
 * and counting single addresses would give it 2^64 allowances.
 */
final class ConnectionLimits {

    /** What became of a new connection. */
    enum Admission {
        ADMITTED, ADDRESS_FULL, FULL
    }

    /** The key one client address is counted under. */
    record Client(Object key) {
    }

    private final int max;
    private final int perAddress;
    private final AtomicInteger open = new AtomicInteger();
    private final Map<Object, Integer> byAddress = new ConcurrentHashMap<>();

    ConnectionLimits(int max, int perAddress) {
        if (max < 1 || perAddress < 1) {
            throw new IllegalArgumentException("connection limits must be at least 1");
        }
        this.max = max;
        this.perAddress = perAddress;
    }

    /** Counts a new connection when it fits both caps; {@link #release} it when it closes (only if admitted). */
    Admission admit(Client client) {
        if (open.incrementAndGet() > max) {
            open.decrementAndGet();
            return Admission.FULL;
        }
        boolean[] full = new boolean[1];
        byAddress.compute(client.key(), (k, n) -> {
            int count = n == null ? 0 : n;
            if (count >= perAddress) {
                full[0] = true;
                return n;
            }
            return count + 1;
        });
        if (full[0]) {
            open.decrementAndGet();
            return Admission.ADDRESS_FULL;
        }
        return Admission.ADMITTED;
    }

    /** Counts a connection that is already being served, whatever the caps say (one found unguarded). */
    void adopt(Client client) {
        open.incrementAndGet();
        byAddress.merge(client.key(), 1, Integer::sum);
    }

    void release(Client client) {
        open.decrementAndGet();
        byAddress.computeIfPresent(client.key(), (k, n) -> n <= 1 ? null : n - 1);
    }

    int open() {
        return open.get();
    }

    /** The key a remote address is counted under: the address itself, an IPv6 address's /64. */
    static Client clientOf(SocketAddress remote) {
        if (remote instanceof InetSocketAddress inet && inet.getAddress() != null) {
            InetAddress a = inet.getAddress();
            if (a instanceof Inet6Address) {
                return new Client(new Prefix64(Arrays.copyOf(a.getAddress(), 8)));
            }
            return new Client(a);
        }
        // a unix domain socket: every client is local, and one
        return new Client("local");
    }

    /** The first 64 bits of an IPv6 address, comparable by value. */
    private record Prefix64(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Prefix64 p && Arrays.equals(bytes, p.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return "ipv6/64";
        }
    }
}
