package dev.cloakgate.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Receipts in a directory: the {@link ApprovalStoreContract}, and what files add: owner-only modes, atomic rename, files
 * that are too large or not regular, and a writer that writes in place.
 */
class DirectoryApprovalStoreTest extends ApprovalStoreContract {
    @TempDir
    Path data;

    @Override
    PolledApprovalStore open(String tenant) {
        return new DirectoryApprovalStore(DirectoryApprovalStore.defaultDir(data, tenant));
    }

    @Override
    Duration poll() {
        return DirectoryApprovalStore.POLL;
    }

    private DirectoryApprovalStore dirStore() {
        return (DirectoryApprovalStore) store();
    }

    @Test
    void putStoresTheReceiptOwnerOnlyUnderItsFingerprintAndFindReadsIt() throws Exception {
        DirectoryApprovalStore s = dirStore();
        assertEquals(data.resolve("approvals").resolve("acme"), s.dir());
        assertEquals(Optional.empty(), s.find(fp(1)), "no directory yet: no receipt");
        s.put(fp(1), receipt("one"));
        Path file = s.dir().resolve(fp(1) + ".approval.json");
        assertArrayEquals(receipt("one"), Files.readAllBytes(file));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(s.dir())));
        s.put(fp(1), receipt("two"));
        try (var names = Files.list(s.dir())) {
            assertEquals(List.of(fp(1) + ".approval.json"), names.map(p -> p.getFileName().toString()).toList(),
                    "no temporary file is left behind");
        }
    }

    @Test
    void aBadNameWritesNothing() {
        DirectoryApprovalStore s = dirStore();
        assertThrows(ApprovalStoreException.class, () -> s.put("../" + fp(1).substring(3), receipt("x")));
        assertFalse(Files.exists(s.dir()), "nothing was written");
    }

    @Test
    void aReceiptFileOverSixtyFourKibibytesIsRefusedNotCut() throws Exception {
        DirectoryApprovalStore s = dirStore();
        Files.createDirectories(s.dir());
        byte[] limit = new byte[64 * 1024 + 1];
        Arrays.fill(limit, (byte) ' ');
        Files.write(s.dir().resolve(fp(2) + ".approval.json"), limit);
        ApprovalStoreException big = assertThrows(ApprovalStoreException.class, () -> s.find(fp(2)));
        assertEquals("approval_unreadable", big.code());
        assertTrue(big.getMessage().contains("larger than 65536 bytes"), big.getMessage());
    }

    @Test
    void aReceiptThatIsNotARegularFileIsUnreadable() throws Exception {
        DirectoryApprovalStore s = dirStore();
        Files.createDirectories(s.dir().resolve(fp(1) + ".approval.json"));
        assertEquals("approval_unreadable", assertThrows(ApprovalStoreException.class, () -> s.find(fp(1))).code());
        Path elsewhere = Files.write(data.resolve("elsewhere.json"), receipt("x"));
        Files.createSymbolicLink(s.dir().resolve(fp(2) + ".approval.json"), elsewhere);
        assertEquals("approval_unreadable", assertThrows(ApprovalStoreException.class, () -> s.find(fp(2))).code());
    }

    @Test
    void aWriterThatWritesInPlaceIsNotReadHalfWritten() throws Exception {
        DirectoryApprovalStore s = dirStore();
        CompletableFuture<byte[]> written = s.await(fp(2), LONG);
        byte[] whole = receipt("written in place");
        Files.createDirectories(s.dir());
        Path target = s.dir().resolve(fp(2) + ".approval.json");
        Files.write(target, Arrays.copyOf(whole, whole.length / 2));
        Thread.sleep(3 * DirectoryApprovalStore.POLL.toMillis());
        assertFalse(written.isDone(), "half a receipt is not a receipt");
        Files.write(target, whole);
        assertArrayEquals(whole, written.get(30, TimeUnit.SECONDS));
    }

    @Test
    void aReceiptRenamedIntoPlaceReleasesAWait() throws Exception {
        DirectoryApprovalStore s = dirStore();
        s.put(fp(1), receipt("expired"));
        CompletableFuture<byte[]> replacement = s.await(fp(1), LONG, receipt("expired"));
        Files.move(Files.write(s.dir().resolve("incoming.tmp"), receipt("fresh")), s.dir().resolve(fp(1) + ".approval.json"),
                StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        assertArrayEquals(receipt("fresh"), replacement.get(30, TimeUnit.SECONDS));
    }
}
