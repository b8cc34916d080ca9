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

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Approval receipts as files {@code <fingerprint-hex>.approval.json} in one directory: the tenant's
 * {@code approvals_dir}, by default {@code {dataDir}/approvals/{tenant}} ({@link #defaultDir}). The operator's
 * {@code approve --out} writes there, the admin API's upload goes through {@link #put}; the directory and the files
 * this store writes are owner-only.
 *
 * <p><b>Waiting</b> ({@link PolledApprovalStore}): files written by another process are seen by polling. A file appears
 * to a waiter only once it is a whole JSON document, so a writer that does not rename into place is not read
 * half-written.
 */
public final class DirectoryApprovalStore extends PolledApprovalStore {
    public static final Duration POLL = Duration.ofMillis(200);
    static final String SUFFIX = ".approval.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;

    public DirectoryApprovalStore(Path dir) {
        this(dir, POLL);
    }

    public DirectoryApprovalStore(Path dir, Duration poll) {
        super(String.valueOf(dir.getFileName()), poll);
        this.dir = dir;
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
        return dir.resolve(checkFingerprint(fingerprintHex) + SUFFIX);
    }

    @Override
    byte[] fetch(String fingerprintHex) {
        return read(file(fingerprintHex));
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
    void store(String fingerprintHex, byte[] copy) {
        Path target = file(fingerprintHex);
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
    }

    @Override
    boolean complete(byte[] receipt) {
        return wholeJson(receipt);
    }

    private static boolean wholeJson(byte[] bytes) {
        try {
            com.fasterxml.jackson.databind.JsonNode n = JSON.readTree(bytes);
            return n != null && !n.isMissingNode();
        } catch (IOException partial) {
            return false;
        }
    }
}
