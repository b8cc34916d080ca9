package dev.cloakgate.ledger;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.testing.PooledDataSource;
import dev.cloakgate.testing.TestPostgres;

/**
 * Child JVM for the crash tests: opens a store and appends batches of 100 as fast as it can until killed. Arguments
 * {@code DATA_DIR TENANT} (SQLite), or issue 17's {@code postgresql DB URL USER PASSWORD TENANT WRITER} (a replica of a
 * shared log; each entry names its writer).
 */
public final class LedgerCrashChild {
    public static void main(String[] args) {
        boolean shared = args[0].equals("postgresql");
        LedgerStore store = shared
                ? PostgresLedgerStore.open(PooledDataSource.of(new TestPostgres.Database(args[1], args[2], args[3], args[4]), 2),
                        args[5], java.time.Clock.systemUTC())
                : LedgerStore.open(Path.of(args[0]), args[1]);
        String writer = shared ? args[6] : null;
        ObjectMapper m = new ObjectMapper();
        System.out.println("open at " + store.size());
        System.out.flush();
        long n = 0;
        while (true) {
            List<ObjectNode> batch = new ArrayList<>(100);
            for (int i = 0; i < 100; i++) {
                ObjectNode b = m.createObjectNode().put("kind", "tool_call").put("tool", "search").put("action", "allow")
                        .put("n", n++).put("micros", 12.5 * i);
                if (writer != null) {
                    b.put("writer", writer);
                }
                batch.add(b);
            }
            store.append(batch);
        }
    }
}
