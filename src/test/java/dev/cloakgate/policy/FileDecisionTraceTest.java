package dev.cloakgate.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileDecisionTraceTest {
    @TempDir
    Path data;

    @Test
    void theTraceIsOwnerOnlyFromItsFirstMoment() throws Exception {
        FileDecisionTrace trace = new FileDecisionTrace(data, "acme");
        try {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(data.resolve("trace"))));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(trace.file())));
        } finally {
            trace.close();
        }
    }
}
