package dev.cloakgate.tenant;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

/**
 * Watches the tenants directory and reports each tenant file that appeared, changed or went away, by content:
 * whatever event arrives, the directory is scanned and each file's bytes compared with what was last reported.
 * So it does not matter how a file changed: written in place, renamed over, or swapped in by Kubernetes (a
 * ConfigMap volume's files are symlinks through {@code ..data}, which the kubelet repoints at a new timestamped
 * directory in one rename: the events are about {@code ..data}, never about the file). Events are debounced (a
 * scan once the directory has been quiet for the debounce, and at the latest ten debounces after the first
 * event), and the directory is also scanned every rescan interval, because a WatchService misses events on some
 * filesystems (network mounts, some container overlays); a rescan due while events are pending waits for their
 * scan, so a file being written in place is not read half-way. A scan that fails is logged and tried again at the
 * next event or rescan, never at once.
 *
 * <p>A listed file that is a dangling symlink is absent (the kubelet removes a key's symlink after the swap). A
 * directory that cannot be listed or holds no tenant file is reported as unusable and changes nothing: that is
 * what refuses a start, and a tenant file is never dropped because its volume went away for a moment.
 */
public final class TenantWatcher implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(TenantWatcher.class);
    /** Marks a file that could not be read: reported once, then again only when it reads. */
    private static final String UNREADABLE = "unreadable";

    /** Told of each change, on the watcher's thread, one call at a time. */
    public interface Listener {
        /** The tenant's file is new or its bytes changed. */
        void written(String tenant, Path file, byte[] bytes);

        /** The tenant's file is listed but could not be read ({@code why} names no content). */
        void unreadable(String tenant, Path file, String why);

        /** The tenant's file is gone. */
        void removed(String tenant, Path file);

        /** The directory cannot be listed or holds no tenant file; nothing was changed. */
        void unusable(Path dir, String why);
    }

    private final Path dir;
    private final Duration debounce;
    private final Duration rescan;
    private final Listener listener;
    private final boolean events;
    /** By tenant, the SHA-256 of the bytes last reported (or {@link #UNREADABLE}); only the watcher thread uses it. */
    private final Map<String, String> seen;
    /** How many scans in a row found a tenant's file empty; reported as written only after this many. */
    static final int EMPTY_RETRIES = 3;
    private final Map<String, Integer> empty = new HashMap<>();
    private Thread thread;
    private WatchService watch;
    private WatchKey key;
    private volatile boolean closed;
    private boolean unusableReported;

    /**
     * @param known by tenant, the digest of the file as already loaded (the start's), so the first scan reports
     *        only what changed since
     */
    public TenantWatcher(Path dir, Map<String, String> known, Duration debounce, Duration rescan, Listener listener) {
        this(dir, known, debounce, rescan, listener, true);
    }

    /** @param events false: rely on the periodic rescan alone (what a filesystem without change events gets) */
    TenantWatcher(Path dir, Map<String, String> known, Duration debounce, Duration rescan, Listener listener,
            boolean events) {
        this.dir = dir;
        this.seen = new HashMap<>(known);
        this.debounce = debounce;
        this.rescan = rescan;
        this.listener = listener;
        this.events = events;
    }

    public synchronized void start() {
        if (thread != null) {
            return;
        }
        if (events) {
            try {
                watch = dir.getFileSystem().newWatchService();
            } catch (IOException | UnsupportedOperationException e) {
                LOG.warnf("tenants directory %s: no change events (%s); rescanning every %d s", dir,
                        e.getClass().getSimpleName(), rescan.toSeconds());
            }
        }
        thread = new Thread(this::run, "cloakgate-tenant-watcher");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        register();
        long rescanNanos = Math.max(1, rescan.toNanos());
        long debounceNanos = Math.max(1, debounce.toNanos());
        long nextRescan = System.nanoTime(); // at once: what changed between the start's load and now
        boolean pending = false; // events arrived that no scan has covered yet
        long firstEvent = 0;
        long due = 0;
        while (!closed) {
            try {
                long now = System.nanoTime();
                // while events are pending the rescan waits for them: a file being written is read once it is quiet
                long wait = pending ? due - now : nextRescan - now;
                if (wait > 0 && poll(wait)) {
                    now = System.nanoTime();
                    if (!pending) {
                        pending = true;
                        firstEvent = now;
                    }
                    // quiet for a debounce, but never later than ten debounces after the first event
                    due = now + Math.min(debounceNanos, Math.max(0, firstEvent + 10 * debounceNanos - now));
                    continue;
                }
                now = System.nanoTime();
                if (pending ? now - due >= 0 : now - nextRescan >= 0) {
                    // the next scan is planned before this one runs: a scan that fails waits for the next event or rescan
                    pending = false;
                    nextRescan = now + rescanNanos;
                    if (key == null) {
                        register(); // the directory came back, or was never there at start
                    }
                    if (scan()) {
                        // a tenant file was empty: most likely truncated by a plain write still under way
                        pending = true;
                        firstEvent = now;
                        due = now + debounceNanos;
                    }
                }
            } catch (InterruptedException | ClosedWatchServiceException e) {
                return;
            } catch (RuntimeException e) {
                // the watcher must outlive any one bad scan: the next event or rescan tries again
                LOG.errorf("tenants directory %s: scan failed (%s)", dir, e.getClass().getSimpleName());
                LOG.debug("scan failure", e);
            }
        }
    }

    /** Waits up to {@code nanos} for an event; true when one came (its details do not matter, only that it did). */
    private boolean poll(long nanos) throws InterruptedException {
        if (watch == null) {
            TimeUnit.NANOSECONDS.sleep(nanos);
            return false;
        }
        WatchKey k = watch.poll(nanos, TimeUnit.NANOSECONDS);
        if (k == null) {
            return false;
        }
        k.pollEvents();
        if (!k.reset() && k == key) {
            key = null; // the directory itself went away; rescans re-register when it is back
        }
        return true;
    }

    private void register() {
        if (watch == null) {
            return;
        }
        try {
            key = dir.register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_DELETE,
                    StandardWatchEventKinds.ENTRY_MODIFY);
        } catch (IOException e) {
            key = null;
        }
    }

    /**
     * Compares every tenant file with what was last reported, and reports the differences. True when an empty
     * file was left for a later scan (see {@link #EMPTY_RETRIES}).
     */
    boolean scan() {
        boolean retry = false;
        Map<String, Path> files = new TreeMap<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, TenantRegistry::tenantFile)) {
            for (Path p : ds) {
                if (Files.isRegularFile(p)) { // follows symlinks: a dangling one is no file
                    String name = p.getFileName().toString();
                    files.put(name.substring(0, name.length() - ".json".length()), p);
                }
            }
        } catch (NoSuchFileException e) {
            unusable("does not exist");
            return false;
        } catch (IOException e) {
            unusable("cannot be listed (" + e.getClass().getSimpleName() + ")");
            return false;
        }
        if (files.isEmpty()) {
            unusable("holds no tenant file (*.json)");
            return false;
        }
        unusableReported = false;
        for (Map.Entry<String, Path> f : files.entrySet()) {
            String tenant = f.getKey();
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(f.getValue());
            } catch (IOException e) {
                if (!UNREADABLE.equals(seen.put(tenant, UNREADABLE))) {
                    tell(() -> listener.unreadable(tenant, f.getValue(), "cannot be read (" + e.getClass().getSimpleName() + ")"));
                }
                continue;
            }
            // a plain write truncates before it writes: an empty file is read again after a debounce (a few times)
            // rather than reported, so a slow writer does not flap the tenant's status through "invalid"
            if (bytes.length == 0 && empty.merge(tenant, 1, Integer::sum) <= EMPTY_RETRIES) {
                retry = true;
                continue;
            }
            empty.remove(tenant);
            String digest = TenantParser.sha256(bytes);
            if (!digest.equals(seen.put(tenant, digest))) {
                tell(() -> listener.written(tenant, f.getValue(), bytes));
            }
        }
        for (String gone : List.copyOf(seen.keySet())) {
            if (!files.containsKey(gone)) {
                seen.remove(gone);
                tell(() -> listener.removed(gone, dir.resolve(gone + ".json")));
            }
        }
        return retry;
    }

    private void unusable(String why) {
        if (!unusableReported) {
            unusableReported = true;
            tell(() -> listener.unusable(dir, why));
        }
    }

    private void tell(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            LOG.errorf("tenants directory %s: handling a change failed (%s)", dir, e.getClass().getSimpleName());
            LOG.debug("change handling failure", e);
        }
    }

    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            closed = true;
            t = thread;
        }
        if (watch != null) {
            try {
                watch.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
        if (t != null) {
            t.interrupt();
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
