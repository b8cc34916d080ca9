package dev.cloakgate.ledger;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Creates a small file under the data dir once, whole, even when two processes race for it: the content goes to a
 * temporary file that is then linked into place, so the link either creates the file whole or fails because it
 * exists. Used for what is generated once and then kept (the dev signing key, the generated log identity).
 */
final class WriteOnce {
    private WriteOnce() {
    }

    /**
     * @param ownerOnly the file (and a directory made for it) readable by the owner only
     * @return false when the file already existed (another process won): its content is the one to read
     */
    static boolean create(Path file, byte[] content, boolean ownerOnly) throws IOException {
        Path dir = file.getParent();
        boolean posix = ownerOnly && dir.getFileSystem().supportedFileAttributeViews().contains("posix");
        Path tmp = null;
        try {
            if (posix) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectories(dir);
            }
            FileAttribute<?>[] attrs = posix
                    ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
                    : new FileAttribute<?>[0];
            tmp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp", attrs);
            try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                out.write(ByteBuffer.wrap(content));
                out.force(true); // a crash right after must not leave an empty file behind the link
            }
            try {
                Files.createLink(file, tmp);
            } catch (FileAlreadyExistsException lost) {
                return false;
            } catch (UnsupportedOperationException | FileSystemException noLinks) {
                // no hard links here: a rename that refuses an existing target leaves a smaller window
                try {
                    Files.move(tmp, file);
                } catch (FileAlreadyExistsException lost) {
                    return false;
                }
            }
            return true;
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // a leftover temp file is owner-only when it matters, and used by nobody
                }
            }
        }
    }
}
