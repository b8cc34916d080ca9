package dev.cloakgate.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watcher on a real directory: files written in place, renamed over, deleted, and a Kubernetes ConfigMap
 * volume built as the kubelet builds it (files that are symlinks through {@code ..data}, which is repointed at a
 * new timestamped directory by one rename). Each change is reported once, by content.
 */
class TenantWatcherTest {
    /** Generous: a loaded machine must not fail these; a working watcher answers in well under a second. */
    private static final Duration WAIT = Duration.ofSeconds(30);

    record Change(String kind, String tenant, String content) {
    }

    private final BlockingQueue<Change> changes = new LinkedBlockingQueue<>();
    private final List<TenantWatcher> watchers = new ArrayList<>();

    @TempDir
    Path dir;

    @AfterEach
    void stop() {
        watchers.forEach(TenantWatcher::close);
    }

    private TenantWatcher watch(Path d, Map<String, String> known, Duration rescan, boolean events) {
        TenantWatcher w = new TenantWatcher(d, known, Duration.ofMillis(50), rescan, listener(), events);
        watchers.add(w);
        w.start();
        return w;
    }

    /** Reports every change into {@link #changes}. */
    private TenantWatcher.Listener listener() {
        return new TenantWatcher.Listener() {
            @Override
            public void written(String tenant, Path file, byte[] bytes) {
                changes.add(new Change("written", tenant, new String(bytes, StandardCharsets.UTF_8)));
            }

            @Override
            public void unreadable(String tenant, Path file, String why) {
                changes.add(new Change("unreadable", tenant, why));
            }

            @Override
            public void removed(String tenant, Path file) {
                changes.add(new Change("removed", tenant, null));
            }

            @Override
            public void unusable(Path d2, String why) {
                changes.add(new Change("unusable", null, why));
            }
        };
    }

    private Change next() throws InterruptedException {
        Change c = changes.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertNotNull(c, "no change reported within " + WAIT);
        return c;
    }

    private static String digest(String s) {
        return TenantParser.sha256(s.getBytes(StandardCharsets.UTF_8));
    }

    /** Writes through a temporary file renamed over the target, as most tools and editors save. */
    private static void replace(Path file, String content) throws Exception {
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
        Files.writeString(tmp, content);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void plainWritesRenamesAndDeletesAreReportedOnceEachByContent() throws Exception {
        Files.writeString(dir.resolve("acme.json"), "v1");
        Files.writeString(dir.resolve("beta.json"), "b1");
        watch(dir, Map.of("acme", digest("v1"), "beta", digest("b1")), Duration.ofSeconds(1), true);

        Files.writeString(dir.resolve("acme.json"), "v2"); // in place
        assertEquals(new Change("written", "acme", "v2"), next());

        replace(dir.resolve("acme.json"), "v3"); // renamed over; the hidden temporary file is never a tenant
        assertEquals(new Change("written", "acme", "v3"), next());

        Files.writeString(dir.resolve("acme.json"), "v3"); // the same bytes again: nothing to report
        Files.writeString(dir.resolve("gamma.json"), "g1"); // a new tenant file
        assertEquals(new Change("written", "gamma", "g1"), next(), "a rewrite with the same bytes is no change");

        Files.delete(dir.resolve("beta.json"));
        assertEquals(new Change("removed", "beta", null), next());

        Files.writeString(dir.resolve("notes.txt"), "not a tenant");
        Files.writeString(dir.resolve(".acme.json.swp"), "an editor's");
        Files.writeString(dir.resolve("acme.json"), "v4");
        assertEquals(new Change("written", "acme", "v4"), next(), "only *.json files that are not hidden");
    }

    @Test
    void anEmptyFileIsAWriteInProgressUntilItStaysEmpty() throws Exception {
        // scans driven by hand, no thread and no timing: a plain write truncates first, and a scan that lands in
        // between must not report the empty file (it would flap the tenant's status through "invalid")
        Files.writeString(dir.resolve("acme.json"), "v1");
        TenantWatcher w = new TenantWatcher(dir, Map.of("acme", digest("v1")), Duration.ofMillis(50),
                Duration.ofHours(1), listener(), false);
        Files.writeString(dir.resolve("acme.json"), "");
        assertTrue(w.scan(), "an empty file asks for another scan");
        assertTrue(changes.isEmpty(), changes::toString);
        Files.writeString(dir.resolve("acme.json"), "v2");
        assertFalse(w.scan());
        assertEquals(new Change("written", "acme", "v2"), changes.poll());
        assertTrue(changes.isEmpty(), changes::toString);
        // an operator who really empties the file hears about it after a few scans
        Files.writeString(dir.resolve("acme.json"), "");
        for (int i = 0; i < TenantWatcher.EMPTY_RETRIES; i++) {
            assertTrue(w.scan());
        }
        assertFalse(w.scan());
        assertEquals(new Change("written", "acme", ""), changes.poll());
    }

    @Test
    void aFileChangedBeforeTheWatcherStartedIsReportedAndAKnownOneIsNot() throws Exception {
        Files.writeString(dir.resolve("acme.json"), "as loaded");
        Files.writeString(dir.resolve("beta.json"), "edited since the load");
        watch(dir, Map.of("acme", digest("as loaded"), "beta", digest("as it was loaded")), Duration.ofSeconds(1), true);
        assertEquals(new Change("written", "beta", "edited since the load"), next());
        Files.writeString(dir.resolve("marker.json"), "m");
        assertEquals(new Change("written", "marker", "m"), next(), "acme, unchanged since the load, is not reported");
    }

    @Test
    void aBurstOfWritesEndsWithTheLastContent() throws Exception {
        Files.writeString(dir.resolve("acme.json"), "v0");
        watch(dir, Map.of("acme", digest("v0")), Duration.ofSeconds(1), true);
        for (int i = 1; i <= 20; i++) {
            Files.writeString(dir.resolve("acme.json"), "v" + i);
        }
        Change c;
        do {
            c = next();
            assertEquals("acme", c.tenant());
        } while (!c.content().equals("v20"));
        Files.writeString(dir.resolve("marker.json"), "m");
        assertEquals(new Change("written", "marker", "m"), next(), "nothing after the last content");
    }

    /**
     * The kubelet's AtomicWriter: the data goes to a new timestamped directory, a {@code ..data_tmp} symlink to it
     * is renamed over {@code ..data}, then symlinks for new keys are created and those of removed keys deleted,
     * and the old directory removed. The events are about {@code ..data}; the tenant files never change as files.
     * Rescans are off here (an hour apart), so it is the change events that find it.
     */
    @Test
    void aConfigMapVolumeSwappingItsDataSymlinkIsFollowed() throws Exception {
        Path mount = Files.createDirectories(dir.resolve("tenants"));
        Path v1 = Files.createDirectories(mount.resolve("..2026_12_01_10_00_00.000000001"));
        Files.writeString(v1.resolve("acme.json"), "acme v1");
        Files.writeString(v1.resolve("beta.json"), "beta v1");
        Files.createSymbolicLink(mount.resolve("..data"), v1.getFileName());
        Files.createSymbolicLink(mount.resolve("acme.json"), Path.of("..data/acme.json"));
        Files.createSymbolicLink(mount.resolve("beta.json"), Path.of("..data/beta.json"));
        // beta is not known: the first scan reports it, so the swap below happens after that scan
        watch(mount, Map.of("acme", digest("acme v1")), Duration.ofHours(1), true);
        assertEquals(new Change("written", "beta", "beta v1"), next());

        // a new version: acme changed, beta removed, gamma added
        Path v2 = Files.createDirectories(mount.resolve("..2026_12_01_10_05_00.000000002"));
        Files.writeString(v2.resolve("acme.json"), "acme v2");
        Files.writeString(v2.resolve("gamma.json"), "gamma v1");
        Files.createSymbolicLink(mount.resolve("..data_tmp"), v2.getFileName());
        Files.move(mount.resolve("..data_tmp"), mount.resolve("..data"), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        Files.createSymbolicLink(mount.resolve("gamma.json"), Path.of("..data/gamma.json"));
        Files.delete(mount.resolve("beta.json"));
        Files.delete(v1.resolve("acme.json"));
        Files.delete(v1.resolve("beta.json"));
        Files.delete(v1);

        List<Change> seen = new ArrayList<>();
        while (seen.size() < 3) {
            seen.add(next());
        }
        assertTrue(seen.contains(new Change("written", "acme", "acme v2")), seen.toString());
        assertTrue(seen.contains(new Change("written", "gamma", "gamma v1")), seen.toString());
        assertTrue(seen.contains(new Change("removed", "beta", null)), seen.toString());
        Change extra = changes.poll(500, TimeUnit.MILLISECONDS);
        assertTrue(extra == null, "each change once: " + extra);
    }

    @Test
    void withoutChangeEventsTheRescanFindsTheChange() throws Exception {
        Files.writeString(dir.resolve("acme.json"), "v1");
        watch(dir, Map.of("acme", digest("v1")), Duration.ofMillis(200), false);
        replace(dir.resolve("acme.json"), "v2");
        assertEquals(new Change("written", "acme", "v2"), next());
    }

    @Test
    void anEmptyOrMissingDirectoryChangesNothingAndSaysSo() throws Exception {
        Files.writeString(dir.resolve("acme.json"), "v1");
        Path d = dir;
        watch(d, Map.of("acme", digest("v1")), Duration.ofMillis(200), true);
        Files.delete(d.resolve("acme.json"));
        Change c = next();
        assertEquals("unusable", c.kind(), "a directory with no tenant file drops no tenant: " + c);
        Files.writeString(d.resolve("acme.json"), "v1");
        Files.writeString(d.resolve("beta.json"), "b1");
        assertEquals(new Change("written", "beta", "b1"), next(), "acme came back as it was: not a change");
    }

    /**
     * A scan that throws (here: the directory's filesystem closed under the watcher, as a network or overlay mount can
     * fail) is logged and tried again at the next rescan: the watcher neither dies with the first failure nor retries
     * without pause. Failed scans are counted in the log, and can never come faster than one per rescan interval.
     */
    @Test
    void aScanThatFailsIsTriedAgainAtTheNextRescanNotAtOnce() throws Exception {
        Path zip = dir.resolve("tenants.zip");
        FileSystem fs = FileSystems.newFileSystem(zip, Map.of("create", "true"));
        Path tenants = Files.createDirectories(fs.getPath("/tenants"));
        Files.writeString(tenants.resolve("acme.json"), "v1");
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        Logger log = Logger.getLogger(TenantWatcher.class.getName());
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getMessage() != null && r.getMessage().contains("scan failed")) {
                    failures.add(r.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(handler);
        try {
            Duration rescan = Duration.ofMillis(200);
            watch(tenants, Map.of(), rescan, true); // a zip filesystem has no change events: rescans alone
            assertEquals(new Change("written", "acme", "v1"), next());
            long closed = System.nanoTime();
            fs.close(); // every later scan throws ClosedFileSystemException
            long until = closed + WAIT.toNanos();
            while (failures.size() < 3 && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            long elapsed = System.nanoTime() - closed;
            int failed = failures.size();
            assertTrue(failed >= 3, "the watcher goes on scanning after a failed scan: " + failed + " failure(s) logged");
            // scans are at least a rescan interval apart, whatever the machine's load
            assertTrue(failed <= elapsed / rescan.toNanos() + 2, failed + " failed scans in "
                    + TimeUnit.NANOSECONDS.toMillis(elapsed) + " ms: a failed scan is retried without waiting");
        } finally {
            log.removeHandler(handler);
        }
    }
}
