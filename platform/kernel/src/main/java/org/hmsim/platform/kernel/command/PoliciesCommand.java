package org.hmsim.platform.kernel.command;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.Defaults;
import org.hmsim.platform.kernel.registry.PolicyEntry;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code policies [SLOT]}: every slot (or one), its installed policies, their bundles, versions and parameters. */
@Command(name = "policies", mixinStandardHelpOptions = true, description = "Lists every slot (or the one named) and its installed policies with bundle, version and parameters.")
final class PoliciesCommand implements Callable<Integer> {
    private final Commands.Context ctx;

    @Parameters(index = "0", arity = "0..1", paramLabel = "SLOT", description = "only this slot (placement, residency, ...): the full list is long")
    String only;

    PoliciesCommand(Commands.Context ctx) { this.ctx = ctx; }

    @Override
    public Integer call() {
        PrintStream o = ctx.out();
        Slot one = null;
        if (only != null) {
            try {
                one = PolicyRegistry.slot(only);
            } catch (org.hmsim.platform.kernel.registry.InvalidChoiceException e) {
                // a policy's name given for a slot's (a trial's `hmsim policies bliss`): name the slot it fills
                List<String> slots = ctx.kernel().policies().entries().stream().filter(x -> x.name().equalsIgnoreCase(only.trim()))
                        .map(x -> x.slot().id()).distinct().toList();
                ctx.err().println("policies: " + e.getMessage() + (slots.isEmpty() ? ""
                        : "; '" + only.trim() + "' is a policy of " + String.join(", ", slots) + ": hmsim policies " + slots.get(0)));
                return Commands.BAD_INPUT;
            }
        }
        for (Slot slot : Slot.values()) {
            if (one != null && slot != one) continue;
            o.println(slot.id() + ": " + slot.doc() + " (default: " + Defaults.name(slot) + ")");
            List<PolicyEntry> entries = ctx.kernel().policies().entries(slot);
            List<PolicyRegistry.Unavailable> broken = ctx.kernel().policies().unavailable(slot);
            if (entries.isEmpty() && broken.isEmpty()) o.println("  (no policy installed)");
            for (PolicyEntry e : entries) {
                o.println("  " + e.name() + " " + e.version() + "  [" + e.bundle() + "]");
                o.println("      " + e.description());
                for (ParamSpec p : e.parameters()) o.println("      - " + p.describe());
            }
            for (PolicyRegistry.Unavailable u : broken) {
                // not "  name version  [bundle]", the form of an installed policy that scripts read
                o.println("  " + u.name() + (u.version() == null ? "" : " " + u.version()) + " NOT INSTALLED  [" + u.bundle() + "]");
                o.println("      " + u.explain());
            }
        }
        return Commands.OK;
    }
}
