package dev.cloakgate.ledger;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Child JVM for the crash test: opens a store and appends batches as fast as it can until killed. */
public final class LedgerCrashChild {
    public static void main(String[] args) {
        ObjectMapper m = new ObjectMapper();
        LedgerStore store = LedgerStore.open(Path.of(args[0]), args[1]);
        System.out.println("open at " + store.size());
        System.out.flush();
        long n = 0;
        while (true) {
            List<ObjectNode> batch = new ArrayList<>(100);
            for (int i = 0; i < 100; i++) {
                ObjectNode b = m.createObjectNode().put("kind", "tool_call").put("tool", "search").put("action", "allow")
                        .put("n", n++).put("micros", 12.5 * i);
                batch.add(b);
            }
            store.append(batch);
        }
    }
}
