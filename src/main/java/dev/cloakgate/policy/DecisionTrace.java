package dev.cloakgate.policy;

/**
 * Where every decision goes: one JSON line per decision and tenant, naming the stage, the tool, the controls
 * that fired, the action, the time taken, and the payload's length and keyed digest, never the payload.
 */
public interface DecisionTrace extends AutoCloseable {
    /**
     * @param session a keyed digest of the session id (the id itself is a bearer handle)
     * @param payloadBytes the UTF-8 length of the payload's JSON
     * @param payloadHmac HMAC-SHA-256 of that JSON under the tenant's secret: an auditor given the secret and a
     *        payload can check the match; a plain hash of a short value could be brute-forced
     */
    record Entry(String tenant, String session, Stage stage, String upstream, String tool, Decision decision,
            long micros, long payloadBytes, String payloadHmac) {
    }

    void record(Entry e);

    @Override
    void close();

    DecisionTrace NONE = new DecisionTrace() {
        @Override
        public void record(Entry e) {
        }

        @Override
        public void close() {
        }
    };
}
