package dev.cloakgate.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cloakgate.policy.DefinitionDiff;
import dev.cloakgate.policy.PinReview;
import dev.cloakgate.policy.PinStore;
import dev.cloakgate.tenant.TenantParser;

/**
 * The operator's side of pinned tool definitions ({@link PinReview} does the work, for this command and the admin
 * API alike): {@code pins list} (every pin; a quarantined one with what changed), {@code pins diff} (old and new of
 * each changed part, side by side), {@code pins accept --tool UPSTREAM/NAME --sha256 HEX} (the hash must be the
 * pending one, so an operator accepts exactly the definition they reviewed) and {@code pins accept --upstream U}
 * (every pending change of one upstream, shown first, then confirmed on the terminal or by {@code --yes}). Runs
 * without serving, against {@code cloakgate.data-dir}; safe while the gateway runs (the pin file is locked for every
 * change). Definitions are the upstream's text: everything printed is escaped, so no control character reaches the
 * terminal. Exit 0 done, 1 refused or not confirmed, 2 usage or I/O.
 */
public final class PinsCommand {
    private static final String USAGE = "usage: pins list --tenant T | pins diff --tenant T [--tool UPSTREAM/NAME | --upstream U]"
            + " | pins accept --tenant T --tool UPSTREAM/NAME --sha256 HEX | pins accept --tenant T --upstream U [--yes]";
    private final PrintStream out;
    private final PrintStream err;
    private final InputStream in;

    public PinsCommand(PrintStream out, PrintStream err) {
        this(out, err, System.in);
    }

    /** @param in where {@code accept --upstream} reads the operator's confirmation */
    public PinsCommand(PrintStream out, PrintStream err, InputStream in) {
        this.out = out;
        this.err = err;
        this.in = in;
    }

    public int run(String... args) {
        if (args.length < 2) {
            return usage("missing subcommand");
        }
        String extra = Args.unexpected(args, 2, Set.of("--tenant", "--tool", "--sha256", "--upstream"), Set.of("--yes"));
        if (extra != null) {
            return usage("unexpected argument " + extra);
        }
        String tenant = Args.option(args, "--tenant");
        if (tenant == null || !TenantParser.TENANT_NAME.matcher(tenant).matches()) {
            return usage("--tenant NAME is required ([a-z0-9-]+)");
        }
        String shared = CheckCommand.sharedStateRefusal("pins", "/admin/t/" + tenant + "/pins");
        if (shared != null) {
            err.println(shared);
            return 2;
        }
        PinReview review = new PinReview(new dev.cloakgate.policy.FilePinStore(Path.of(CheckCommand.setting("cloakgate.data-dir", "data")), tenant));
        String tool = Args.option(args, "--tool");
        String upstream = Args.option(args, "--upstream");
        try {
            return switch (args[1]) {
                case "list" -> list(review, tenant);
                case "diff" -> {
                    if (tool != null && upstream != null) {
                        yield usage("diff takes --tool or --upstream, not both");
                    }
                    List<PinReview.Pending> shown = tool != null ? optional(review.pendingTool(tool))
                            : upstream != null ? review.pendingOf(upstream) : review.pending();
                    shown.forEach(this::diff);
                    out.println(shown.size() + " quarantined definition(s) shown for tenant " + tenant);
                    yield 0;
                }
                case "accept" -> upstream != null ? acceptUpstream(review, upstream, List.of(args).contains("--yes"), tool)
                        : acceptTool(review, tool, Args.option(args, "--sha256"));
                default -> usage("unknown subcommand " + args[1]);
            };
        } catch (IOException e) {
            err.println("pins: " + e.getMessage());
            return 2;
        }
    }

    private int list(PinReview review, String tenant) throws IOException {
        Map<String, PinStore.Pin> all = review.all();
        int quarantined = 0;
        for (PinStore.Pin p : all.values()) {
            out.println(printable(p.tool()) + " " + p.sha256() + (p.pending() == null ? " pinned"
                    : " QUARANTINED pending " + p.pending()));
            if (p.pending() != null) {
                quarantined++;
                PinReview.Pending pending = PinReview.pending(p);
                if (pending.pinned() == null) {
                    out.println("    (pinned before definitions were kept: pins diff shows the new definition only)");
                }
                pending.changes().forEach(c -> out.println("    " + c.kind().code() + " " + printable(c.pointer())));
            }
        }
        out.println(all.size() + " pinned tool(s), " + quarantined + " quarantined, for tenant " + tenant + " in "
                + review.store().where());
        return 0;
    }

    /** One quarantined definition: each changed part's old and new value, one above the other. */
    private void diff(PinReview.Pending p) {
        out.println("== " + printable(p.tool()) + ": pinned " + p.pinnedSha256() + ", pending " + p.pendingSha256());
        if (p.pinned() == null) {
            out.println("   the pinned definition was not kept (pinned before definitions were); the new one:");
            out.println("   + " + printable(String.valueOf(p.proposed())));
            return;
        }
        for (DefinitionDiff.Change c : p.changes()) {
            out.println("   " + c.kind().code() + " " + printable(c.pointer()));
            if (c.kind() != DefinitionDiff.Kind.ADDED) {
                out.println("     - " + printable(at(p.pinned(), c).toString()));
            }
            if (c.kind() != DefinitionDiff.Kind.REMOVED) {
                out.println("     + " + printable(at(p.proposed(), c).toString()));
            }
        }
    }

    private static JsonNode at(JsonNode root, DefinitionDiff.Change c) {
        JsonNode n = root;
        for (String step : c.path()) {
            n = n == null ? null : n.get(step);
        }
        return n == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : n;
    }

    private int acceptTool(PinReview review, String tool, String hash) throws IOException {
        if (tool == null || hash == null || !hash.matches("[0-9a-f]{64}")) {
            return usage("accept needs --tool UPSTREAM/NAME and --sha256 HEX (64 lower-case hex digits), or --upstream U");
        }
        if (!review.accept(tool, hash)) {
            err.println("refused: " + printable(tool) + " has no pending definition with sha256 " + hash
                    + " (pins list shows what is pending)");
            return 1;
        }
        out.println("accepted: " + printable(tool) + " is pinned to " + hash);
        return 0;
    }

    private int acceptUpstream(PinReview review, String upstream, boolean yes, String tool) throws IOException {
        if (tool != null) {
            return usage("accept takes --tool or --upstream, not both");
        }
        List<PinReview.Pending> shown = review.pendingOf(upstream);
        if (shown.isEmpty()) {
            out.println("nothing pending for upstream " + printable(upstream));
            return 0;
        }
        shown.forEach(this::diff);
        if (!yes) {
            out.print("accept these " + shown.size() + " definition(s) of upstream " + printable(upstream) + "? [y/N] ");
            out.flush();
            String answer = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
            if (answer == null || !(answer.trim().equalsIgnoreCase("y") || answer.trim().equalsIgnoreCase("yes"))) {
                err.println("not accepted: nothing changed (--yes accepts without asking)");
                return 1;
            }
        }
        Set<String> done = review.accept(shown);
        out.println("accepted " + done.size() + " definition(s) of upstream " + printable(upstream));
        List<String> left = shown.stream().map(PinReview.Pending::tool).filter(t -> !done.contains(t)).toList();
        if (!left.isEmpty()) {
            err.println("left quarantined, their definition changed again since shown: "
                    + printable(String.join(", ", left)));
            return 1;
        }
        return 0;
    }

    private static List<PinReview.Pending> optional(PinReview.Pending p) {
        return p == null ? List.of() : List.of(p);
    }

    /** Text an upstream wrote, safe for a terminal: control, format and separator characters as {@code \\uXXXX}. */
    static String printable(String text) {
        StringBuilder b = new StringBuilder(text.length());
        text.codePoints().forEach(cp -> {
            int type = Character.getType(cp);
            if (type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR || type == Character.PRIVATE_USE || type == Character.UNASSIGNED) {
                for (char ch : Character.toChars(cp)) {
                    b.append(String.format("\\u%04x", (int) ch));
                }
            } else {
                b.appendCodePoint(cp);
            }
        });
        return b.toString();
    }

    private int usage(String why) {
        err.println("pins: " + why);
        err.println(USAGE);
        return 2;
    }
}
