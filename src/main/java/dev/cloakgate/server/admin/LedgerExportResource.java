package dev.cloakgate.server.admin;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.logging.Logger;

import dev.cloakgate.auth.Role;
import dev.cloakgate.ledger.BundleWriter;
import dev.cloakgate.ledger.Ledger;
import dev.cloakgate.ledger.LedgerStore;
import dev.cloakgate.server.Args;
import dev.cloakgate.server.Gateway;

/**
 * {@code GET /admin/t/{tenant}/ledger/export?from_seq=&to_seq=}: the auditor's export, a bundle that
 * {@code ledger verify} checks offline. Only a principal of that tenant with the auditor role opens it.
 */
@jakarta.ws.rs.Path("/admin/t/{tenant}/ledger")
@Tag(name = "ledger")
@SecurityRequirement(name = AdminApi.BEARER)
public class LedgerExportResource {
    private static final Logger LOG = Logger.getLogger(LedgerExportResource.class);

    @Inject
    Gateway gateway;

    @Inject
    AdminAccess access;

    @GET
    @jakarta.ws.rs.Path("export")
    @Produces({ "application/zip", MediaType.APPLICATION_JSON })
    @Operation(summary = "Export a range of the tenant's ledger (auditor)", description = "A zip bundle of entries,"
            + " signed checkpoints, inclusion and consistency proofs and a signed manifest, checked offline by"
            + " `ledger verify`. Everything recorded before the request is committed and checkpointed first.")
    @APIResponse(responseCode = "200", description = "the bundle (application/zip)")
    @APIResponse(responseCode = "400", description = "bad_range")
    @APIResponse(responseCode = "401", description = "missing_credential, invalid_token")
    @APIResponse(responseCode = "403", description = "role_required (the auditor role)")
    @APIResponse(responseCode = "503", description = "ledger_unavailable")
    public Response export(@PathParam("tenant") String tenant,
            @HeaderParam(HttpHeaders.AUTHORIZATION) @Parameter(hidden = true) String authorization,
            @QueryParam("from_seq") @Parameter(description = "first entry (default 0)") String fromSeq,
            @QueryParam("to_seq") @Parameter(description = "last entry (default the last one)") String toSeq) {
        AdminAccess.Caller caller = access.require(tenant, authorization, Role.AUDITOR);
        String name = caller.tenant().name();
        Ledger ledger = gateway.ledger(name);
        if (ledger == null) {
            throw new AdminRefusal(503, "ledger_unavailable", "the ledger of tenant " + name + " is not open");
        }
        // everything recorded before this request is committed and checkpointed, so the export can reach it
        ledger.flush();
        ledger.checkpointNow();
        // issue 15: give the witnesses (bounded) time to cosign that checkpoint, so the bundle carries their cosignatures
        ledger.awaitWitnesses(gateway.witnessTimeout());
        long last = ledger.size() - 1;
        long from = seq(fromSeq, 0);
        long to = seq(toSeq, last);
        if (last < 0 || from > to || to > last) {
            throw new AdminRefusal(400, "bad_range", last < 0 ? "the ledger is empty"
                    : "entries " + from + ".." + to + " are not within 0.." + last + " (from_seq <= to_seq)");
        }
        Path file = null;
        try {
            Path tmp = Files.createDirectories(Path.of(gateway.config().dataDir()).resolve("tmp"));
            file = Files.createTempFile(tmp, "export-" + name + "-", ".zip");
            // a reader of its own: the export reads for seconds on a big ledger, and the writer's store must not
            // wait for it (its queue would fill and entries be lost). Issue 17: in PostgreSQL mode it reads the
            // shared log, every replica's entries
            try (OutputStream out = Files.newOutputStream(file);
                    LedgerStore reader = ledger.store().reader()) {
                new BundleWriter().write(reader, from, to, ledger.keys(), Clock.systemUTC(), out);
            }
            LOG.infof("ledger of tenant %s: exported entries %d..%d to auditor %s", name, from, to, caller.name());
        } catch (IOException | RuntimeException e) {
            LOG.errorf("ledger of tenant %s: export failed: %s", name, e.getClass().getSimpleName());
            deleteQuietly(file);
            throw new AdminRefusal(500, "export_failed", "the export could not be written; the gateway log says why");
        }
        // the bundle is complete on disk before a byte is sent, so a failure is a 500, never a truncated 200
        Path written = file;
        StreamingOutput body = out -> {
            try {
                Files.copy(written, out);
            } finally {
                deleteQuietly(written);
            }
        };
        return Response.ok(body, "application/zip")
                .header("Content-Disposition", "attachment; filename=\"" + name + "-ledger-" + from + "-" + to + ".zip\"")
                .header("Content-Length", size(written)).build();
    }

    private static long seq(String value, long absent) {
        try {
            return Args.seq(value, absent);
        } catch (NumberFormatException e) {
            throw new AdminRefusal(400, "bad_range", "from_seq and to_seq are entry numbers (non-negative integers)");
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new AdminRefusal(500, "export_failed", "the export could not be read back; the gateway log says why");
        }
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
