package dev.cloakgate.gate;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.function.LongSupplier;

import dev.cloakgate.crypto.Dsse;

/**
 * The certification as its file says now. A renewed certification replaces the file while the gateway runs, so the
 * file is looked at again (its size and modification time, at most once a second) and re-read when it changed; a
 * file that disappeared is no certification. What was read is still verified at every call: this only finds bytes.
 */
final class CertificationFile {
    private static final long RECHECK_NANOS = 1_000_000_000L;
    private final Path file;
    private final LongSupplier nanos;
    private volatile Snapshot current;

    /** The bytes read and the file attributes they were read under; {@code bytes} null when there is no file. */
    private record Snapshot(byte[] bytes, FileTime modified, long size, long checkedAt) {
    }

    CertificationFile(Path file, LongSupplier nanos) throws IOException {
        this.file = file;
        this.nanos = nanos;
        this.current = read();
    }

    /** The envelope's bytes (at most {@link Dsse#MAX_ENVELOPE_BYTES} + 1: over that is unreadable), or null. */
    byte[] bytes() {
        Snapshot s = current;
        long now = nanos.getAsLong();
        if (now - s.checkedAt() >= RECHECK_NANOS) {
            synchronized (this) {
                s = current;
                if (now - s.checkedAt() >= RECHECK_NANOS) {
                    s = refreshed(s, now);
                    current = s;
                }
            }
        }
        return s.bytes();
    }

    private Snapshot refreshed(Snapshot s, long now) {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            if (s.bytes() != null && a.size() == s.size() && a.lastModifiedTime().equals(s.modified())) {
                return new Snapshot(s.bytes(), s.modified(), s.size(), now);
            }
            return read();
        } catch (NoSuchFileException gone) {
            return new Snapshot(null, null, -1, now);
        } catch (IOException unreadable) {
            // a file that cannot be read now is not a certification: fail closed until it can
            return new Snapshot(null, null, -1, now);
        }
    }

    /** The envelope's bytes (over {@link Dsse#MAX_ENVELOPE_BYTES}: one byte past, unreadable, never read whole), or null. */
    static byte[] readOrNull(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(Dsse.MAX_ENVELOPE_BYTES + 1);
        } catch (NoSuchFileException absent) {
            return null;
        }
    }

    private Snapshot read() throws IOException {
        long now = nanos.getAsLong();
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            byte[] bytes = readOrNull(file);
            return bytes == null ? new Snapshot(null, null, -1, now) : new Snapshot(bytes, a.lastModifiedTime(), a.size(), now);
        } catch (NoSuchFileException absent) {
            return new Snapshot(null, null, -1, now);
        }
    }
}
