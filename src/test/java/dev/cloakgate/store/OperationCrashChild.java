package dev.cloakgate.store;

import java.nio.file.Path;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Child JVM for {@link OperationCrashTest}: a gateway's store with one settled call and one forwarded call that
 * never returns, then it waits to be killed.
 */
public final class OperationCrashChild {
    public static void main(String[] args) throws Exception {
        SqliteOperationStore store = SqliteOperationStore.openForGateway(Path.of(args[0]), args[1]);
        store.begin("op-done", SqliteOperationStoreTest.start(args[1], "crm__patch"));
        store.settle("op-done", OperationState.DONE, new ObjectMapper().readTree("{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}"));
        store.begin("op-kill", SqliteOperationStoreTest.start(args[1], "crm__patch"));
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
