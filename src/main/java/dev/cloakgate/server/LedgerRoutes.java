package dev.cloakgate.server;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import dev.cloakgate.auth.Access;
import dev.cloakgate.auth.Role;
import dev.cloakgate.ledger.BundleWriter;
import dev.cloakgate.ledger.Ledger;
import dev.cloakgate.ledger.LedgerStore;
import dev.cloakgate.tenant.TenantConfig;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code GET /admin/t/{tenant}/ledger/export?from_seq=&to_seq=}: the auditor's export, a bundle that
 * {@code ledger verify} checks offline. Only a principal of that tenant with the auditor role opens it; agents' and
 * operators' credentials give none. Refusals are JSON {@code {"error", "message"}} with
 * a stable code.
 */
@ApplicationScoped
public class LedgerRoutes {
    private static final Logger LOG = Logger.getLogger(LedgerRoutes.class);
    static final String PATH = "/admin/t/:tenant/ledger/export";

    @Inject
    Gateway gateway;

    @Inject
    AccessRefusals refusals;

    void routes(@Observes Router router) {
        // writing a bundle reads the database and signs: off the event loop
        router.get(PATH).blockingHandler(this::export, false);
        router.route(PATH).handler(rc -> rc.response().setStatusCode(405).putHeader("Allow", "GET").end());
    }

    private void export(RoutingContext rc) {
        String name = rc.pathParam("tenant");
        TenantConfig tenant = gateway.tenants() == null ? null : gateway.tenants().get(name).orElse(null);
        if (tenant == null) {
            refuse(rc, 404, "unknown_tenant", "no tenant of that name");
            return;
        }
        // issue 10: the auditor role of the tenant's auth block; an agent's or another tenant's credential opens nothing
        Access access = gateway.access().check(Gateway.authSource(tenant), rc.request().getHeader("Authorization"),
                Role.AUDITOR);
        if (access instanceof Access.Refused r) {
            refusals.record(name, r);
            if (r.challenge() != null) {
                rc.response().putHeader("WWW-Authenticate", r.challenge());
            }
            refuse(rc, r.status(), r.reason(), r.message());
            return;
        }
        String auditor = ((Access.Granted) access).principal().name();
        Ledger ledger = gateway.ledger(name);
        if (ledger == null) {
            refuse(rc, 503, "ledger_unavailable", "the ledger of tenant " + name + " is not open");
            return;
        }
        // everything recorded before this request is committed and checkpointed, so the export can reach it
        ledger.flush();
        ledger.checkpointNow();
        long last = ledger.size() - 1;
        long from;
        long to;
        try {
            from = Args.seq(rc.queryParams().get("from_seq"), 0);
            to = Args.seq(rc.queryParams().get("to_seq"), last);
        } catch (NumberFormatException e) {
            refuse(rc, 400, "bad_range", "from_seq and to_seq are entry numbers (non-negative integers)");
            return;
        }
        if (last < 0 || from > to || to > last) {
            refuse(rc, 400, "bad_range", last < 0 ? "the ledger is empty"
                    : "entries " + from + ".." + to + " are not within 0.." + last + " (from_seq <= to_seq)");
            return;
        }
        Path file = null;
        try {
            Path tmp = Files.createDirectories(Path.of(gateway.config().dataDir()).resolve("tmp"));
            file = Files.createTempFile(tmp, "export-" + name + "-", ".zip");
            // a reader of its own: the export reads for seconds on a big ledger, and the writer's store must not
            // wait for it (its queue would fill and entries be lost)
            try (OutputStream out = Files.newOutputStream(file);
                    LedgerStore reader = LedgerStore.openReadOnly(Path.of(gateway.config().dataDir()), name)) {
                new BundleWriter().write(reader, from, to, ledger.signer(), Clock.systemUTC(), out);
            }
            LOG.infof("ledger of tenant %s: exported entries %d..%d to auditor %s", name, from, to, auditor);
            Path sent = file;
            rc.response().putHeader("Content-Type", "application/zip")
                    .putHeader("Content-Disposition", "attachment; filename=\"" + name + "-ledger-" + from + "-" + to + ".zip\"")
                    .sendFile(file.toString()).onComplete(x -> deleteQuietly(sent));
        } catch (IOException | RuntimeException e) {
            LOG.errorf("ledger of tenant %s: export failed: %s", name, e.getClass().getSimpleName());
            deleteQuietly(file);
            refuse(rc, 500, "export_failed", "the export could not be written; the gateway log says why");
        }
    }


    private static void refuse(RoutingContext rc, int status, String code, String message) {
        rc.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                .end(JsonNodeFactory.instance.objectNode().put("error", code).put("message", message).toString());
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a temp file under data/tmp; the next start does not need it
            }
        }
    }
}
