package dev.cloakgate.store;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Files and directories only their owner can read: state that holds what an upstream returned (cloaked, but
 * still the business's data) or what approves an action. Created with the permissions from the start, never
 * chmod-ed afterwards, so there is no moment in which another user could open them. Where the file system has
 * no POSIX permissions (not a platform cloakgate is deployed on) they are created plainly.
 */
public final class OwnerOnly {
    private OwnerOnly() {
    }

    private static boolean posix(Path p) {
        return p.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    private static FileAttribute<?>[] perms(Path p, String perms) {
        return posix(p) ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(perms))}
                : new FileAttribute<?>[0];
    }

    /** Creates {@code dir} and any missing parents as 0700; an existing directory is left as it is. */
    public static Path directories(Path dir) throws IOException {
        return Files.createDirectories(dir, perms(dir, "rwx------"));
    }

    /** Creates {@code file} empty as 0600 unless it exists; true when this call created it. */
    public static boolean file(Path file) throws IOException {
        try {
            Files.createFile(file, perms(file, "rw-------"));
            return true;
        } catch (FileAlreadyExistsException exists) {
            return false;
        }
    }

    /** A fresh 0600 temporary file in {@code dir}, for writing a file whole and renaming it into place. */
    public static Path tempFile(Path dir, String prefix) throws IOException {
        return Files.createTempFile(dir, prefix, ".tmp", perms(dir, "rw-------"));
    }
}
