package dev.cloakgate.gate;

/**
 * A session's trusted task context: set at initialize from the orchestrator's signed header, or by an operator
 * through the admin API; never from anything in an MCP message. Null until one is set.
 */
public final class SessionTask {
    private volatile TaskContext context;

    public TaskContext get() {
        return context;
    }

    public void set(TaskContext context) {
        this.context = context;
    }
}
