package org.hmsim.platform.kernel.study;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hmsim.platform.kernel.registry.WorkloadChoice;

/**
 * The runs' workloads built for validation, and the checks that need them: a footprint beyond a machine's pools, a
 * thread block beyond its SM, a swap before a kernel that never launches.
 */
final class BuiltWorkloads {
    private final StudyFile f;

    BuiltWorkloads(StudyFile f) {
        this.f = f;
    }

    /** A launch's block as validation checks it against an SM. */
    private record Block(String kernel, int warps, int sharedBytes) {}

    /**
     * What validation keeps of a built workload: its allocations and its launches' blocks, not the workload (whose
     * kernels may hold a generated graph: keeping them held gigabytes over a study's seeds, found by a review).
     */
    private record Built(List<org.hmsim.api.workload.AllocationSpec> allocations, List<Block> launches, RuntimeException failure) {
        Built(List<org.hmsim.api.workload.AllocationSpec> allocations, List<Block> launches) { this(allocations, launches, null); }

        int kernels() { return launches.size(); }
    }

    // each workload is built once per seed (its footprint may depend on the seed: a generated graph's edges), not
    // once per machine variant or check: building a large one takes seconds
    private final Map<List<Object>, Built> built = new java.util.HashMap<>();
    private static final Built FAILED = new Built(List.of(), List.of()); // compared by identity

    /** A run's workload as built for validation, or null if building it fails (or does not fit this JVM's heap): the run says why. */
    private Built builtOf(PlannedRun r) {
        Built b = attempt(r);
        return b == FAILED || b.failure() != null ? null : b;
    }

    /** The run's workload built once per seed: its parts, its failure, or {@link #FAILED} if this JVM's heap could not hold it. */
    private Built attempt(PlannedRun r) {
        return built.computeIfAbsent(List.of(r.workload(), r.seed()), k -> {
            try {
                org.hmsim.api.workload.Workload w = r.workload().create(r.seed());
                List<org.hmsim.api.workload.AllocationSpec> specs = List.copyOf(w.allocations());
                // the kernels' programs are not generated here, only counted
                List<Block> blocks = new ArrayList<>();
                for (org.hmsim.api.workload.Kernel launch : w.kernels(WorkloadChoice.nominalBases(specs)))
                    blocks.add(new Block(launch.name(), launch.warpsPerCta(), launch.sharedBytesPerCta()));
                return new Built(specs, List.copyOf(blocks));
            } catch (RuntimeException e) {
                return new Built(List.of(), List.of(), e); // remembered too: not built again per machine
            } catch (OutOfMemoryError e) {
                return FAILED; // this JVM's heap; the run, with its own, may build it
            }
        });
    }

    /**
     * A workload that fails to build (a parameter its model refuses only as it builds: a matrix-transpose block that is
     * not a power of two, sdk-reduction threads that are not one): every run of it would fail as it starts, with a stack
     * trace and no file or line, while validate said the study was valid (found by a review of silent inputs).
     */
    void refuseUnbuildable(List<PlannedRun> runs, WorkloadSection workloads) throws StudyException {
        List<StudyException> errors = new ArrayList<>();
        java.util.Set<Object> named = new java.util.HashSet<>();
        for (PlannedRun r : runs) {
            Built b = attempt(r);
            if (b.failure() == null || !named.add(r.workload())) continue;
            int i = workloads.workloadChoices.indexOf(r.workload());
            String field = i < 0 ? "workloads" : "workloads[" + i + "]";
            String why = b.failure().getMessage() == null ? b.failure().toString() : b.failure().getMessage();
            String msg = r.workload().label() + " cannot be built" + (r.seed() != 1 ? " with seed " + r.seed() : "") + ": " + why
                    + "; every run of it would fail";
            errors.add(i < 0 ? f.originOf("workloads").error(field, msg) : f.doc.error(workloads.workloadNodes.get(i), field, msg));
        }
        if (!errors.isEmpty()) throw StudyException.of(errors);
    }

    /** A run's workload's allocations, or null if it fails to build. */
    List<org.hmsim.api.workload.AllocationSpec> allocationsOf(PlannedRun r) {
        Built b = builtOf(r);
        return b == null ? null : b.allocations();
    }

    /**
     * A workload whose allocations need more pages than a machine's pools hold (without demand paging): every run
     * of the pair would fail as it starts, as the OS's allocator says; said here, at validation, naming both.
     */
    void refuseUnfitting(List<PlannedRun> runs) throws StudyException {
        java.util.Set<List<Object>> checked = new java.util.HashSet<>();
        for (PlannedRun r : runs) {
            org.hmsim.platform.machine.MachineConfig m = r.machine().config();
            if (m.uvm() != null || !checked.add(List.of(m.name(), m.simulated(), r.workload(), r.seed()))) continue;
            long pages = 0, page = m.pageBytes();
            long frames = org.hmsim.platform.machine.multigpu.GpuMemories.pageCapacity(m.poolInfos(), m.gpus(), page);
            List<org.hmsim.api.workload.AllocationSpec> specs = allocationsOf(r);
            if (specs == null) continue; // the run says why; here only the footprint is checked
            for (var a : specs) pages += (a.bytes() + page - 1) / page;
            if (pages <= frames) continue;
            throw f.originOf("workloads").error("workloads", r.workload().label() + " allocates " + pages + " pages of " + page + " bytes, more than machine "
                    + m.name() + "'s pools hold (" + frames + " frames" + (m.gpus() > 1 ? ", page groups of every GPU memory's smallest frame count" : "")
                    + "): every run of it would fail as it starts; a smaller input or larger pools");
        }
    }

    /**
     * A thread block larger than a machine's SM (more warps, or more shared memory) never starts: every run of the pair
     * failed as the kernel launched; refused here, naming the kernel, its block and the SM.
     */
    void refuseUnfitBlocks(List<PlannedRun> runs) throws StudyException {
        java.util.Set<List<Object>> checked = new java.util.HashSet<>();
        for (PlannedRun r : runs) {
            var gpu = r.machine().config().gpu();
            if (!checked.add(List.of(r.machine().config().name(), r.machine().config().simulated(), r.workload(), r.seed()))) continue;
            Built b = builtOf(r);
            if (b == null) continue;
            for (Block k : b.launches()) {
                if (k.warps() <= gpu.maxWarpsPerSm() && k.sharedBytes() <= gpu.sharedBytesPerSm()) continue;
                throw f.originOf("workloads").error("workloads", r.workload().label() + ": a thread block of kernel " + k.kernel() + " ("
                        + k.warps() + " warps, " + k.sharedBytes() + " B shared) never fits an SM of machine "
                        + r.machine().config().name() + " (" + gpu.maxWarpsPerSm() + " warps, " + gpu.sharedBytesPerSm() + " B)");
            }
        }
    }

    /**
     * A swap scripted before a kernel a run's workload never launches would never fire, and the run's results would be
     * labelled by a study that asked for it: refused, naming the workload and its kernel count.
     */
    void refuseUnreachedKernels(List<PlannedRun> runs, List<Object> swaps) throws StudyException {
        for (int i = 0; i < swaps.size(); i++) {
            if (!(swaps.get(i) instanceof Map<?, ?> sw) || !(sw.get("at") instanceof String at)) continue;
            java.util.regex.Matcher k = java.util.regex.Pattern.compile("kernel\\s+(\\d+)").matcher(at.trim());
            if (!k.matches()) continue;
            long index = Long.parseLong(k.group(1));
            for (PlannedRun r : runs) {
                Built b = builtOf(r);
                if (b == null || index < b.kernels()) continue;
                throw f.originOf("swaps", i, "at").error("swaps[" + i + "].at", "'" + at + "' is never reached: workload " + r.workload().label()
                        + " launches " + b.kernels() + " kernel" + (b.kernels() == 1 ? "" : "s") + " with seed " + r.seed()
                        + " (0-based indices 0 to " + (b.kernels() - 1) + "; the count may depend on the seed)");
            }
        }
    }
}
