package org.hmsim.platform.workloads.file;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.Workload;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.workloads.SimpleKernel;
import org.hmsim.platform.workloads.SimpleWorkload;
import org.hmsim.platform.workloads.expr.Expr;
import org.hmsim.platform.workloads.gen.Hash;
import org.hmsim.platform.workloads.gen.ZipfSampler;

/**
 * A workload described by a file. Its parameters are the file's {@code params} (a study may override
 * them); {@link #create} binds them, sizes the allocations and, given the base addresses, builds one
 * {@link Kernel} per launch whose warps run {@link FileWarpProgram}s.
 */
final class FileWorkloadProvider implements WorkloadProvider {
    /** Kernel launches a workload file may make (iterations x repeats): each is built when the workload is. */
    static final long MAX_LAUNCHES = 1_000_000;

    private final Model model;
    private final List<ParamSpec> specs;

    FileWorkloadProvider(Model model) {
        this.model = model;
        List<ParamSpec> s = new ArrayList<>();
        for (Model.Param p : model.params) s.add(ParamSpec.longValue(p.name(), p.def(), p.min(), p.max(), p.doc()));
        this.specs = List.copyOf(s);
    }

    @Override public String name() { return model.name; }
    @Override public String description() { return model.description; }
    @Override public List<ParamSpec> parameters() { return specs; }

    @Override
    public Workload create(Params params, long seed) {
        long[] vars = new long[Vars.FIRST_PARAM + model.params.size()];
        for (int i = 0; i < model.params.size(); i++) vars[Vars.FIRST_PARAM + i] = params.getLong(model.params.get(i).name());
        List<AllocationSpec> allocs = new ArrayList<>();
        long[] elements = new long[model.allocations.size()];
        List<WorkloadFileException> errors = new ArrayList<>();
        for (int a = 0; a < elements.length; a++) {
            Model.Allocation m = model.allocations.get(a);
            try {
                long bytes = eval(m.size(), vars, m.sizeNode()::error, null);
                if (bytes <= 0) throw m.sizeNode().error("size must be > 0, is " + bytes);
                if (bytes < m.elem()) throw m.sizeNode().error("size " + bytes + " B is smaller than one element (" + m.elem() + " B)");
                allocs.add(new AllocationSpec(m.name(), bytes, m.hint(), m.readOnly(), m.compressionRatio()));
                elements[a] = bytes / m.elem();
            } catch (WorkloadFileException e) {
                errors.add(e); // every allocation's size is checked; the kernels need them all
            }
        }
        WorkloadFileException.throwIfAny(errors);
        long[] contentRange = new long[elements.length];
        ZipfSampler[] contentZipf = new ZipfSampler[elements.length];
        for (int a = 0; a < elements.length; a++) {
            Model.Contents c = model.allocations.get(a).contents();
            if (c == null) continue;
            contentRange[a] = c.range() == null ? elements[a] : eval(c.range(), vars, model.allocations.get(a).sizeNode()::error, "contents range");
            if (contentRange[a] < 1) throw model.allocations.get(a).sizeNode().error("contents range must be >= 1, is " + contentRange[a]);
            if (c.zipf()) contentZipf[a] = new ZipfSampler(contentRange[a], c.s());
        }
        Function<String, WorkloadFileException> atIterations = model.iterationsNode != null ? model.iterationsNode::error
                : m -> new WorkloadFileException(model.file, 1, 1, "iterations", m);
        long iterations = eval(model.iterations, vars, atIterations, null);
        if (iterations < 0) throw atIterations.apply("must be >= 0, is " + iterations);
        long launches = 0;
        for (Model.Kernel kd : model.kernels) {
            long repeat = eval(kd.repeat(), vars, kd.at("repeat")::error, "repeat");
            // every launch is built (and checked) up front: 2^31 of them took validate hours and a run more memory than
            // there is (a bad-input trial), so a workload launches at most MAX_LAUNCHES kernels
            if (repeat < 0 || repeat > MAX_LAUNCHES - launches)
                throw kd.at("repeat").error("repeat must be in [0, " + (MAX_LAUNCHES - launches) + "], is " + repeat + " (at most "
                        + MAX_LAUNCHES + " launches in all)");
            launches += repeat;
        }
        // a workload that launches nothing cannot be run: said here, where the file's lines are known, not by the run
        if (iterations == 0) throw atIterations.apply("iterations is 0: the workload would launch no kernel");
        if (launches == 0) throw model.kernels.get(0).node().error("every kernel has repeat 0: the workload would launch no kernel");
        if (launches != 0 && iterations > MAX_LAUNCHES / launches)
            throw atIterations.apply("iterations x launches per iteration is " + iterations + " x " + launches + ", more than " + MAX_LAUNCHES + " kernel launches");
        // build every launch once now, so a bad grid, block or loop is reported before anything runs: the
        // first error of each kernel of the file, all of them at once
        checkLaunches(vars, elements, contentRange, contentZipf, iterations, seed);
        long total = iterations * launches;
        for (Model.HostSpec h : model.host) // a phase before a launch that never comes ran nowhere, silently
            if (h.before() >= total)
                throw h.at().error((h.alongside() ? "alongside " : "before ") + h.before() + " is not a launch of this workload: it launches " + total
                        + " kernel" + (total == 1 ? "" : "s") + " (0-based indices)" + (h.alongside() ? "" : ", or 'end'"));
        SimpleWorkload w = new SimpleWorkload(model.name, allocs, base -> kernels(base, vars, elements, contentRange, contentZipf, iterations, seed));
        if (model.host.isEmpty()) return w;
        return new Workload() { // with the file's host (CPU) phases, over whole allocations
            @Override public String name() { return w.name(); }
            @Override public List<AllocationSpec> allocations() { return w.allocations(); }
            @Override public List<Kernel> kernels(long[] base) { return w.kernels(base); }
            @Override public List<org.hmsim.api.workload.HostPhase> hostPhases(long[] base) {
                List<org.hmsim.api.workload.HostPhase> out = new ArrayList<>();
                for (Model.HostSpec h : model.host) {
                    List<org.hmsim.api.workload.HostPhase.Stream> st = new ArrayList<>();
                    for (Model.HostStream s : h.streams())
                        st.add(new org.hmsim.api.workload.HostPhase.Stream(base[s.alloc()], allocs.get(s.alloc()).bytes(), s.stride(), s.write()));
                    out.add(new org.hmsim.api.workload.HostPhase(h.before() < 0 ? org.hmsim.api.workload.HostPhase.AFTER_LAST_KERNEL : h.before(), h.name(), st, h.compute(), h.alongside()));
                }
                return out;
            }
        };
    }

    private List<Kernel> kernels(long[] base, long[] params, long[] elements, long[] contentRange, ZipfSampler[] contentZipf,
                                 long iterations, long seed) {
        List<Kernel> out = new ArrayList<>();
        int serial = 0;
        for (long iter = 0; iter < iterations; iter++) {
            for (int k = 0; k < model.kernels.size(); k++) {
                Model.Kernel kd = model.kernels.get(k);
                long repeat = kd.repeat().eval(params); // checked in create
                for (long launch = 0; launch < repeat; launch++) {
                    out.add(launch(kd, k, base, params, elements, contentRange, contentZipf, iter, launch, serial++, seed));
                }
            }
        }
        return out;
    }

    /** Builds every launch as {@link #kernels} does; throws the first error of each kernel of the file, together. */
    private void checkLaunches(long[] params, long[] elements, long[] contentRange, ZipfSampler[] contentZipf, long iterations, long seed) {
        long[] base = new long[elements.length];
        List<WorkloadFileException> errors = new ArrayList<>();
        int serial = 0;
        for (int k = 0; k < model.kernels.size(); k++) {
            Model.Kernel kd = model.kernels.get(k);
            long repeat = kd.repeat().eval(params); // checked in create
            try {
                for (long iter = 0; iter < iterations; iter++)
                    for (long launch = 0; launch < repeat; launch++)
                        launch(kd, k, base, params, elements, contentRange, contentZipf, iter, launch, serial++, seed);
            } catch (WorkloadFileException e) {
                errors.add(e);
            }
        }
        WorkloadFileException.throwIfAny(errors);
    }

    private Kernel launch(Model.Kernel kd, int kernelIndex, long[] base, long[] params, long[] elements, long[] contentRange,
                          ZipfSampler[] contentZipf, long iter, long launch, int serial, long seed) {
        long gx = eval(kd.gridX(), params, kd.at("grid")::error, "grid"), gy = eval(kd.gridY(), params, kd.at("grid")::error, "grid");
        long bx = eval(kd.blockX(), params, kd.at("block")::error, "block"), by = eval(kd.blockY(), params, kd.at("block")::error, "block");
        // each factor is bounded before the product, which could otherwise wrap into range
        if (gx < 1 || gy < 1 || gx > Integer.MAX_VALUE / gy)
            throw kd.at("grid").error("grid must be >= 1 CTA in each dimension and at most " + Integer.MAX_VALUE + " CTAs, is " + gx + " x " + gy);
        if (bx < 1 || by < 1 || bx > 1024 / by) throw kd.at("block").error("block must have 1..1024 threads, is " + bx + " x " + by);
        long ctas = gx * gy, threads = bx * by;
        long shared = eval(kd.shared(), params, kd.at("shared")::error, "shared");
        if (shared < 0 || shared > Integer.MAX_VALUE) throw kd.at("shared").error("shared memory must be in [0, " + Integer.MAX_VALUE + "] bytes, is " + shared);
        long[] t = params.clone();
        t[Vars.LAUNCH] = launch;
        t[Vars.ITER] = iter;
        t[Vars.THREADS] = threads;
        t[Vars.CTAS] = ctas;
        long loop = eval(kd.loop(), t, kd.at("loop")::error, "loop");
        if (loop < 0) throw kd.at("loop").error("loop count must be >= 0, is " + loop);
        FileWarpProgram.Step[] steps = new FileWarpProgram.Step[kd.steps().size()];
        for (int s = 0; s < steps.length; s++) {
            Model.Step d = kd.steps().get(s);
            long cycles = d.cycles() == null ? 1 : eval(d.cycles(), t, d::error, "cycles");
            if (cycles < 0 || cycles > Integer.MAX_VALUE) throw d.error("compute cycles must be >= 0, is " + cycles);
            ZipfSampler zipf = null;
            long range = 0;
            // the step's own element size counts the allocation's elements: an 8-byte step over a 4-byte allocation
            // has half as many (the bound used the allocation's and let the step write past its end)
            Model.Allocation a = d.alloc() < 0 ? null : model.allocations.get(d.alloc());
            long stepElements = a == null ? 0 : elements[d.alloc()] * a.elem() / d.elem();
            if (a != null && stepElements == 0)
                throw d.error("elem " + d.elem() + " B is larger than '" + a.name() + "' (" + elements[d.alloc()] * a.elem() + " B)");
            if (d.pattern() == Model.Pattern.RANDOM) {
                range = d.range() == null ? stepElements : eval(d.range(), params, d::error, "random range");
                if (range < 1) throw d.error("random range must be >= 1, is " + range);
                // drawn indices beyond the allocation failed the run at the first one drawn; known here
                if (range > stepElements && !d.wrap())
                    throw d.error("random range " + range + " is larger than '" + a.name() + "' (" + stepElements
                            + " elements); a smaller range, or wrap: true");
                if (d.zipf()) zipf = new ZipfSampler(range, d.s());
            }
            int through = d.through();
            steps[s] = new FileWarpProgram.Step(d, (int) cycles, d.alloc() < 0 ? 0 : base[d.alloc()], stepElements,
                    d.alloc() < 0 ? "" : model.allocations.get(d.alloc()).name(), range, zipf, Hash.of(seed, kernelIndex, s),
                    through < 0 ? 0 : base[through], through < 0 ? 0 : model.allocations.get(through).elem(),
                    through < 0 ? 0 : elements[through], through < 0 ? "" : model.allocations.get(through).name(),
                    through < 0 ? 0 : contentRange[through], through < 0 ? null : contentZipf[through],
                    Hash.of(seed, 0x1D3A, through));
        }
        FileWarpProgram.Launch plan = new FileWarpProgram.Launch(t, (int) gx, (int) bx, (int) threads, loop, steps, serial);
        return new SimpleKernel(kd.name(), (int) ctas, (int) threads, (int) shared, (cta, warp) -> new FileWarpProgram(plan, cta, warp));
    }

    /**
     * Evaluates an expression over the parameters (and launch variables), turning an overflow or a
     * division by zero into an error at its field that names the parameters it was evaluated with.
     * {@code what} names the value when the field does not (a kernel's grid), else null.
     */
    private long eval(Expr e, long[] vars, Function<String, WorkloadFileException> error, String what) {
        try {
            return e.eval(vars);
        } catch (ArithmeticException ex) {
            StringBuilder with = new StringBuilder();
            for (int i = 0; i < model.params.size(); i++)
                with.append(with.length() == 0 ? " (with " : ", ").append(model.params.get(i).name()).append(" = ").append(vars[Vars.FIRST_PARAM + i]);
            throw error.apply((what == null ? "" : what + ": ") + ex.getMessage() + (with.length() == 0 ? "" : with.append(')')));
        }
    }

    @Override public String toString() { return model.name + " (" + model.file + ")"; }
}
