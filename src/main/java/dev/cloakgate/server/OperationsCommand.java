package dev.cloakgate.server;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import dev.cloakgate.store.Operation;
import dev.cloakgate.store.OperationRefusedException;
import dev.cloakgate.store.OperationState;
import dev.cloakgate.store.OperationStore;
import dev.cloakgate.store.SqliteOperationStore;
import dev.cloakgate.store.StoreException;
import dev.cloakgate.tenant.TenantParser;

/**
 * The operator's side of the gate's operations store (issue 11), safe beside a running gateway: {@code operations list
 * --tenant T [--state S]} and {@code operations reconcile --tenant T ID --outcome done|not-applied [--force]}. MCP has
 * no way to ask a server whether a call took effect, so an operation whose outcome is unknown is settled here, by a
 * person who checked the real system; the running gateway puts the reconciliation on the tenant's ledger. Exit 0
 * done, 1 refused, 2 usage or I/O.
 */
public final class OperationsCommand {
    private static final String USAGE = "usage: operations list --tenant T [--state in_flight|done|failed|unknown|not_applied]"
            + " | operations reconcile --tenant T OPERATION_ID --outcome done|not-applied [--force]";
    private final PrintStream out;
    private final PrintStream err;

    public OperationsCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public int run(String... args) {
        if (args.length < 2) {
            return usage("missing subcommand");
        }
        String tenant = Args.option(args, "--tenant");
        if (tenant == null || !TenantParser.TENANT_NAME.matcher(tenant).matches()) {
            return usage("--tenant NAME is required ([a-z0-9-]+)");
        }
        String shared = CheckCommand.sharedStateRefusal("operations", "/admin/t/" + tenant + "/operations");
        if (shared != null) {
            err.println(shared);
            return 2;
        }
        Path data = Path.of(CheckCommand.setting("cloakgate.data-dir", "data"));
        return switch (args[1]) {
            case "list" -> list(args, data, tenant);
            case "reconcile" -> reconcile(args, data, tenant);
            default -> usage("unknown subcommand " + args[1]);
        };
    }

    private int list(String[] args, Path data, String tenant) {
        String extra = Args.unexpected(args, 2, Set.of("--tenant", "--state"), Set.of());
        if (extra != null) {
            return usage("unexpected argument " + extra);
        }
        OperationState state;
        try {
            String s = Args.option(args, "--state");
            state = s == null ? null : OperationState.fromWire(s);
        } catch (IllegalArgumentException e) {
            return usage("--state is one of in_flight, done, failed, unknown, not_applied");
        }
        try (OperationStore store = SqliteOperationStore.openForOperator(data, tenant)) {
            List<Operation> ops = store.list(state);
            for (Operation o : ops) {
                out.println(o.id() + " " + o.state() + " tool=" + o.tool() + " upstream=" + o.upstream() + " attempts="
                        + o.attempts() + " updated=" + o.updatedAt() + (o.approval() == null ? "" : " approval=" + o.approval())
                        + (o.reconciledBy() == null ? "" : " reconciled_by=" + o.reconciledBy()));
            }
            out.println(ops.size() + " operation(s)" + (state == null ? "" : " " + state) + " for tenant " + tenant);
            return 0;
        } catch (Exception e) {
            return failed(e);
        }
    }

    /** The store could not be opened or read: I/O (exit 2), said without a stack trace. */
    private int failed(Exception e) {
        err.println("operations: " + (e instanceof StoreException ? e.getMessage() : e.getClass().getSimpleName()));
        return 2;
    }

    private int reconcile(String[] args, Path data, String tenant) {
        String id = null;
        for (int i = 2; i < args.length; i++) {
            if (Set.of("--tenant", "--outcome").contains(args[i])) {
                i++;
            } else if (!args[i].equals("--force")) {
                if (id != null || args[i].startsWith("--")) {
                    return usage("unexpected argument " + args[i]);
                }
                id = args[i];
            }
        }
        if (id == null || !Operation.validId(id)) {
            return usage("give the operation id (as `operations list` shows it)");
        }
        OperationStore.Outcome outcome;
        try {
            outcome = OperationStore.Outcome.parse(String.valueOf(Args.option(args, "--outcome")));
        } catch (IllegalArgumentException e) {
            return usage("--outcome is done or not-applied");
        }
        boolean force = List.of(args).contains("--force");
        try (OperationStore store = SqliteOperationStore.openForOperator(data, tenant)) {
            Operation o = store.reconcile(id, outcome, force, "cli:" + System.getProperty("user.name", "operator"));
            out.println(o.id() + " " + o.state() + " (reconciled; the gateway records it on the tenant's ledger)");
            return 0;
        } catch (OperationRefusedException e) {
            err.println("refused (" + e.code() + "): " + e.getMessage());
            return 1;
        } catch (Exception e) {
            return failed(e);
        }
    }

    private int usage(String why) {
        err.println("operations: " + why);
        err.println(USAGE);
        return 2;
    }
}
