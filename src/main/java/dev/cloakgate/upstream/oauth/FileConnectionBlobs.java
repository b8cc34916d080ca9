package dev.cloakgate.upstream.oauth;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

import dev.cloakgate.store.OwnerOnly;

/** One owner-only file per tenant upstream, {@code <root>/<tenant>/<upstream>.conn}, replaced by an atomic rename. */
public final class FileConnectionBlobs implements ConnectionBlobs {
    private final Path root;

    public FileConnectionBlobs(Path root) {
        this.root = root;
    }

    @Override
    public Optional<byte[]> read(String tenant, String upstream) throws IOException {
        try {
            return Optional.of(Files.readAllBytes(file(tenant, upstream)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public void write(String tenant, String upstream, byte[] blob) throws IOException {
        Path file = file(tenant, upstream);
        Path dir = file.getParent();
        OwnerOnly.directories(dir);
        Path tmp = OwnerOnly.tempFile(dir, ".conn-");
        Files.write(tmp, blob);
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Override
    public void delete(String tenant, String upstream) throws IOException {
        Files.deleteIfExists(file(tenant, upstream));
    }

    /** Tenant and upstream names are [a-z0-9-] and letters, digits and '-': safe as path parts. */
    Path file(String tenant, String upstream) {
        return root.resolve(tenant).resolve(upstream + ".conn");
    }
}
