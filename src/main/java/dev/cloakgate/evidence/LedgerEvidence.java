package dev.cloakgate.evidence;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jboss.logging.Logger;

import dev.cloakgate.ledger.Ledger;

/**
 * Events as ledger entries, each to its tenant's ledger. Appends are queued (group commit), so recording costs a
 * call the mapping and a queue offer; an entry the ledger could not take (queue full, disk failing) is counted
 * and logged by count, and {@link #lost()} exposes it for health and metrics.
 */
public final class LedgerEvidence implements Evidence {
    private static final Logger LOG = Logger.getLogger(LedgerEvidence.class);
    private final Map<String, Ledger> ledgers;
    private final Map<String, LedgerEntries> entries;
    private final AtomicLong lost = new AtomicLong();

    /** @param entries per tenant, the mapping that digests that tenant's session ids */
    public LedgerEvidence(Map<String, Ledger> ledgers, Map<String, LedgerEntries> entries) {
        this.ledgers = new ConcurrentHashMap<>(ledgers);
        this.entries = new ConcurrentHashMap<>(entries);
    }

    /** A tenant added while the gateway runs (its file appeared): its events go to {@code ledger} from now on. */
    public void add(String tenant, Ledger ledger, LedgerEntries mapping) {
        entries.put(tenant, mapping);
        ledgers.put(tenant, ledger);
    }

    @Override
    public void record(Event event) {
        Ledger ledger = ledgers.get(event.tenant());
        LedgerEntries mapping = entries.get(event.tenant());
        if (ledger == null || mapping == null) {
            return;
        }
        ledger.submit(mapping.body(event)).whenComplete((seq, failure) -> {
            if (failure != null && lost.getAndIncrement() % 1000 == 0) {
                LOG.errorf("ledger of tenant %s did not record an entry (%s); %d lost so far", event.tenant(),
                        failure.getClass().getSimpleName(), lost.get());
            }
        });
    }

    /** Entries that could not be recorded since start. */
    public long lost() {
        return lost.get();
    }
}
