package dev.cloakgate.upstream;

import java.util.HashMap;
import java.util.Map;

import dev.cloakgate.tenant.UpstreamConfig;

/**
 * Every shared child, by tenant, upstream configuration and protocol version (a changed tenant file is another
 * child). A child is made for its first session and stopped when the last session holding it ends.
 */
public final class SharedChildren {

    private record Key(String tenant, UpstreamConfig.Stdio config, String version) {
    }

    private static final class Entry {
        final SharedChild child;
        int leases;

        Entry(SharedChild child) {
            this.child = child;
        }
    }

    /** One session's hold on one shared child. */
    public final class Lease {
        private final Key key;
        private final SharedChild child;
        private boolean released;

        private Lease(Key key, SharedChild child) {
            this.key = key;
            this.child = child;
        }

        public SharedChild child() {
            return child;
        }

        /** Lets go of the child; true when this was its last session and it was stopped. */
        public boolean release() {
            synchronized (SharedChildren.this) {
                if (released) {
                    return false;
                }
                released = true;
                Entry e = entries.get(key);
                if (e == null || --e.leases > 0) {
                    return false;
                }
                entries.remove(key);
            }
            child.close();
            return true;
        }
    }

    private final Map<Key, Entry> entries = new HashMap<>();

    /** Whether no session holds the child yet: a lease would make one (and take a slot of the tenant's). */
    public synchronized boolean wouldMake(String tenant, UpstreamConfig.Stdio config, String version) {
        return !entries.containsKey(new Key(tenant, config, version));
    }

    /** A session's hold on the child, made by {@code make} when none exists. */
    public synchronized Lease lease(String tenant, UpstreamConfig.Stdio config, String version,
            java.util.function.Supplier<SharedChild> make) {
        Key key = new Key(tenant, config, version);
        Entry e = entries.computeIfAbsent(key, k -> new Entry(make.get()));
        e.leases++;
        return new Lease(key, e.child);
    }

    /** Children running or held now. */
    public synchronized int size() {
        return entries.size();
    }
}
