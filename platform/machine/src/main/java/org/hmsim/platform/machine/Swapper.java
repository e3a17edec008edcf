package org.hmsim.platform.machine;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.machine.CoreView;
import org.hmsim.api.policy.L2MissPathPolicy;
import org.hmsim.api.policy.MigrationPolicy;
import org.hmsim.api.policy.PlacementPolicy;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.ReplacementPolicy;
import org.hmsim.api.policy.ResidencyPolicy;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.policy.ThrottlingPolicy;
import org.hmsim.api.policy.WarpSchedulerPolicy;
import org.hmsim.api.policy.CacheabilityPolicy;
import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.api.policy.CtaSchedulerPolicy;
import org.hmsim.api.policy.InterleavePolicy;
import org.hmsim.platform.gpu.Gpu;
import org.hmsim.platform.memory.dram.DramPool;
import org.hmsim.platform.memory.link.Link;
import org.hmsim.platform.stats.StatsRegistry;

/**
 * The live-swap protocol of one simulation (DESIGN §6), on the simulation's thread only. A swap is
 * staged (scripted, or taken from {@link SwapControl} at the end of an epoch) and carried out at a safe
 * point: stop issuing in the components the slot touches, let the engine run until they hold nothing in
 * flight, hand state over (the new policy imports what the old one exports; replacement and warp
 * state are rebuilt per cache and per SM), resume, record.
 *
 * <p>What must drain, per slot ({@link Drain}), is what holds a decision of the old policy that the new
 * one could not read. Placement, CTA scheduler, throttling, compression and residency decide only at the
 * moment they are asked, so they swap at once. So do replacement, cacheability and the warp scheduler:
 * a cache chooses and locks its victim way when the miss is detected and records the allocation decision
 * in the MSHR (seed 003 §2), so a fill in flight completes into a way the new replacement state was told
 * about (every way is presented to it as filled; locked ways are never candidates) and allocates as the old
 * cacheability policy decided; warp-scheduler state is rebuilt from the warps' ages. The L2 miss path waits
 * until every SM, L1, crossbar, L2 slice and page walk of every GPU is idle (its fetch buffers are
 * structure). Coherence and interleave also wait for the links, the DRAM channels and page copies (a
 * request queued in a channel was mapped by the old interleave; a miss in flight was timed by the old
 * protocol). A coherence swap then writes back every dirty L2 line and invalidates every L1 and L2 line
 * ({@link #flushCaches}), waits until those write-backs have reached DRAM, and only then starts the new
 * protocol, whose directory is rebuilt from the (now empty) caches. Migration waits only for a kernel launch the old
 * policy holds back (its copies run that launch); its other copies in flight complete after the swap without calling
 * back into it ({@link PolicyMemory}), so nothing stops.
 *
 * <p>Everything that can refuse a swap without looking at the drained machine is decided before the drain
 * ({@link #prepare}): resolving the target, creating the new policy (its provider's create, which checks what only the
 * run can tell), its type, and the profile of a two-pass policy. A drain stalls the GPUs and a coherence swap flushes
 * the caches, so a swap refused after it would already have changed the run's timing (and --replay-swaps, which
 * carries out only the swaps that took effect, could not reproduce it). What can refuse a swap only after the drain is
 * recorded as {@code refused after draining: ...}: a drain that does not finish within {@link #DRAIN_LIMIT_PS}, the
 * target's bundle leaving while the swap drained, and the new policy's importState (it takes the state the old policy
 * had when the drain ended).
 */
final class Swapper implements EventTarget {
    private static final int EV_TIMED = 0, EV_POLL = 1;
    /** A drain that takes longer than this is a bug or a livelock: the swap is refused, never forced. */
    static final long DRAIN_LIMIT_PS = 10_000_000_000L; // 10 ms simulated

    /** LAUNCH: only a kernel launch the old policy holds back (its copies in flight need no drain, {@link PolicyMemory}). */
    enum Drain { NONE, LAUNCH, GPU, MEMORY }

    private final Machine m;
    private final SwapHost host;
    private final SwapControl control;
    private final List<ScriptedSwap> scripts;
    /** Scripted swaps due after the run's end ({@link #workloadEnded}). */
    private long notReached;
    private final long seed;
    private final String runId;
    private final long pollPs;
    private final ArrayDeque<SwapRequest> queue = new ArrayDeque<>();
    private WorkloadRunner workload;
    /** Launches waiting for the swaps queued before them (several in a multiprogrammed run, one per program). */
    private final ArrayDeque<Runnable> afterIdle = new ArrayDeque<>();
    /**
     * Swaps carried out so far; the next one's policy draws from stream "swap.(swaps + 1)". Refused swaps do not count:
     * --replay-swaps replays only the swaps that were carried out, and must give each the same stream (a refused swap
     * before them shifted every later one's, found by a review).
     */
    private int swaps;
    private final ProfilingPass profiling;

    // the swap in progress
    private SwapRequest current;
    private SwapTarget target;
    /** The new policy, created before the drain; installed after it, or closed if the swap is refused then. */
    private Policy prepared;
    /** The prepared policy's view of the memory manager: the slot's once it is installed, retired if it is refused. */
    private PolicyMemory preparedMemory;
    /** An l2-miss-path target's constants, read and checked as the swap is staged and again after it imported its state. */
    private org.hmsim.platform.gpu.cache.MissPathSettings preparedMissPath;
    /** The prepared policy's statistics, waiting to take over the slot's names when it is installed. */
    private StatsRegistry.Handover preparedStats;
    /** This swap stalled the GPUs or flushed the caches: refused now, it has changed the run's timing. */
    private boolean perturbed;
    private long startPs, wallStartNs;
    private String wallTime;
    /** Coherence: the caches were flushed at this swap's safe point; what was flushed, for the record. */
    private boolean flushed;
    private String flushText;
    /** The CPU cores' issue is held for this swap's drain (a machine with a CPU side, memory drains). */
    private boolean cpuHeld;

    Swapper(Machine m, SwapHost host, List<ScriptedSwap> scripts, SwapControl control, long seed, String runId) {
        this(m, host, scripts, control, seed, runId, null);
    }

    /** {@code profiling}: the run's profiling pass, whose profile a two-pass policy swapped in gets (null: none). */
    Swapper(Machine m, SwapHost host, List<ScriptedSwap> scripts, SwapControl control, long seed, String runId, ProfilingPass profiling) {
        this.profiling = profiling;
        this.m = m;
        this.host = host;
        this.scripts = List.copyOf(scripts);
        this.control = control;
        this.seed = seed;
        this.runId = runId;
        this.pollPs = m.gpuClock().periodPs();
    }

    /**
     * Called before the workload starts. A swap at time 0 is carried out here, before anything issues: as an event at
     * time 0 it came after the first launch, which the policy being left had already handled (its blocks placed, its
     * launch hooks run), so {@code at: 0ns} and a better-ranked provider's swap at the start were not the run that
     * starts on the new policy.
     */
    void start(WorkloadRunner w) {
        this.workload = w;
        for (int i = 0; i < scripts.size(); i++) {
            ScriptedSwap s = scripts.get(i);
            if (s.when() != ScriptedSwap.When.TIME) continue;
            if (s.value() <= m.engine.now()) queue.add(s.request(0));
            else m.engine.schedule(s.value(), this, EV_TIMED, i);
        }
        startNext();
    }

    /**
     * The workload has ended at {@code endPs}: the scripted swaps whose time or epoch end lies later never come (a swap
     * due then is dropped), which a study's results would otherwise not show: they read as the run without the swap.
     * An {@code every} swap counts if even its first point is later.
     */
    void workloadEnded(long endPs, long epochPs) {
        notReached = 0;
        for (ScriptedSwap s : scripts) {
            long at = switch (s.when()) {
                case TIME -> s.value();
                case EPOCH, EVERY_EPOCHS -> s.value() * epochPs;
                case KERNEL -> -1; // a kernel the workload never launches is refused at validation
            };
            if (at > endPs) notReached++;
        }
        // only then: a run whose swaps all came has the statistics of the run without them (the swap tests compare them)
        if (notReached > 0)
            m.stats.counter("swap.scripted_not_reached", "swaps written in the study for a time or an epoch after the run's end"
                    + " (not performed; swaps.csv lists only the swaps that came)", () -> notReached);
    }

    static Drain drainOf(Slot s) {
        return switch (s) {
            case PLACEMENT, CTA_SCHEDULER, THROTTLING, COMPRESSION, RESIDENCY -> Drain.NONE;
            case CACHEABILITY, REPLACEMENT, WARP_SCHEDULER, DRAM_SCHEDULER -> Drain.NONE;
            case L2_MISS_PATH -> Drain.GPU;
            case COHERENCE, INTERLEAVE -> Drain.MEMORY;
            case MIGRATION -> Drain.LAUNCH;
        };
    }

    // ------------------------------------------------------------ safe points

    /** The end of epoch {@code n} (1-based): scripted epoch swaps, then swaps asked for from outside. */
    void onEpoch(long n) {
        for (ScriptedSwap s : scripts) {
            if (s.when() == ScriptedSwap.When.EPOCH && s.value() == n) queue.add(s.request(0));
            else if (s.when() == ScriptedSwap.When.EVERY_EPOCHS && n % s.value() == 0) queue.add(s.request(n / s.value()));
        }
        for (SwapRequest r; (r = control.poll()) != null; ) queue.add(r);
        startNext();
    }

    /** Whether the run was asked to end without a result. */
    boolean aborted() { return control.aborted(); }

    /** Kernel {@code index} (0-based) is about to launch: swaps scripted for this boundary first. */
    void beforeKernel(int index, Runnable launch) {
        for (ScriptedSwap s : scripts)
            if (s.when() == ScriptedSwap.When.KERNEL && s.value() == index) queue.add(s.request(0));
        if (queue.isEmpty() && current == null) {
            launch.run();
            return;
        }
        if (current != null) perturbed = true; // a swap in progress holds this launch back: refused now, it changed the timing
        afterIdle.add(launch);
        startNext();
    }

    @Override
    public void handle(int kind, long payload) {
        if (kind == EV_TIMED) {
            queue.add(scripts.get((int) payload).request(0));
            startNext();
        } else if (current != null) {
            if (drained(drainOf(current.slot())) && flushedAndDrained()) {
                perform();
                startNext();
            } else if (m.engine.now() - startPs > DRAIN_LIMIT_PS) {
                resumeHeld();
                record(current.slot(), current, target, "-", perturbed ? AFTER_DRAIN + "the components did not drain within 10 ms simulated"
                        : "refused: the launch the old policy holds back did not proceed within 10 ms simulated (nothing was held meanwhile)");
                discardPending();
                startNext();
            } else {
                hold();
                m.engine.schedule(m.engine.now() + pollPs, this, EV_POLL, 0);
            }
        }
    }

    private void startNext() {
        while (current == null) {
            SwapRequest r = queue.poll();
            if (r == null) break;
            if (workload != null && workload.done()) {
                queue.clear();
                break;
            }
            begin(r);
        }
        while (current == null && !afterIdle.isEmpty()) {
            Runnable a = afterIdle.poll();
            a.run();
        }
    }

    private void begin(SwapRequest r) {
        startPs = m.engine.now();
        wallStartNs = System.nanoTime();
        wallTime = Instant.now().toString();
        current = r;
        flushed = false;
        flushText = null;
        perturbed = false;
        try {
            if (host == null) throw new IllegalArgumentException("this run's policy source cannot resolve swaps");
            target = host.resolve(r.slot(), r.policy(), r.params());
        } catch (RuntimeException e) {
            record(r.slot(), r, null, "-", "refused: " + e.getMessage());
            current = null;
            return;
        }
        // a departure noticed twice (by the bundle listener and after a refused swap) asks twice, and a run that follows
        // the highest-ranked provider asks at its start while its time-0 swap to it is still queued; the second finds
        // the slot already on the live provider it would swap to: nothing to do, nothing to record
        if (("bundle".equals(r.cause()) || "ranking".equals(r.cause())) && host.alreadyActive(r.slot(), target)) {
            current = null;
            target = null;
            return;
        }
        if (!prepare()) return;
        if (drainOf(r.slot()) == Drain.NONE || (drained(drainOf(r.slot())) && flushedAndDrained())) {
            perform();
            return;
        }
        hold();
        m.engine.schedule(startPs + pollPs, this, EV_POLL, 0);
    }

    /**
     * Stops instruction issue on every SM until two polls from now (a stall, as a shootdown's); renewed at
     * each poll, so issue resumes one poll after the swap.
     */
    private void hold() {
        if (drainOf(current.slot()) == Drain.LAUNCH) return; // the old policy's own launch is what it waits for: nothing stops
        perturbed = true;
        for (Gpu g : m.gpus) g.stall(2 * pollPs);
        // The CPU cores and the page copies feed the same directory and DRAM: a memory drain holds them too, until the
        // swap ends (a copy's chunks already read are still written; the rest of the page waits)
        if (drainOf(current.slot()) == Drain.MEMORY) {
            m.os.holdCopies();
            if (m.cpu != null && !cpuHeld) {
                cpuHeld = true;
                m.cpu.holdIssue(true);
            }
        }
    }

    /** Ends what a drain held besides the GPUs (they resume by themselves): page copies, and the CPU cores' issue. */
    private void resumeHeld() {
        m.os.resumeCopies();
        if (!cpuHeld) return;
        cpuHeld = false;
        m.cpu.holdIssue(false);
    }

    private boolean drained(Drain d) {
        switch (d) {
            case NONE:
                return true;
            case LAUNCH:
                return !workload.launchHeld();
            case MEMORY:
                for (DramPool p : m.pools) if (p.inFlight() != 0) return false;
                for (Link l : m.links) if (l.inFlight() != 0) return false;
                if (m.os.copyChunksInFlight() != 0) return false; // copies held mid-page go on after the swap
                // the CPU side: its cores' accesses, LLC miss registers, and the CPU-GPU directory's MSHRs and
                // memory port (GPU write-backs leave the L2 at once and wait there; seed 001 machines)
                if (m.cpu != null && m.cpu.inFlight() != 0) return false;
                // fall through: and the GPUs
            default:
                for (Gpu g : m.gpus) if (g.inFlight() != 0) return false;
                return true;
        }
    }

    /**
     * Called once the slot's components are drained. A coherence swap flushes the caches the first time
     * and then waits for the write-backs to drain too; every other slot is ready at once.
     */
    private boolean flushedAndDrained() {
        if (current.slot() != Slot.COHERENCE) return true;
        if (!flushed) {
            flushText = flushCaches();
            flushed = true;
            perturbed = true;
        }
        return drained(Drain.MEMORY);
    }

    /**
     * Writes back and invalidates what a change of coherence protocol requires: every dirty L2 sector leaves
     * as a write-back (through the slice's normal write-back path), every L2 and L1 line is invalidated (a
     * write-back L1's dirty sectors then leave through their slices as write-backs too), and every GPU TLB entry is
     * dropped (a GPU asks the protocol for a page's permission when it walks). The new protocol then starts from empty
     * caches and TLBs, so its directory is rebuilt empty and no cached copy or permission exists that it does not know of.
     */
    private String flushCaches() {
        long written = 0, l2Lines = 0, l1Lines = 0, translations = 0;
        for (Gpu g : m.gpus) {
            translations += g.invalidateAllTranslations(); // the GPU's permission check is its walk: every page walked again
            for (org.hmsim.platform.gpu.cache.L2Slice s : g.l2Slices()) {
                long[] f = s.writeBackAndInvalidateAll();
                written += f[0];
                l2Lines += f[1];
            }
            for (org.hmsim.platform.gpu.sm.Sm sm : g.sms()) l1Lines += sm.l1().invalidateAll();
        }
        String cpu = "";
        if (m.cpu != null) { // the CPU caches too: the new protocol has not seen how their lines were obtained
            long[] c = m.cpu.flushForSwap();
            cpu = "; CPU: " + c[0] + " dirty lines written back, " + c[1] + " lines invalidated";
        }
        lastFlush = new long[] {written, l2Lines, l1Lines, dramWrites(), -1};
        return "caches flushed: " + written + " dirty L2 lines written back, " + l2Lines + " L2 lines and " + l1Lines
                + " L1 lines invalidated" + cpu + "; " + translations + " GPU TLB entries dropped; directory rebuilt empty";
    }

    /**
     * The last coherence flush, for tests: {dirty L2 lines written back, L2 lines, L1 lines invalidated, DRAM
     * writes served when the flush started, DRAM writes served when the new protocol started}.
     */
    long[] lastFlush = new long[5];

    private long dramWrites() {
        long n = 0;
        for (DramPool p : m.pools) n += p.writes();
        return n;
    }

    // ------------------------------------------------------------ hand-over

    /** Prefix of the outcome of a swap refused once its drain had stalled the GPUs or flushed the caches. */
    static final String AFTER_DRAIN = "refused after draining: ";

    /**
     * Creates the new policy of the swap just begun and hands it the run's profile, before anything is drained: a
     * swap refused here leaves no trace in the numbers. False if refused (recorded; the slot keeps its policy).
     */
    private boolean prepare() {
        SwapRequest r = current;
        SwapTarget t = target;
        Slot slot = r.slot();
        Policy next;
        try {
            // A policy swapped in mid-run takes over the slot's statistics when it is installed (counters go on
            // from its predecessor's values); until then its registrations wait, so a refused swap leaves no trace.
            long swapSeed = SeedStreams.stream(seed, "swap." + (swaps + 1)).nextLong();
            preparedStats = m.stats.handover("policy." + slot.id() + ".");
            preparedMemory = new PolicyMemory(m.os);
            next = t.factory().apply(new SimPolicyContext(m, preparedMemory, preparedStats, swapSeed, runId, slot));
            if (!slot.policyType().isInstance(next))
                throw new IllegalStateException(t.id() + " created " + (next == null ? "null" : next.getClass().getName()) + ", not a " + slot.policyType().getSimpleName());
            readMissPath(slot, next); // a getter that throws or a value no L2 can have: refused before anything is drained
        } catch (RuntimeException | LinkageError e) {
            // LinkageError: the target's bundle went away after it was resolved (its classes can no longer load)
            refuse(e, "");
            return false;
        }
        try {
            if (profiling != null) profiling.handTo(next); // oracle, profiled hints: the run's profile, as at the start
        } catch (RunAbortedException e) {
            closeQuietly(next);
            preparedMemory.retire();
            preparedMemory = null;
            current = null;
            target = null;
            throw e; // the run is ending (Ctrl-C, the container stopping): not this swap's failure
        } catch (RuntimeException | LinkageError e) { // the pass (a bundle gone, its time limit) or useProfile: the swap, not the run
            closeQuietly(next);
            refuse(e, "the profile could not be handed over (the profiling pass or useProfile failed): ");
            return false;
        }
        prepared = next;
        return true;
    }

    /** An l2-miss-path policy's constants, read and checked ({@link org.hmsim.platform.gpu.cache.MissPathSettings}); other slots: nothing. */
    private void readMissPath(Slot slot, Policy next) {
        preparedMissPath = slot == Slot.L2_MISS_PATH ? org.hmsim.platform.gpu.cache.MissPathSettings.of((L2MissPathPolicy) next) : null;
    }

    /** Records the swap in progress as refused for {@code why}, tells the host, and ends it; the slot keeps its policy. */
    private void refuse(Throwable why, String what) {
        SwapRequest r = current;
        record(r.slot(), r, target, "-", (perturbed ? AFTER_DRAIN : "refused: ") + what + why);
        discardPending();
        if (host != null) host.refused(control, r.slot(), why);
    }

    /** Ends the swap in progress without installing its new policy (refused, or the run ended while it drained). */
    void discardPending() {
        if (prepared != null) closeQuietly(prepared);
        if (preparedMemory != null) preparedMemory.retire();
        preparedMemory = null;
        prepared = null;
        preparedStats = null;
        current = null;
        target = null;
    }

    /** The slot's components are drained: the prepared policy takes the old one's state and its place. */
    private void perform() {
        resumeHeld(); // its next issue is an event: it sees the new policy
        Slot slot = current.slot();
        try {
            if (host != null) host.checkInstalled(target); // its bundle may have left while the swap drained
        } catch (RuntimeException e) {
            refuse(e, "");
            return;
        }
        Policy old = m.policies[slot.ordinal()];
        Map<String, Object> exported = Map.of();
        String exportFailure = "";
        try {
            exported = old.exportState();
            if (exported == null) exported = Map.of();
        } catch (RuntimeException | LinkageError e) {
            // the new policy starts without state; the record says so (a plugin author needs to know). A
            // LinkageError: the old policy's bundle is gone and a class it needs for exporting cannot load.
            exportFailure = "exportState of the old policy failed (" + e + "), the new one starts without state; ";
        }
        try {
            prepared.importState(exported);
        } catch (RuntimeException | LinkageError e) {
            refuse(e, "importState failed: ");
            return;
        }
        try {
            readMissPath(slot, prepared); // its constants may follow the state it imported
        } catch (RuntimeException | LinkageError e) {
            refuse(e, "");
            return;
        }
        SwapRequest r = current;
        SwapTarget t = target;
        Policy next = prepared;
        prepared = null;
        current = null;
        target = null;
        // a throttling policy closes before its successor begins: etc's and nt's close() re-enable the SMs they gated,
        // which undid the gates a successor had set in begin from the state it imported (a researcher's trial)
        boolean closesFirst = slot == Slot.THROTTLING;
        if (closesFirst) closeQuietly(old);
        m.policyLabels[slot.ordinal()] = SwapRecord.withParams(t.id(), t.params()); // what an error of its first decisions names
        String state;
        Throwable failed = null;
        try {
            state = exportFailure + install(slot, next, exported.size());
        } catch (RuntimeException | LinkageError e) {
            // Installing it is already using it: the components consult it from the first line of install, and what
            // follows asks it (a cta-scheduler's boundGpu for the running kernel's blocks, a throttling policy's begin). The
            // swap happened and the run fails under the new policy: it is recorded as done, and the run's failure context
            // names it (it was neither in swaps.csv nor in error.txt, which named the policy before it: a tester's report).
            failed = e;
            state = exportFailure + exported.size() + " state keys handed over; " + INSTALL_FAILED + e;
        }
        state += retireMemory(slot);
        swaps++;
        m.policies[slot.ordinal()] = next;
        StatsRegistry.Handover stats = preparedStats;
        preparedStats = null;
        stats.commit();
        if (!closesFirst) closeQuietly(old);
        stats.freezeRest();
        record(slot, r, t, state, "ok");
        if (failed != null) failedInstall = control.records().get(control.records().size() - 1);
        control.setActive(slot, t.id(), t.bundle());
        if (failed == null) {
            if (host != null) host.swapped(control, slot, t);
            return;
        }
        try {
            if (host != null) host.swapped(control, slot, t);
        } catch (RuntimeException | LinkageError e) {
            failed.addSuppressed(e);
        }
        if (failed instanceof LinkageError gone) throw gone;
        throw (RuntimeException) failed;
    }

    /** What the state column of a swap says whose policy failed the run as it was installed (the swap is recorded ok). */
    static final String INSTALL_FAILED = "the run failed as the new policy was installed: ";

    /** The swap whose new policy failed the run as it was installed, or null. */
    private SwapRecord failedInstall;

    /** The swap whose new policy failed the run as it was installed (recorded as carried out), or null. */
    SwapRecord failedInstall() { return failedInstall; }

    /**
     * The old policy's view of memory retires with it and the new one's takes its place; returns, for the record, the
     * copies the old policy started that are still moving (they complete without telling it).
     */
    private String retireMemory(Slot slot) {
        PolicyMemory old = m.policyMemory[slot.ordinal()];
        old.retire();
        m.policyMemory[slot.ordinal()] = preparedMemory;
        if (m.workloadEnded) preparedMemory.endWorkload(); // a swap after the run's end: the new policy moves no page either
        preparedMemory = null;
        int copies = old.copiesInFlight();
        return copies == 0 ? "" : "; " + copies + " page cop" + (copies == 1 ? "y" : "ies") + " the old policy started still in flight (they complete; it is not told)";
    }

    /**
     * What a throttling policy swapped in set in its {@code begin}, right after the platform re-enabled every SM: the
     * record said only "all SMs re-enabled", while the new policy gated the SMs it took over at the same instant (a
     * tester's MT-to-NT swap). Empty if it set nothing there (it decides from its own later events).
     */
    private String limitsSetInBegin() {
        List<Integer> gated = new ArrayList<>(), capped = new ArrayList<>();
        for (int i = 0; i < m.sms.size(); i++) {
            CoreView sm = m.sms.get(i);
            if (!sm.issueEnabled()) gated.add(i);
            if (sm.ctaLimit() < sm.maxCtas() || sm.warpLimit() < sm.maxWarps()) capped.add(i);
        }
        if (gated.isEmpty() && capped.isEmpty()) return "; the new policy set no gate or cap as it began";
        String s = "; then the new policy, as it began,";
        if (!gated.isEmpty()) s += " gated " + gated.size() + " of " + m.sms.size() + " SMs (" + ranges(gated) + ")";
        if (!gated.isEmpty() && !capped.isEmpty()) s += " and";
        if (!capped.isEmpty()) s += " capped the thread blocks or warps of " + capped.size() + " (" + ranges(capped) + ")";
        return s;
    }

    /** Ascending SM numbers as runs: "0-3 6". */
    static String ranges(List<Integer> sorted) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < sorted.size(); ) {
            int j = i;
            while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) j++;
            if (b.length() > 0) b.append(' ');
            b.append(sorted.get(i));
            if (j > i) b.append('-').append(sorted.get(j));
            i = j + 1;
        }
        return b.toString();
    }

    /** Puts {@code p} where the components consult the slot; returns what happened to state, for the record. */
    private String install(Slot slot, Policy p, int keys) {
        String imported = keys + " state keys handed over (the old policy's exportState to the new one's importState)";
        switch (slot) {
            case PLACEMENT -> m.os.setPlacement((PlacementPolicy) p);
            case MIGRATION -> m.translator.setMigration((MigrationPolicy) p);
            case RESIDENCY -> {
                m.translator.setResidency((ResidencyPolicy) p);
                m.observeReferences((ResidencyPolicy) p);
            }
            case THROTTLING -> {
                // The old policy's gates and caps are not the new one's to undo: every SM issues at the hardware's
                // limits until it decides.
                for (CoreView sm : m.sms) {
                    sm.setIssueEnabled(true);
                    sm.setCtaLimit(sm.maxCtas());
                    sm.setWarpLimit(sm.maxWarps());
                }
                ((ThrottlingPolicy) p).begin(m.engine.now());
                return imported + "; all SMs re-enabled at the hardware's thread-block and warp limits" + limitsSetInBegin();
            }
            case COMPRESSION -> { }
            case CACHEABILITY -> m.liveCacheability.target = (CacheabilityPolicy) p;
            case COHERENCE -> {
                m.liveCoherence.target = (CoherencePolicy) p;
                if (flushed) lastFlush[4] = dramWrites();
                if (m.cpu != null) {
                    m.cpu.directory().rebuildEmpty(); // drained and every cache flushed: no block is tracked
                    m.cpu.handOverRuntimeState((CoherencePolicy) p);
                }
                return imported + "; memory system drained; " + (flushText != null ? flushText : "caches not flushed");
            }
            case L2_MISS_PATH -> m.liveMissPath.install(preparedMissPath);
            case REPLACEMENT -> {
                m.liveReplacement.swapTo((ReplacementPolicy) p);
                return imported + "; replacement state rebuilt from cache contents";
            }
            case INTERLEAVE -> {
                for (DramPool pool : m.pools) pool.setInterleave((InterleavePolicy) p);
                long mapped = m.os.spreadPages(); // a multi-GPU fine page is spread over every memory (a trial's count left them out)
                for (int i = 0; i < m.pools.size(); i++) mapped += m.os.mappedPages(i);
                // said here: after the last first touch such a swap changes no placement (a trial's swap at kernel 1 did nothing, silently)
                return imported + "; DRAM drained; the " + mapped + " pages mapped so far keep their homes (it places pages mapped from now on;"
                        + " its channel mapping applies at once)";
            }
            case CTA_SCHEDULER -> {
                m.liveCta.target = (CtaSchedulerPolicy) p;
                int told = m.multiGpu != null && m.multiGpu.launcher() != null && m.multiGpu.launcher().ctaPolicySwapped() ? 1 : 0;
                // a GPU running a kernel of its own (one GPU, or a mix's program) is told too; a GPU in a grid skips it
                for (org.hmsim.platform.gpu.Gpu g : m.gpus) told += g.ctaPolicySwapped() ? 1 : 0;
                // a rule binding blocks to GPUs would hold a mix's blocks for ever: the run fails here, saying so
                if (workload != null) workload.refuseBindingElsewhere();
                // at a kernel boundary nothing runs: it said "told the running kernel" there too (a trial)
                return imported + (told == 0 ? "; no kernel running (it places the next launch's blocks)"
                        : "; told the running kernel" + (told > 1 ? "s" : "") + " (onSwappedInMidKernel)");
            }
            case DRAM_SCHEDULER -> {
                int reached = 0;
                for (DramPool pool : m.pools) reached += pool.setScheduler((org.hmsim.api.policy.DramSchedulerPolicy) p) ? 1 : 0;
                // a pool whose machine file names its scheduler keeps it: said, since the swap acts on nothing there
                return imported + "; queued requests stay" + (reached == m.pools.size() ? ""
                        : reached == 0 ? "; every pool's machine file fixes its scheduler, so nothing changed"
                        : "; " + (m.pools.size() - reached) + " of " + m.pools.size() + " pools keep the scheduler their machine file fixes");
            }
            case WARP_SCHEDULER -> {
                m.liveWarps.swapTo((WarpSchedulerPolicy) p);
                for (org.hmsim.platform.gpu.Gpu g : m.gpus) for (org.hmsim.platform.gpu.sm.Sm s : g.sms()) s.schedulerChanged();
                return imported + "; warp state rebuilt from warp ages";
            }
        }
        return imported;
    }

    private void record(Slot slot, SwapRequest r, SwapTarget t, String state, String outcome) {
        Map<Slot, String> active = control.active();
        Map<Slot, String> bundles = control.bundles();
        String to = t != null ? t.id() : r.policyShown();
        String params = t != null ? t.params() : paramsText(r.params());
        // a refused swap that held nothing while it waited (a migration swap waiting for a held launch) changed no timing:
        // its drain is 0, as swaps.csv readers take any refusal with a drain for one refused after draining
        long drainPs = outcome.startsWith("refused") && !perturbed ? 0 : m.engine.now() - startPs;
        control.add(new SwapRecord(startPs, wallTime, slot, active.getOrDefault(slot, ""), bundles.getOrDefault(slot, ""), to,
                t != null ? t.bundle() : "", params, r.cause(), drainPs, System.nanoTime() - wallStartNs, state, outcome), r);
    }

    static String paramsText(Map<String, Object> p) {
        List<String> keys = new ArrayList<>(p.keySet());
        keys.sort(null);
        StringBuilder b = new StringBuilder();
        for (String k : keys) b.append(b.length() == 0 ? "" : ";").append(k).append('=').append(p.get(k));
        return b.toString();
    }

    private static void closeQuietly(Policy p) {
        try {
            p.close();
        } catch (RuntimeException | LinkageError e) {
            // A policy that fails to close must not fail the run it leaves (DESIGN §6: never crash).
        }
    }

    /** Swaps carried out so far (outcome ok; refused ones left the policy as it was). */
    long performed() { return control.records().stream().filter(r -> "ok".equals(r.outcome())).count(); }

    /** The run's swap records so far, refused ones included. */
    List<SwapRecord> records() { return control.records(); }

    /** Whether a swap is being carried out or waiting (the run must not end its epochs then). */
    boolean busy() { return current != null || !queue.isEmpty(); }
}
