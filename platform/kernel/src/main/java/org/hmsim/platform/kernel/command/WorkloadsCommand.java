package org.hmsim.platform.kernel.command;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.CtaStrideHints;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.kernel.registry.InvalidChoiceException;
import org.hmsim.platform.kernel.registry.WorkloadChoice;
import org.hmsim.platform.kernel.registry.WorkloadEntry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code workloads [NAME]}: the built-in and installed workloads with their parameters; with a name, that workload
 * built with its defaults too: its allocations (the names a policy parameter or a hint names) and their declared
 * per-block strides, which a researcher could only learn from an error message (a multi-GPU trial).
 */
@Command(name = "workloads", mixinStandardHelpOptions = true, description = "Lists the built-in and installed workloads with their parameters; "
        + "workloads NAME (or a workload file) also builds it with its defaults and lists its allocations and kernel launches.")
final class WorkloadsCommand implements Callable<Integer> {
    private final Commands.Context ctx;

    @Parameters(index = "0", arity = "0..1", paramLabel = "NAME", description = "one workload to describe in full: a name, or a workload file (.yaml)")
    String name;

    WorkloadsCommand(Commands.Context ctx) { this.ctx = ctx; }

    @Override
    public Integer call() {
        PrintStream o = ctx.out();
        if (ctx.kernel().workloads().entries().isEmpty()) o.println("(no workload available)");
        if (name != null) return one(o);
        for (WorkloadEntry e : ctx.kernel().workloads().entries()) describe(o, e);
        return Commands.OK;
    }

    private static void describe(PrintStream o, WorkloadEntry e) {
        o.println(e.name() + "  [" + e.origin() + "]");
        o.println("    " + e.description());
        for (ParamSpec p : e.parameters()) o.println("    - " + p.describe());
    }

    private int one(PrintStream o) {
        WorkloadChoice choice;
        try {
            // a file as a study's {file: ...} takes it (a trial: "unknown workload '/tmp/w/spmv-csr.yaml'")
            choice = ctx.kernel().workloads().resolveNameOrFile(name, java.util.Map.of());
        } catch (InvalidChoiceException e) {
            ctx.err().println("workloads: " + e.getMessage());
            return Commands.BAD_INPUT;
        }
        describe(o, choice.entry());
        Workload w;
        List<AllocationSpec> allocations;
        try {
            w = choice.create(1);
            allocations = w.allocations();
        } catch (RuntimeException e) {
            ctx.err().println("workloads: " + name + " does not build with its defaults: " + e.getMessage());
            return Commands.ERROR;
        }
        o.println("    allocations, with the defaults (name, bytes, per-block stride: bytes, 0 shared, -1 not declared):");
        for (int i = 0; i < allocations.size(); i++) {
            AllocationSpec a = allocations.get(i);
            long stride = w instanceof CtaStrideHints h ? h.ctaStrideBytes(i) : -1;
            o.println("      " + a.name() + "  " + a.bytes() + " B  stride " + stride + (a.readOnly() ? "  read-only" : "")
                    + (a.hint() != org.hmsim.api.os.AllocationHint.NONE ? "  hint " + a.hint() : ""));
        }
        o.println("    kernel launches: " + w.kernels(WorkloadChoice.nominalBases(allocations)).size());
        return Commands.OK;
    }
}
