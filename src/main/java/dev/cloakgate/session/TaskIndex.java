package dev.cloakgate.session;

import java.util.LinkedHashMap;
import java.util.Map;

/** Which upstream created a task (MCP tasks), so tasks/get, tasks/result and tasks/cancel reach it. */
final class TaskIndex {
    private final Map<String, String> owners;

    TaskIndex(int capacity) {
        this.owners = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
                return size() > capacity;
            }
        };
    }

    synchronized void record(String taskId, String upstream) {
        owners.put(taskId, upstream);
    }

    synchronized String owner(String taskId) {
        return owners.get(taskId);
    }
}
