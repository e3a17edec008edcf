package org.hmsim.platform.workloads.file;

import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpInstruction.Kind;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.platform.workloads.gen.Hash;
import org.hmsim.platform.workloads.gen.ZipfSampler;

/**
 * One warp running a workload-file kernel: for i in [0, loop) the steps in order. A memory step
 * evaluates its compiled index (and {@code when}) per lane into a per-warp variable array, so an
 * instruction allocates nothing. A step whose {@code when} leaves no lane active is skipped.
 */
final class FileWarpProgram implements WarpProgram {
    /** A step bound to one launch: base addresses, element counts and samplers resolved. */
    record Step(Model.Step def, int cycles, long base, long elements, String allocName, long range, ZipfSampler zipf, long salt,
                long throughBase, int throughElem, long throughElements, String throughName, long contentRange,
                ZipfSampler contentZipf, long contentSalt) {}

    /** What every warp of one launch shares; {@code vars} is the template of the variable array. */
    record Launch(long[] vars, int gridX, int blockX, int threads, long loop, Step[] steps, int serial) {}

    private final Launch plan;
    private final long[] vars;
    private final int warp;
    private final int existing;
    private long i;
    private int pc, sub;

    FileWarpProgram(Launch plan, int cta, int warp) {
        this.plan = plan;
        this.warp = warp;
        this.vars = plan.vars().clone();
        vars[Vars.CTA] = cta;
        vars[Vars.WARP] = warp;
        vars[Vars.CTAX] = cta % plan.gridX();
        vars[Vars.CTAY] = cta / plan.gridX();
        long left = plan.threads() - (long) warp * WarpInstruction.THREADS;
        this.existing = left >= 32 ? -1 : (int) ((1L << left) - 1);
    }

    @Override
    public boolean next(WarpInstruction out) {
        Step[] steps = plan.steps();
        while (i < plan.loop()) {
            if (pc == steps.length) {
                pc = 0;
                i++;
                continue;
            }
            Step s = steps[pc];
            Model.Step d = s.def();
            switch (d.kind()) {
                case COMPUTE -> {
                    pc++;
                    if (d.when() != null && noLaneTakes(d)) continue;
                    out.compute(s.cycles(), d.waits());
                    return true;
                }
                case BARRIER -> { out.barrier(); pc++; return true; }
                case WAIT -> { out.compute(1, true); pc++; return true; } // issue nothing until every load is back
                default -> {
                    boolean indexLoad = d.pattern() == Model.Pattern.INDIRECT && d.loadIndex() && sub == 0;
                    boolean emitted = memory(out, s, d, indexLoad);
                    if (indexLoad) sub = 1;
                    else {
                        sub = 0;
                        pc++;
                    }
                    if (emitted) return true;
                }
            }
        }
        return false;
    }

    /** Sets the thread variables of lane {@code l}; returns its thread index. */
    private long lane(int l) {
        long tid = (long) warp * WarpInstruction.THREADS + l;
        vars[Vars.TID] = tid;
        vars[Vars.LANE] = l;
        vars[Vars.TIDX] = tid % plan.blockX();
        vars[Vars.TIDY] = tid / plan.blockX();
        return tid;
    }

    /** Whether no thread of the warp satisfies the step's {@code when}. */
    private boolean noLaneTakes(Model.Step d) {
        vars[Vars.I] = i;
        for (int l = 0; l < WarpInstruction.THREADS; l++) {
            if ((existing & (1 << l)) == 0) continue;
            long tid = lane(l);
            try {
                if (d.when().eval(vars) != 0) return false;
            } catch (ArithmeticException e) {
                throw d.error(e.getMessage() + " " + where(tid));
            }
        }
        return true;
    }

    private boolean memory(WarpInstruction out, Step s, Model.Step d, boolean indexLoad) {
        vars[Vars.I] = i;
        int mask = 0;
        for (int l = 0; l < WarpInstruction.THREADS; l++) {
            if ((existing & (1 << l)) == 0) continue;
            long tid = lane(l);
            try {
                if (d.when() != null && d.when().eval(vars) == 0) continue;
                out.addresses[l] = address(s, d, indexLoad, tid);
            } catch (ArithmeticException e) {
                throw d.error(e.getMessage() + " " + where(tid));
            }
            mask |= 1 << l;
        }
        if (mask == 0) return false;
        Kind kind = indexLoad ? Kind.LOAD : switch (d.kind()) {
            case STORE -> Kind.STORE;
            case ATOMIC -> Kind.ATOMIC;
            default -> Kind.LOAD;
        };
        // a gather needs the index value it loaded; its index load, and other steps, wait only when the file says so
        boolean wait = d.pattern() == Model.Pattern.INDIRECT && !indexLoad || d.waits();
        out.memory(kind, indexLoad ? s.throughElem() : d.elem(), mask, wait);
        return true;
    }

    private long address(Step s, Model.Step d, boolean indexLoad, long tid) {
        switch (d.pattern()) {
            case INDEX -> {
                return s.base() + (long) d.elem() * bounded(d.index().eval(vars), s.elements(), s.allocName(), d, tid);
            }
            case RANDOM -> {
                long h = Hash.of(s.salt(), plan.serial(), vars[Vars.CTA] * plan.threads() + tid, i);
                long index = s.zipf() != null ? s.zipf().sample(h) - 1 : Hash.below(h, s.range());
                return s.base() + (long) d.elem() * bounded(index, s.elements(), s.allocName(), d, tid);
            }
            default -> {
                long pos = bounded(d.index().eval(vars), s.throughElements(), s.throughName(), d, tid);
                if (indexLoad) return s.throughBase() + (long) s.throughElem() * pos;
                long h = Hash.of(s.contentSalt(), pos);
                long value = s.contentZipf() != null ? s.contentZipf().sample(h) - 1 : Hash.below(h, s.contentRange());
                return s.base() + (long) d.elem() * (value % s.elements());
            }
        }
    }

    private long bounded(long index, long elements, String alloc, Model.Step d, long tid) {
        if (index >= 0 && index < elements) return index;
        if (d.wrap()) return Math.floorMod(index, elements);
        throw d.error("index " + index + " is outside '" + alloc + "' (" + elements + " elements) " + where(tid)
                + "; fix the expression or set wrap: true");
    }

    private String where(long tid) { return "at cta " + vars[Vars.CTA] + ", tid " + tid + ", i " + i + ", launch " + vars[Vars.LAUNCH]; }
}
