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
 * <p>Blocks are offered in block order. A policy may hold a block (return -1) while some SM has room —
 * an affinity rule whose GPU is full (§4.3, Eq. 1) — and the launcher then offers the next blocks
 * (at most {@link #LOOKAHEAD}), as the paper's per-GPU affinity queues let another GPU's blocks go
 * ahead. A freed SM triggers a new dispatch pass one event later (never inside the SM's own cycle).
 * The kernel completes when every block has retired and every GPU's stores are acknowledged.
 */
public final class GridLauncher implements GridDispatch, EventTarget {
    /** How far past a held block the launcher looks for one that may go. */
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
    private int kernelIndex, ctas, firstPending, ctasDone;
    private boolean[] dispatched = new boolean[0];
    private boolean dispatchScheduled, running;
    private Runnable onComplete;
    private long held;

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
        this.firstPending = 0;
        this.ctasDone = 0;
        if (dispatched.length < ctas) dispatched = new boolean[ctas];
        else java.util.Arrays.fill(dispatched, 0, ctas, false);
        for (Gpu g : gpus) g.joinGrid(k, index, this);
        running = true;
        policy.onKernelLaunch(index, ctas, k.warpsPerCta());
        dispatch();
        checkDone();
    }

    private void dispatch() {
        while (firstPending < ctas) {
            boolean any = false;
            for (int i = 0; i < sms.length; i++) any |= canTake[i] = sms[i].canTake(kernel);
            if (!any) return;
            int cta = -1, pick = -1;
            int limit = (int) Math.min(ctas, (long) firstPending + LOOKAHEAD);
            for (int c = firstPending; c < limit; c++) {
                if (dispatched[c]) continue;
                pick = policy.pickSm(kernelIndex, c, order, canTake);
                if (pick >= 0) {
                    cta = c;
                    break;
                }
                held++;
            }
            if (cta < 0) return;
            if (pick >= sms.length || !canTake[pick])
                throw new IllegalStateException("grid: CTA scheduler picked SM " + pick + " which has no room");
            int g = smGpu[pick];
            gpus.get(g).startCta(smLocal[pick], cta);
            ctasPerGpu[g]++;
            dispatched[cta] = true;
            while (firstPending < ctas && dispatched[firstPending]) firstPending++;
        }
    }

    @Override
    public void ctaCompleted(Gpu gpu) {
        ctasDone++;
        lastRetirePs[gpu.index()] = engine.now(); // gpus are in index order
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
