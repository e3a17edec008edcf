package org.hmsim.etc;

import java.util.List;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.machine.MachineView;
import org.hmsim.api.machine.UnifiedMemory;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.stats.Stats;

/**
 * ETC's application classifier (seed 002 §4.1). After a sampling window ({@code sample_window} GPU cycles,
 * Fig 16's 50k) it reads the SMs' coalescing counters: thread accesses per line request after coalescing
 * ("coalesced memory accesses"; 32 for a fully coalesced 4 B warp load, 1 when every lane hits its own
 * line). At or above {@code coalescing_threshold} (10) the application is regular. Data sharing comes from
 * the workload's compile-time flag. The classifier is active only when the footprint exceeds GPU memory.
 * That is the physical capacity ("larger than the GPU's physical memory", §5), not the compressed one: the
 * compression it may choose must not decide whether it classifies (the three slots' classifiers fire at the
 * same instant, and one that had already turned compression on would switch the others off). Whether the
 * compressed footprint fits is checked where the paper puts it, in PE's condition 1 at every round
 * ({@link org.hmsim.api.machine.UnifiedMemory#effectiveCapacityPages()}).
 *
 * <p>When it samples is not in the paper. {@code classify: once} (the default) decides once per application, from the
 * first window (§4.1 classifies "the application"; Fig 16 finds the 50k-cycle sample equal to the whole run's value).
 * {@code per_kernel} opens a new window at every kernel launch and decides again when it ends (a kernel shorter than
 * the window keeps the previous decision): a workload whose kernels differ, ATAX's irregular row pass and coalesced
 * column pass, then gets MT only where it is irregular.
 *
 * <p>Each of ETC's three policies holds its own classifier; all sample the same counters at the same time,
 * so they reach the same decision without sharing state across slots.
 */
public final class Classifier implements EventTarget, UnifiedMemory.Listener {
    public static List<ParamSpec> params() {
        return List.of(
                ParamSpec.real("coalescing_threshold", 10, 1, 32, "thread accesses per line request at or above which the application is regular (seed 002 §4.1, §6.3: 10; any value 5-10 separates its apps)"),
                ParamSpec.integer("sample_window", 50_000, 1, 100_000_000, "GPU cycles sampled before classifying (seed 002 Fig 16: 50k)"),
                ParamSpec.choice("classify", "once", List.of("once", "per_kernel"), "once: one decision from the first window; per_kernel: each kernel "
                        + "launch samples a new window and decides again (seed 002 does not say which; ATAX/MVT's second kernel is coalesced, BICG's first)"));
    }

    private final MachineView machine;
    private final double threshold;
    private final long windowPs;
    private final Runnable onDecision;
    private AppClass decided = AppClass.NONE;
    private double coalescing;
    private boolean done;
    private final boolean perKernel;
    /** The counters when the current window began (per_kernel), and the window's number (stale timer events are dropped). */
    private long baseAccesses, baseLines, window;
    private long decisions;
    /** The window found no line request and no thread block anywhere: it waits for the next kernel launch. */
    private boolean parked;
    /** When the window under way ends (-1: none), for a successor to take over (a live swap). */
    private long windowEndPs = -1;

    public Classifier(MachineView machine, Params p, Runnable onDecision) {
        this.machine = machine;
        this.threshold = p.getDouble("coalescing_threshold");
        this.windowPs = machine.gpuClock().ps(p.getInt("sample_window"));
        this.onDecision = onDecision;
        this.perKernel = p.getString("classify").equals("per_kernel");
        UnifiedMemory um = machine.unifiedMemory();
        if (um == null) return;
        scheduleWindow(machine.engine().now() + windowPs);
        um.addListener(this); // kernel launches: a new window (per_kernel) or a parked one resumed
    }

    /**
     * per_kernel: a new kernel starts a new window; the current decision holds until it ends. A window parked while
     * nothing ran (once, undecided) resumes.
     */
    @Override
    public void onKernelLaunch(int kernel) {
        boolean newWindow = perKernel && kernel > 0; // kernel 0's window is the one already running
        if (!newWindow && !(parked && !done)) return;
        parked = false;
        if (newWindow) {
            UnifiedMemory um = machine.unifiedMemory();
            baseAccesses = um.threadAccesses();
            baseLines = um.lineRequests();
            ++window;
        }
        scheduleWindow(machine.engine().now() + windowPs);
    }

    private void scheduleWindow(long at) {
        windowEndPs = at;
        machine.engine().schedule(at, this, 0, window);
    }

    private static final String K_CLASS = "etc.classifier.class", K_COALESCING = "etc.classifier.coalescing",
            K_WINDOW = "etc.classifier.window";

    /**
     * The decision and the window under way, for the classifier of a successor policy (a live swap of one of ETC's
     * slots). The class is the application's (seed 002 §4.1 classifies the application, from counters the hardware keeps
     * whatever policy runs): a successor takes it instead of running ETC's techniques off through a new sampling window.
     */
    public java.util.Map<String, Object> exportState() {
        java.util.Map<String, Object> m = new java.util.HashMap<>();
        m.put(K_CLASS, (long) (done ? decided.code : -1));
        m.put(K_COALESCING, coalescing);
        m.put(K_WINDOW, new long[] {parked ? -1 : windowEndPs, baseAccesses, baseLines});
        return m;
    }

    /** Takes over a predecessor's decision and window (nothing if it exported none: this one samples afresh). */
    public void importState(java.util.Map<String, Object> state) {
        if (!(state.get(K_CLASS) instanceof Long code) || !(state.get(K_WINDOW) instanceof long[] w) || w.length != 3) return;
        if (code >= 0) {
            done = true;
            for (AppClass c : AppClass.values()) if (c.code == code) decided = c;
            if (state.get(K_COALESCING) instanceof Double c) coalescing = c;
        }
        ++window; // the window this classifier opened at its creation is replaced by the predecessor's
        windowEndPs = -1;
        parked = false;
        baseAccesses = w[1];
        baseLines = w[2];
        if (w[0] >= 0 && (perKernel || !done)) scheduleWindow(Math.max(machine.engine().now(), w[0])); // once: decided is final
        else if (!done) parked = true; // the predecessor's window was parked: the next kernel launch resumes it
    }

    /** Stops listening (the policy holding this classifier is closing). */
    public void close() {
        if (machine.unifiedMemory() != null) machine.unifiedMemory().removeListener(this);
        ++window;
    }

    @Override
    public void handle(int kind, long payload) {
        if (payload != window) return; // a newer kernel's window replaced this one
        UnifiedMemory um = machine.unifiedMemory();
        long lines = um.lineRequests() - baseLines;
        windowEndPs = -1;
        if (lines == 0) { // nothing issued yet: sample again after another window, unless nothing runs at all
            if (idle()) parked = true; // a finished run (or a gap between kernels) must not be kept alive by this timer
            else scheduleWindow(machine.engine().now() + windowPs);
            return;
        }
        coalescing = (double) (um.threadAccesses() - baseAccesses) / lines;
        done = true;
        decisions++;
        if (um.oversubscribed()) {
            boolean regular = coalescing >= threshold;
            decided = !regular ? AppClass.IRREGULAR : um.workloadSharesData() ? AppClass.REGULAR_SHARING : AppClass.REGULAR_NO_SHARING;
        }
        onDecision.run();
    }

    private boolean idle() {
        for (org.hmsim.api.machine.CoreView c : machine.sms()) if (c.residentCtas() > 0) return false;
        return true;
    }

    public AppClass decided() { return decided; }

    public boolean done() { return done; }

    /**
     * Registers {@code classifier.*}: the class code and the measured coalescing (what the classifier found, whether or not
     * anything follows it), {@code acting} (1 when the holding policy's technique follows the class: {@code mode: auto}),
     * and, only then, the choice of that technique ({@code choice_pe}, {@code choice_mt} or {@code choice_cc}). Each slot
     * reports its own technique's choice: its classifier cannot know whether another slot's technique runs (until
     * 2026-11-30 every slot reported all three, 1 even with every mode off, although nothing ran). runs.csv's
     * {@code etc.class} is read from the acting classifiers (docs/metrics.md).
     */
    public void registerStats(Stats s, String technique, boolean acting) {
        Stats c = s.scope("classifier");
        c.gauge("class", "ETC class: 0 = off (not oversubscribed / not yet sampled), 1 = regular no sharing, 2 = regular sharing, 3 = irregular (what the classifier found; acted on only where acting = 1)", () -> decided.code);
        c.gauge("coalescing", "thread accesses per line request over the sampling window", () -> coalescing);
        c.gauge("acting", "1 if this slot's " + technique + " follows the classifier (mode: auto), 0 if it is on or off whatever the class", () -> acting ? 1 : 0);
        if (acting) {
            switch (technique) {
                case "PE" -> c.gauge("choice_pe", "1 if the classifier chose proactive eviction", () -> decided.pe ? 1 : 0);
                case "MT", "NT" -> c.gauge("choice_mt", "1 if the classifier chose memory-aware throttling (" + technique + " in its place)", () -> decided.mt ? 1 : 0);
                case "CC" -> c.gauge("choice_cc", "1 if the classifier chose capacity compression", () -> decided.cc ? 1 : 0);
                default -> throw new IllegalArgumentException(technique);
            }
        }
        c.counter("decisions", "classifications made (1 with classify: once; one per sampled kernel with per_kernel)", () -> decisions);
    }
}
