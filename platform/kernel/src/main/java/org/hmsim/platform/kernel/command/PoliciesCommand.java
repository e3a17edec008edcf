package org.hmsim.platform.kernel.command;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.Defaults;
import org.hmsim.platform.kernel.registry.PolicyEntry;
import picocli.CommandLine.Command;

/** {@code policies}: every slot, its installed policies, their bundles, versions and parameters. */
@Command(name = "policies", mixinStandardHelpOptions = true, description = "Lists every slot and its installed policies with bundle, version and parameters.")
final class PoliciesCommand implements Callable<Integer> {
    private final Commands.Context ctx;

    PoliciesCommand(Commands.Context ctx) { this.ctx = ctx; }

    @Override
    public Integer call() {
        PrintStream o = ctx.out();
        for (Slot slot : Slot.values()) {
            o.println(slot.id() + ": " + slot.doc() + " (default: " + Defaults.name(slot) + ")");
            List<PolicyEntry> entries = ctx.kernel().policies().entries(slot);
            if (entries.isEmpty()) o.println("  (no policy installed)");
            for (PolicyEntry e : entries) {
                o.println("  " + e.name() + " " + e.version() + "  [" + e.bundle() + "]");
                o.println("      " + e.description());
                for (ParamSpec p : e.parameters()) o.println("      - " + p.describe());
            }
        }
        return Commands.OK;
    }
}
