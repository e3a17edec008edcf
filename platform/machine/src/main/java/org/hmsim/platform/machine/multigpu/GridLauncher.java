package org.hmsim.platform.machine.multigpu;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.machine.CoreView;
import org.hmsim.api.policy.CtaSchedulerPolicy;
import org.hmsim.api.stats.Stats;
import org.hmsim.api.workload.Kernel;
import org.hmsim.platform.gpu.Gpu;
import org.hmsim.platform.gpu.GridDispatch;
import org.hmsim.platform.gpu.sm.Sm;

/**
 * Runs each kernel's grid on the SMs of every GPU (seed 004 §2: "thread blocks are scheduled to any
 * free SM of any GPU"). The cta-scheduler slot sees every SM of the machine, ordered SM-major across
 * GPUs ({@code gpu0.sm0, gpu1.sm0, …, gpu0.sm1, …}), so a plain round-robin over that list is the
 * paper's fair round-robin: its first pass sends block i to GPU {@code i mod N} (Fig. 2/3) and later
 * blocks to whichever SM frees first.
 *
 * <p>Blocks are offered in block order. A policy that binds blocks to GPUs ({@link CtaSchedulerPolicy#boundGpu}:
 * affinity, §4.3 Eq. 1, or contiguous batches) has them kept in one queue per GPU, as the paper's per-GPU affinity
 * queues: each pass offers every queue's first block, in block order, so a GPU's blocks start as soon as it has room
 * however far down the grid they are. Until 2026-11-27 one window of {@link #LOOKAHEAD} blocks past the first pending
 * one stood in for the queues; a review found it left GPUs 1-3 idle under contiguous batches of more than 4096
 * blocks (20,480 blocks: 5.15 ms against 2.41 ms). A policy may also hold an unbound block (return -1) while some SM
 * has room; the launcher then offers the next unbound blocks, at most {@link #LOOKAHEAD} of them. A freed SM
 * triggers a new dispatch pass one event later (never inside the SM's own cycle).
 * The kernel completes when every block has retired and every GPU's stores are acknowledged.
 */
public final class GridLauncher implements GridDispatch, EventTarget {
    /** How far past a held unbound block the launcher looks for one that may go. */
    static final int LOOKAHEAD = 4096;
    private static final int EV_DISPATCH = 0, EV_COMPLETE = 1;

    private final Engine engine;
    private final List<Gpu> gpus;
    private final CtaSchedulerPolicy policy;
    private final List<CoreView> order = new ArrayList<>();
    private final Sm[] sms;
    private final int[] smGpu, smLocal;
    private final boolean[] canTake;
    private final long[] ctasPerGpu, lastRetirePs, idleTailPs;

    private Kernel kernel;
    private int kernelIndex, ctas, ctasDispatched, ctasDone;
    private boolean[] dispatched = new boolean[0];
    /**
     * The kernel's blocks by queue, each in block order: queue 0 the unbound ones, queue 1 + g those bound to GPU g,
     * laid out one queue after another in {@code queued}; {@code head[q]} is queue q's first block not yet dispatched.
     */
    private int[] queued = new int[0];
    private final int[] queueEnd, head, heads;
    /** The SM the policy picked for the block {@link #offer} returned. */
    private int pickedSm;
    private boolean dispatchScheduled, running;
    private Runnable onComplete;
    private long held;

    /** The cta-scheduler slot and its policy as the run labels it, for the errors its decisions cause. */
    private java.util.function.Supplier<String> policyName = () -> "cta-scheduler policy";

    /** How errors name the policy in force: {@code cta-scheduler policy chunk@1.0.0(fault=bad-gpu)} (follows swaps). */
    public GridLauncher describedAs(java.util.function.Supplier<String> name) {
        this.policyName = name;
        return this;
    }

    /** @param policy the live cta-scheduler slot (a forwarder, so a swap is seen at once) */
    public GridLauncher(Engine engine, List<Gpu> gpus, CtaSchedulerPolicy policy) {
        this.engine = engine;
        this.gpus = List.copyOf(gpus);
        this.policy = policy;
        int maxSms = 0;
        for (Gpu g : gpus) maxSms = Math.max(maxSms, g.sms().size());
        for (int s = 0; s < maxSms; s++)
            for (Gpu g : gpus) if (s < g.sms().size()) order.add(g.sms().get(s));
        sms = new Sm[order.size()];
        smGpu = new int[sms.length];
        smLocal = new int[sms.length];
        for (int i = 0; i < sms.length; i++) {
            sms[i] = (Sm) order.get(i);
            smLocal[i] = sms[i].index();
            smGpu[i] = gpus.indexOf(gpuOf(sms[i]));
        }
        canTake = new boolean[sms.length];
        queueEnd = new int[gpus.size() + 1];
        head = new int[gpus.size() + 1];
        heads = new int[gpus.size()];
        ctasPerGpu = new long[gpus.size()];
        lastRetirePs = new long[gpus.size()];
        idleTailPs = new long[gpus.size()];
    }

    private Gpu gpuOf(Sm sm) {
        for (Gpu g : gpus) if (g.index() == sm.gpu()) return g;
        throw new IllegalStateException("SM " + sm.name() + " belongs to no GPU of the grid");
    }

    /** The SMs as the cta-scheduler sees them (SM-major across GPUs). */
    public List<CoreView> schedulingOrder() { return order; }

    /** Runs every CTA of {@code k} on the GPUs; {@code done} runs from an event at completion. */
    public void launch(Kernel k, int index, Runnable done) {
        if (running) throw new IllegalStateException("grid: kernel " + kernel.name() + " is still running");
        this.kernel = k;
        this.kernelIndex = index;
        this.ctas = k.ctas();
        this.onComplete = done;
        this.ctasDispatched = 0;
        this.ctasDone = 0;
        if (dispatched.length < ctas) dispatched = new boolean[ctas];
        else java.util.Arrays.fill(dispatched, 0, ctas, false);
        for (Gpu g : gpus) g.joinGrid(k, index, this);
        // a GPU that retires no block of this kernel is idle from its launch, not from time 0 or the last kernel's end
        java.util.Arrays.fill(lastRetirePs, engine.now());
        running = true;
        policy.onKernelLaunch(index, ctas, k.warpsPerCta());
        queue();
        dispatch();
        checkDone();
    }

    /**
     * A new cta-scheduler took over mid-kernel (live swap): it is told the running kernel, as at a launch, and the blocks
     * are queued again by its binding (a review found a swapped-in contiguous rule placing 1,976 of 2,048 blocks on one
     * GPU: it had never been told the grid's size, and the blocks sat in the old rule's queues).
     */
    public boolean ctaPolicySwapped() {
        if (!running) return false;
        boolean[] placed = dispatched;
        policy.onSwappedInMidKernel(kernelIndex, ctas, kernel.warpsPerCta(), c -> c >= 0 && c < ctas && placed[c]);
        queue();
        return true;
    }

    /** Sorts the kernel's blocks into the unbound queue and one queue per GPU (each in block order). */
    private void queue() {
        int q = gpus.size() + 1;
        if (queued.length < ctas) queued = new int[ctas];
        int[] of = new int[ctas], count = new int[q];
        for (int c = 0; c < ctas; c++) {
            int g = dispatched[c] ? -1 : policy.boundGpu(kernelIndex, c); // a block already placed (a swap mid-kernel) is not asked about
            if (g < -1 || g >= gpus.size())
                throw new IllegalStateException("grid: the " + policyName.get() + " bound block " + c + " of kernel launch " + kernelIndex
                        + " (" + kernel.name() + ", counted from 0) to GPU " + g + "; the GPUs are 0.." + (gpus.size() - 1) + " (-1: unbound)");
            of[c] = g + 1;
            count[of[c]]++;
        }
        for (int i = 0, at = 0; i < q; i++) { // queueEnd grows from each queue's start as the blocks are laid out
            head[i] = queueEnd[i] = at;
            at += count[i];
        }
        for (int c = 0; c < ctas; c++) queued[queueEnd[of[c]]++] = c;
    }

    /** Blocks of the running kernel no SM has been given yet (held by the cta-scheduler policy, or waiting for room). */
    public int blocksNotDispatched() { return running ? ctas - ctasDispatched : 0; }

    private void dispatch() {
        while (ctasDispatched < ctas) {
            boolean any = false;
            for (int i = 0; i < sms.length; i++) any |= canTake[i] = sms[i].canTake(kernel);
            if (!any) return;
            int cta = offer();
            if (cta < 0) return;
            int pick = pickedSm;
            if (pick >= sms.length || !canTake[pick])
                throw new IllegalStateException(Gpu.badPick("grid", pick, sms.length, cta, kernelIndex, kernel.name()));
            int g = smGpu[pick];
            gpus.get(g).startCta(smLocal[pick], cta);
            ctasPerGpu[g]++;
            dispatched[cta] = true;
            ctasDispatched++;
        }
    }

    /**
     * Offers blocks in block order, the first block of every GPU's queue and up to {@link #LOOKAHEAD} unbound ones,
     * until the policy places one: that block (its SM in {@link #pickedSm}), or -1 if it holds them all.
     */
    private int offer() {
        int nHeads = 0;
        for (int q = 0; q < head.length; q++) {
            while (head[q] < queueEnd[q] && dispatched[queued[head[q]]]) head[q]++;
            if (q > 0 && head[q] < queueEnd[q]) heads[nHeads++] = queued[head[q]];
        }
        java.util.Arrays.sort(heads, 0, nHeads);
        int u = head[0], uEnd = (int) Math.min(queueEnd[0], (long) head[0] + LOOKAHEAD), h = 0;
        while (true) {
            while (u < uEnd && dispatched[queued[u]]) u++;
            int unbound = u < uEnd ? queued[u] : Integer.MAX_VALUE, bound = h < nHeads ? heads[h] : Integer.MAX_VALUE;
            if (unbound == Integer.MAX_VALUE && bound == Integer.MAX_VALUE) return -1;
            int c = Math.min(unbound, bound);
            int pick = policy.pickSm(kernelIndex, c, order, canTake);
            if (pick >= 0) {
                pickedSm = pick;
                return c;
            }
            held++;
            if (c == unbound) u++;
            else h++;
        }
    }

    @Override
    public void ctaCompleted(Gpu gpu) {
        ctasDone++;
        lastRetirePs[gpu.index()] = engine.now(); // gpus are in index order
        scheduleDispatch();
    }

    @Override
    public void roomOpened(Gpu gpu) { scheduleDispatch(); }

    private void scheduleDispatch() {
        if (!dispatchScheduled) {
            dispatchScheduled = true;
            engine.schedule(engine.now(), this, EV_DISPATCH, 0);
        }
    }

    @Override
    public void storesDrained(Gpu gpu) { checkDone(); }

    @Override
    public void handle(int kind, long payload) {
        if (kind == EV_DISPATCH) {
            dispatchScheduled = false;
            if (running) {
                dispatch();
                checkDone();
            }
        } else {
            Runnable r = onComplete;
            onComplete = null;
            if (r != null) r.run();
        }
    }

    private void checkDone() {
        if (!running || ctasDone < ctas) return;
        for (Gpu g : gpus) if (g.outstandingStores() > 0) return;
        running = false;
        long now = engine.now();
        for (int g = 0; g < gpus.size(); g++) {
            // a GPU whose last block retired early sat idle while the others finished (load imbalance)
            idleTailPs[g] += now - Math.max(lastRetirePs[g], 0);
            gpus.get(g).leaveGrid();
        }
        java.util.Arrays.fill(lastRetirePs, now);
        engine.schedule(now, this, EV_COMPLETE, 0);
    }

    public boolean busy() { return running; }

    public long ctasOn(int gpu) { return ctasPerGpu[gpu]; }

    public long idleTailPs(int gpu) { return idleTailPs[gpu]; }

    /** Registers {@code grid.*}: blocks per GPU and each GPU's idle tail (seed 004's load-balance concern, §4.3.1). */
    public void registerStats(Stats root) {
        Stats s = root.scope("grid");
        s.counter("held", "times the cta-scheduler held a block back while some SM had room", () -> held);
        for (int g = 0; g < gpus.size(); g++) {
            int gg = g;
            s.counter("gpu" + g + ".ctas", "thread blocks run on GPU " + g, () -> ctasPerGpu[gg]);
            s.counter("gpu" + g + ".idle_tail_ps", "time GPU " + g + " had no block left while the kernel still ran, summed over kernels", () -> idleTailPs[gg]);
        }
    }
}
