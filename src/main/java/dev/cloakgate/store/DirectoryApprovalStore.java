package dev.cloakgate.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Approval receipts as files {@code <fingerprint-hex>.approval.json} in one directory: the tenant's
 * {@code approvals_dir}, by default {@code {dataDir}/approvals/{tenant}} ({@link #defaultDir}). The operator's
 * {@code approve --out} writes there, the admin API's upload goes through {@link #put}; the directory and the files
 * this store writes are owner-only.
 *
 * <p><b>Waiting.</b> {@link #await} is served by {@link #put} at once, and for files written by another process by
 * polling: one thread per store (started at the first wait), one look per fingerprint waited for and poll
 * interval, whatever the number of waiters; it stops when nobody waits. A file appears to a waiter only once it
 * is a whole JSON document, so a writer that does not rename into place is not read half-written.
 */
public final class DirectoryApprovalStore implements ApprovalStore {
    public static final Duration POLL = Duration.ofMillis(200);
    static final String SUFFIX = ".approval.json";
    private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-f]{64}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final class Waiter {
        final String fingerprint;
        final byte[] seen;
        final CompletableFuture<byte[]> future = new CompletableFuture<>();
        volatile ScheduledFuture<?> timeout;

        Waiter(String fingerprint, byte[] seen) {
            this.fingerprint = fingerprint;
            this.seen = seen;
        }

        /** Hands over {@code receipt} unless it is the one this waiter already has. */
        void offer(byte[] receipt) {
            if (seen == null || !Arrays.equals(seen, receipt)) {
                future.complete(receipt.clone());
            }
        }
    }

    private final Path dir;
    private final long pollMillis;
    private final ScheduledThreadPoolExecutor scheduler;
    /** Guarded by this. */
    private final Map<String, Set<Waiter>> waiters = new HashMap<>();
    /** Guarded by this; null while nobody waits. */
    private ScheduledFuture<?> polling;
    /** Guarded by this. */
    private boolean closed;

    public DirectoryApprovalStore(Path dir) {
        this(dir, POLL);
    }

    public DirectoryApprovalStore(Path dir, Duration poll) {
        if (poll.isNegative() || poll.isZero()) {
            throw new IllegalArgumentException("the poll interval of an approval store must be positive");
        }
        this.dir = dir;
        this.pollMillis = Math.max(1, poll.toMillis());
        this.scheduler = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "approvals-poll " + dir.getFileName());
            t.setDaemon(true);
            return t;
        });
        scheduler.setRemoveOnCancelPolicy(true);
    }

    /** The directory a tenant's receipts are in when its gate block names no {@code approvals_dir}. */
    public static Path defaultDir(Path dataDir, String tenant) {
        return dataDir.resolve("approvals").resolve(tenant);
    }

    public Path dir() {
        return dir;
    }

    /** Where the receipt for this fingerprint is, after checking the name. */
    public Path file(String fingerprintHex) {
        if (fingerprintHex == null || !FINGERPRINT.matcher(fingerprintHex).matches()) {
            throw new ApprovalStoreException(ApprovalStoreException.FINGERPRINT_INVALID,
                    "a receipt is named by its call's fingerprint: 64 lower-case hex digits");
        }
        return dir.resolve(fingerprintHex + SUFFIX);
    }

    @Override
    public Optional<byte[]> find(String fingerprintHex) {
        return Optional.ofNullable(read(file(fingerprintHex)));
    }

    /** The file's bytes, null when there is no file; never more than {@link #MAX_BYTES} (refused, not cut). */
    private static byte[] read(Path file) {
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException absent) {
            return null;
        } catch (IOException e) {
            throw unreadable(file, e.getClass().getSimpleName(), e);
        }
        if (!attrs.isRegularFile()) {
            // a FIFO would block the reader, a link may point anywhere: a receipt is a plain file in the directory
            throw unreadable(file, "not a regular file", null);
        }
        if (attrs.size() > MAX_BYTES) {
            throw unreadable(file, "larger than " + MAX_BYTES + " bytes", null);
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            // bounded by reading, not by the size seen above: the file may have grown since. readNBytes grows its
            // buffer as it reads, so a receipt of a few hundred bytes does not cost a 64 KiB allocation per call
            byte[] bytes = java.nio.channels.Channels.newInputStream(ch).readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                throw unreadable(file, "larger than " + MAX_BYTES + " bytes", null);
            }
            return bytes;
        } catch (NoSuchFileException gone) {
            return null;
        } catch (IOException e) {
            throw unreadable(file, e.getClass().getSimpleName(), e);
        }
    }

    private static ApprovalStoreException unreadable(Path file, String why, Throwable cause) {
        return new ApprovalStoreException(ApprovalStoreException.UNREADABLE, "approval receipt " + file + " cannot be read: " + why
                + "; replace it with the receipt `approve` wrote", cause);
    }

    @Override
    public void put(String fingerprintHex, byte[] envelope) {
        Path target = file(fingerprintHex);
        if (envelope == null || envelope.length == 0 || envelope.length > MAX_BYTES) {
            throw new ApprovalStoreException(ApprovalStoreException.TOO_LARGE, "an approval receipt is 1 to " + MAX_BYTES
                    + " bytes, this one is " + (envelope == null ? 0 : envelope.length));
        }
        byte[] copy = envelope.clone();
        Path tmp = null;
        try {
            OwnerOnly.directories(dir);
            tmp = OwnerOnly.tempFile(dir, ".approval-");
            try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ByteBuffer b = ByteBuffer.wrap(copy);
                while (b.hasRemaining()) {
                    out.write(b);
                }
                out.force(true);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            tmp = null;
        } catch (IOException e) {
            throw new StoreException("cannot store approval receipt " + target + ": " + e.getMessage(), e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // a stray temporary file is never read as a receipt (its name does not end in .approval.json)
                }
            }
        }
        for (Waiter w : waitersOf(fingerprintHex)) {
            w.offer(copy);
        }
    }

    @Override
    public CompletableFuture<byte[]> await(String fingerprintHex, Duration max, byte[] seen) {
        Path file = file(fingerprintHex);
        Waiter w = new Waiter(fingerprintHex, seen == null ? null : seen.clone());
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("approval store " + dir + " is closed");
            }
            waiters.computeIfAbsent(fingerprintHex, k -> new LinkedHashSet<>()).add(w);
            if (polling == null) {
                polling = scheduler.scheduleWithFixedDelay(this::poll, pollMillis, pollMillis, TimeUnit.MILLISECONDS);
            }
            w.timeout = scheduler.schedule(() -> w.future.complete(null), Math.max(0, max.toNanos()), TimeUnit.NANOSECONDS);
        }
        // registered first, then looked: a receipt stored in between is either offered by put or seen here
        try {
            scheduler.execute(() -> look(file, List.of(w)));
        } catch (RejectedExecutionException closing) {
            // closed meanwhile: close completed this waiter with null
        }
        w.future.whenComplete((receipt, failure) -> forget(w));
        return w.future;
    }

    private synchronized void forget(Waiter w) {
        ScheduledFuture<?> t = w.timeout;
        if (t != null) {
            t.cancel(false);
        }
        Set<Waiter> same = waiters.get(w.fingerprint);
        if (same != null && same.remove(w) && same.isEmpty()) {
            waiters.remove(w.fingerprint);
        }
        if (waiters.isEmpty() && polling != null) {
            polling.cancel(false);
            polling = null;
        }
    }

    private synchronized List<Waiter> waitersOf(String fingerprint) {
        Set<Waiter> same = waiters.get(fingerprint);
        return same == null ? List.of() : new ArrayList<>(same);
    }

    private void poll() {
        Map<String, List<Waiter>> now;
        synchronized (this) {
            now = new HashMap<>();
            waiters.forEach((fp, ws) -> now.put(fp, new ArrayList<>(ws)));
        }
        now.forEach((fp, ws) -> look(dir.resolve(fp + SUFFIX), ws));
    }

    /** Offers the file to the waiters once it is a whole receipt; anything else is not there yet. */
    private static void look(Path file, List<Waiter> ws) {
        byte[] receipt;
        try {
            receipt = read(file);
        } catch (ApprovalStoreException unreadable) {
            return; // the gate's find says approval_unreadable when the wait ends, if it is still so
        }
        if (receipt == null || !wholeJson(receipt)) {
            return;
        }
        for (Waiter w : ws) {
            w.offer(receipt);
        }
    }

    private static boolean wholeJson(byte[] bytes) {
        try {
            com.fasterxml.jackson.databind.JsonNode n = JSON.readTree(bytes);
            return n != null && !n.isMissingNode();
        } catch (IOException partial) {
            return false;
        }
    }

    /** How many waits are open (for tests). */
    synchronized int waiting() {
        return waiters.values().stream().mapToInt(Set::size).sum();
    }

    /** Whether the poll task is scheduled (for tests). */
    synchronized boolean polling() {
        return polling != null;
    }

    @Override
    public void close() {
        List<Waiter> all = new ArrayList<>();
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            waiters.values().forEach(all::addAll);
        }
        for (Waiter w : all) {
            w.future.complete(null);
        }
        scheduler.shutdownNow();
    }
}
