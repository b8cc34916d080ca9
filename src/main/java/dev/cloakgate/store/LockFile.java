package dev.cloakgate.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * An exclusive OS lock on a file, held for the life of a store, the file naming its holder ({@code pid N}) so that
 * the one refused can say who holds it. The OS releases the lock when the process dies, even by SIGKILL; the stale
 * pid left in the file is overwritten by the next holder.
 */
public final class LockFile implements AutoCloseable {
    /** Lock files held in this JVM, by real path. */
    private static final Set<String> HELD = ConcurrentHashMap.newKeySet();

    /** The lock is held by someone else; {@link #holder()} is what its file says (empty if nothing). */
    public static final class Held extends Exception {
        private final String holder;

        Held(String holder) {
            super(holder, null, false, false);
            this.holder = holder;
        }

        public String holder() {
            return holder;
        }
    }

    private final Path path;
    private final String key;
    private final FileChannel channel;
    private final FileLock lock;
    private boolean closed;

    private LockFile(Path path, String key, FileChannel channel, FileLock lock) {
        this.path = path;
        this.key = key;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock on {@code lockFile} (created if absent; its directory must exist), or throws what
     * {@code refused} makes of its holder ({@code pid N}, empty when the file does not say).
     */
    public static LockFile acquire(Path lockFile, Function<String, ? extends RuntimeException> refused) throws IOException {
        try {
            return acquire(lockFile);
        } catch (Held held) {
            throw refused.apply(held.holder());
        }
    }

    /** Takes the lock on {@code lockFile} (created if absent; its directory must exist) or says who holds it. */
    public static LockFile acquire(Path lockFile) throws IOException, Held {
        // POSIX locks are per process and closing ANY descriptor of the file drops them all (FileLock javadoc),
        // so a second holder in this JVM must be refused before it opens the lock file at all
        String key = lockFile.getParent().toRealPath().resolve(lockFile.getFileName()).toString();
        if (!HELD.add(key)) {
            throw new Held("another store in this process, pid " + ProcessHandle.current().pid());
        }
        FileChannel channel = null;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw new Held(holder(channel));
            }
            byte[] who = ("pid " + ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8);
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(who), 0);
            channel.force(false);
            return new LockFile(lockFile, key, channel, lock);
        } catch (IOException | Held | RuntimeException e) {
            if (channel != null) {
                try {
                    channel.close(); // drops the lock too, if it was taken
                } catch (IOException ignored) {
                    // the OS releases it anyway when the process ends
                }
            }
            HELD.remove(key);
            throw e;
        }
    }

    private static String holder(FileChannel channel) {
        try {
            ByteBuffer buf = ByteBuffer.allocate(256);
            int n = channel.read(buf, 0);
            return n <= 0 ? "" : new String(buf.array(), 0, n, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            return "";
        }
    }

    public Path path() {
        return path;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return; // a second close must not drop the key of a later holder
        }
        closed = true;
        try {
            lock.release();
            channel.close();
        } catch (IOException ignored) {
            // the OS drops the lock with the channel or the process
        } finally {
            HELD.remove(key);
        }
    }
}
