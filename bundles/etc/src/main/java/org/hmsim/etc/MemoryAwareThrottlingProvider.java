package org.hmsim.etc;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.machine.CoreView;
import org.hmsim.api.machine.MachineView;
import org.hmsim.api.machine.UnifiedMemory;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.policy.ThrottlingPolicy;
import org.osgi.service.component.annotations.Component;

/**
 * Throttling {@code etc}: ETC's memory-aware throttling (MT, seed 002 §4.3). On activation half the SMs stop
 * fetching (their in-flight instructions drain; {@link CoreView#setIssueEnabled}). Then epochs alternate:
 * <ul>
 * <li>detection epoch ({@code detect_epoch}): ends at the first far fault or when the timer expires.
 *     Expiry without a fault: release one SM (the last throttled). A fault while pages were evicted in the
 *     epoch (thrashing): when that fault resolves, throttle the SM that faulted (if it is still issuing,
 *     else the next issuing SM). A fault without eviction: hold (case 3, no action in the paper);</li>
 * <li>execution epoch ({@code exec_epoch}): the active SMs run undisturbed, then detection again.</li>
 * </ul>
 * Throttle and release degree ({@code throttle_degree}, {@code release_degree}) are 1 SM, Fig 18's best; the
 * figure varies them apart. Epoch lengths are not given in the paper; ours are parameters. At least
 * {@code min_active} SMs keep issuing.
 *
 * <p>The same class runs the paper's naive throttling (NT, §6.2; policy {@code nt},
 * {@link NaiveThrottlingProvider}) with {@code adaptive} off: the initial throttle, and no epochs.
 *
 * <p>"No page fault in the detection epoch" is read as: no new fault <i>and none still in service</i>
 * ({@code pending_faults_hold}). A fault is in service for the handler's 20 us plus its batch's copies
 * (up to 32 x 4 us), far longer than a detection epoch; warps waiting on it raise no new faults, so
 * counting only new faults releases SMs exactly while the active SMs' pages do not fit.
 *
 * <p>Work conservation ({@code work_conserving}, our addition where the paper is silent). Throttling trades
 * parallelism for a smaller working set; an SM without thread blocks has no parallelism to trade. So the
 * last {@code min_active} SMs that still hold thread blocks are never throttled, a release enables the most
 * recently throttled SM that holds thread blocks (one without any has no fetch to enable), and when no issuing
 * SM holds a thread block while throttled ones do, they are released at once (checked at every fault
 * resolution, at every detection or execution epoch's end, and every {@code work_check}: a timer of the policy's own,
 * so that results do not depend on how often the study samples statistics, as they did until 2026-11-27, when the
 * check ran at each statistics epoch). The paper's kernels have far more thread blocks than SMs, so a
 * throttled SM rarely sits on the only work left; the scaled-down models (16 CTAs on 30 SMs for ATAX) would
 * otherwise freeze the column pass's CTAs on throttled SMs, release them one detection epoch at a time and
 * throttle them again at their first fault.
 *
 * <p>{@code idle_release}: all of them, not one (found by a helper's analysis, 2026-11-27). In ATAX's column pass every
 * thread block streams all of A in the same order; MT throttles whichever SM leads the stream, and once the
 * others finish, releasing the throttled SMs one at a time made each re-stream the pages behind it alone, every page
 * evicted by the one before (ATAX at 50 %: MT 13.0 ms, the pass 11.3 of them, 387 faults against BL's 51). Released
 * together they stream as one (MT 4.8 ms). Throttling cannot shrink a working set every thread block shares (§4.3's
 * premise is pages used by a few thread blocks); {@code classify: per_kernel} stands MT down for such a pass.
 */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=throttling", PolicyProvider.NAME + "=etc", PolicyProvider.VERSION + "=1.1.0"})
public final class MemoryAwareThrottlingProvider implements PolicyProvider {
    /** MT throttles on far faults (seed 002 §4.3): there are none without demand paging. */
    @Override public void check(Params params, org.hmsim.api.policy.RunFacts run) { run.requireDemandPaging("throttling etc"); }

    @Override public Slot slot() { return Slot.THROTTLING; }

    @Override public String name() { return "etc"; }

    /** 1.1.0 (eleventh session): its state is handed over at a live swap (1.0.0 restarted). */
    @Override public String version() { return "1.1.0"; }

    @Override public String description() {
        return "ETC memory-aware throttling (seed 002 §4.3): start with half the SMs throttled, then per detection/execution epoch throttle the faulting SM when faults coincide with evictions, release one SM when an epoch sees no fault; on for irregular applications by ETC's classifier (§4.1, §4.5).";
    }

    @Override public List<ParamSpec> parameters() {
        List<ParamSpec> p = new ArrayList<>();
        p.add(Mode.param("MT"));
        p.add(ParamSpec.time("detect_epoch", 20_000_000L, 1000, 1_000_000_000_000L, "detection epoch length (not given in seed 002; ours: one 20 us fault latency, so a thrashing app shows a fault within it)"));
        p.add(ParamSpec.time("exec_epoch", 40_000_000L, 1000, 1_000_000_000_000L, "execution epoch length (not given in seed 002; ours: two fault latencies)"));
        p.add(ParamSpec.real("initial_throttle", 0.5, 0, 1, "fraction of SMs throttled on activation (seed 002 §4.3: half)"));
        p.add(ParamSpec.integer("throttle_degree", 1, 1, 64, "SMs throttled per thrashing decision (seed 002 Fig 18: 1 is best; performance is more sensitive to it than to the release degree)"));
        p.add(ParamSpec.integer("release_degree", 1, 1, 64, "SMs released per detection epoch without faults (seed 002 Fig 18: 1 is best)"));
        p.add(ParamSpec.bool("pending_faults_hold", true, "a detection epoch that ends with demand faults still in service counts as one with faults: hold, do not release (our reading of 'no page fault in the epoch'; false = only new faults count, which releases SMs while their warps wait on faults)"));
        p.add(ParamSpec.bool("work_conserving", true, "never throttle the last min_active SMs that hold thread blocks, release SMs that hold thread blocks first, and release one at once when no issuing SM has any (our addition; false = the paper's rules counted over all SMs)"));
        p.addAll(sharedParams("MT"));
        return p;
    }

    /**
     * What MT and NT share: who stays active, how often work conservation looks, the classifier. NT is always
     * work-conserving: with no epochs, nothing else would release throttled SMs holding the last thread blocks.
     */
    static List<ParamSpec> sharedParams(String who) {
        List<ParamSpec> p = new ArrayList<>();
        p.add(ParamSpec.integer("min_active", 1, 1, 4096, "SMs that always keep issuing"));
        p.add(ParamSpec.time("work_check", 5_000_000L, 1000, 1_000_000_000_000L, "with work_conserving, how often " + who + " looks for throttled SMs holding the only work left (ours: a quarter of a 20 us fault latency; the statistics epoch of the ETC checks, which it replaced)"));
        p.add(ParamSpec.choice("idle_release", "all", List.of("all", "one"), "with work_conserving, when no issuing SM holds a thread block: release every throttled SM that holds one (all), or only the most recently throttled (one, the rule until 2026-11-27). Ours; see MT's class comment"));
        p.addAll(Classifier.params());
        return p;
    }

    @Override public Policy create(PolicyContext ctx, Params params) { return new Mt(ctx, params, true); }

    static final class Mt implements ThrottlingPolicy, UnifiedMemory.Listener, EventTarget {
        private static final int EV_DETECT_END = 0, EV_EXEC_END = 1, EV_WORK_CHECK = 2;
        private final MachineView machine;
        private final Mode mode;
        private final long detectPs, execPs, workCheckPs;
        private final double initial;
        private final int throttleDegree, releaseDegree, minActive;
        /** MT's epochs (true) or NT's static throttle, restored at every kernel launch (false). */
        private final boolean adaptive;
        private final Classifier classifier;
        private final List<? extends CoreView> sms;
        private int[] stack = new int[0];
        private int throttled;
        private boolean started, detecting, dormant, faultSeen, evictionSeen, workCheckArmed;
        /** NT swapped in for a started MT (or an NT of another fraction): its own static throttle is applied in {@link #begin}. */
        private boolean throttleAtBegin;
        private int faultingSm = -1;
        /**
         * Demand faults raised and not yet resolved as this policy counted them, for a driver that does not say
         * ({@link UnifiedMemory#faultsInService()}); the driver's count holds the faults raised before a live swap.
         */
        private long outstanding;
        /** When the pending detection or execution epoch ends (-1: none; a fault ended the detection epoch), and the work check. */
        private long epochEndPs = -1, workCheckAtPs = -1;
        private final boolean pendingCounts, workConserving, releaseAllIdle;
        private long epochSeq;
        private long throttles, releases, detectEpochs, workReleases;

        Mt(PolicyContext ctx, Params p, boolean adaptive) {
            this.machine = ctx.machine();
            this.adaptive = adaptive;
            this.mode = Mode.of(p.getString("mode"));
            this.detectPs = adaptive ? p.getLong("detect_epoch") : 0;
            this.execPs = adaptive ? p.getLong("exec_epoch") : 0;
            this.workCheckPs = p.getLong("work_check");
            this.initial = p.getDouble("initial_throttle");
            this.throttleDegree = adaptive ? p.getInt("throttle_degree") : 0;
            this.releaseDegree = adaptive ? p.getInt("release_degree") : 0;
            this.minActive = p.getInt("min_active");
            this.pendingCounts = adaptive && p.getBoolean("pending_faults_hold");
            this.workConserving = !adaptive || p.getBoolean("work_conserving"); // NT has no epoch to release SMs otherwise
            this.releaseAllIdle = p.getString("idle_release").equals("all");
            this.sms = machine.sms();
            this.classifier = new Classifier(machine, p, this::reconsider);
            String who = adaptive ? "MT" : "NT";
            classifier.registerStats(ctx.stats(), who, mode == Mode.AUTO);
            ctx.stats().gauge("throttled_sms", "SMs throttled by " + who + " now", () -> throttled);
            ctx.stats().counter("throttles", "SMs throttled by " + who + " (including the initial ones)", () -> throttles);
            ctx.stats().counter("releases", "SMs released by " + who, () -> releases);
            ctx.stats().counter("detect_epochs", "detection epochs run", () -> detectEpochs);
            ctx.stats().counter("work_releases", "SMs released because no issuing SM held a thread block (work_conserving)", () -> workReleases);
            ctx.stats().sampleEachEpoch("throttled_sms");
            // mode on starts at the first fault: the SMs do not exist yet while policies are created
            if (machine.unifiedMemory() != null) machine.unifiedMemory().addListener(this);
        }

        private boolean wanted() {
            return switch (mode) {
                case ON -> true;
                case OFF -> false;
                case AUTO -> classifier.decided().mt;
            };
        }

        /**
         * A (new) decision: start if MT is now chosen; with {@code classify: per_kernel} a kernel classified regular stands MT
         * down, every throttled SM issuing again (the paper enables MT for irregular applications only, §4.5).
         */
        private void reconsider() {
            if (wanted()) maybeStart();
            else if (started && mode == Mode.AUTO) stop();
        }

        private void stop() {
            started = false;
            detecting = false;
            dormant = false;
            faultingSm = -1;
            ++epochSeq;
            while (throttled > 0) releaseAt(throttled - 1);
        }

        private void maybeStart() {
            if (started || !wanted()) return;
            started = true;
            throttleInitial();
            if (adaptive) startDetect();
            armWorkCheck();
        }

        /** The initial throttle: the top {@code initial_throttle} of the SMs, those not already throttled. */
        private void throttleInitial() {
            int n = (int) Math.floor(sms.size() * initial);
            for (int k = 0; k < n; k++) throttleOne(sms.size() - 1 - k);
        }

        /** The work-conservation timer; never armed while no thread block is anywhere, so it cannot keep a finished run alive. */
        private void armWorkCheck() {
            if (!workConserving || workCheckArmed) return;
            workCheckArmed = true;
            workCheckAtPs = machine.engine().now() + workCheckPs;
            machine.engine().schedule(workCheckAtPs, this, EV_WORK_CHECK, 0);
        }

        private void startDetect() {
            detecting = true;
            faultSeen = false;
            evictionSeen = false;
            faultingSm = -1;
            detectEpochs++;
            epochEndPs = machine.engine().now() + detectPs;
            machine.engine().schedule(epochEndPs, this, EV_DETECT_END, ++epochSeq);
        }

        private void startExec() {
            detecting = false;
            epochEndPs = machine.engine().now() + execPs;
            machine.engine().schedule(epochEndPs, this, EV_EXEC_END, ++epochSeq);
        }

        @Override
        public void handle(int kind, long seq) {
            if (kind == EV_WORK_CHECK) {
                workCheckArmed = false;
                workCheckAtPs = -1;
                if (!started || idle()) return; // re-armed at the next kernel launch
                keepWorking();
                armWorkCheck();
                return;
            }
            if (seq != epochSeq) return; // an epoch already ended by a fault
            epochEndPs = -1;
            if (idle()) { // no thread block anywhere: sleep until the next kernel launch (never keep a finished run alive)
                dormant = true;
                return;
            }
            keepWorking();
            if (kind == EV_DETECT_END) {
                // case 2: an epoch without faults. Faults still in service count as faults: warps stalled on
                // them raise no new ones, yet the active SMs' pages do not fit (our reading; with few warps
                // per SM a detection epoch shorter than a fault's service would otherwise release SMs
                // exactly while the working set thrashes). With faults in service and none new: hold.
                if (!faultSeen && (faultsInService() == 0 || !pendingCounts)) release();
                startExec();
            } else startDetect();
        }

        @Override
        public void onFault(int sm, long vpn) {
            outstanding++;
            if (!started && mode == Mode.ON) maybeStart();
            if (!started || !detecting || faultSeen) return;
            faultSeen = true;
            if (!evictionSeen) { // case 3: free memory remains, hold
                startExec();
                return;
            }
            faultingSm = sm; // case 4: throttle it when its fault resolves
            ++epochSeq; // the detection timer no longer ends this epoch
            epochEndPs = -1;
        }

        @Override
        public void onEviction(long vpn, boolean proactive) {
            if (detecting) evictionSeen = true;
        }

        @Override
        public void onFaultResolved(int sm, long vpn) {
            outstanding--;
            if (started) keepWorking();
            if (faultingSm < 0 || sm != faultingSm || !detecting) return;
            faultingSm = -1;
            for (int k = 0; k < throttleDegree; k++) {
                int victim = sms.get(sm).issueEnabled() ? sm : lastActive();
                if (victim < 0) break;
                throttleOne(victim);
            }
            startExec();
        }

        /**
         * Work conservation: no issuing SM holds a thread block while throttled ones do: release them (all of them, or with
         * {@code idle_release: one} the most recently throttled).
         */
        private void keepWorking() {
            if (!workConserving || throttled == 0 || busyIssuing() > 0) return;
            for (int i = throttled - 1; i >= 0; i--) {
                if (sms.get(stack[i]).residentCtas() > 0) {
                    releaseAt(i);
                    workReleases++;
                    if (!releaseAllIdle) return;
                }
            }
        }

        /** SMs that issue and hold thread blocks: the parallelism throttling trades. */
        private int busyIssuing() {
            int n = 0;
            for (CoreView c : sms) if (c.issueEnabled() && c.residentCtas() > 0) n++;
            return n;
        }

        /** A kernel launches: a dormant MT (no thread block was left anywhere) takes up its epochs again. */
        @Override
        public void onKernelLaunch(int kernel) {
            if (!started) return;
            if (!adaptive) throttleInitial(); // NT is static: SMs work conservation released are throttled again
            if (adaptive && dormant) {
                dormant = false;
                startDetect();
            }
            armWorkCheck();
        }

        private long faultsInService() {
            UnifiedMemory um = machine.unifiedMemory();
            long n = um == null ? -1 : um.faultsInService();
            return n >= 0 ? n : outstanding;
        }

        /**
         * MT's state (seed 002 §4.3: the stack of throttled SMs, the epoch and its flags) and the classifier's decision,
         * for a successor in the throttling slot. The paper's MT is one mechanism running through the application;
         * a swap that changes its parameters (a degree, an epoch length) changes how it goes on, not where it is, so
         * a successor MT takes over the throttled SMs, the epoch and its end, and the classifier's decision (a property
         * of the application, §4.1) instead of throttling half the SMs again after a new sampling window. NT hands
         * over its throttled SMs too. Plain data only (the Policy contract).
         */
        @Override
        public java.util.Map<String, Object> exportState() {
            java.util.Map<String, Object> m = new java.util.HashMap<>(classifier.exportState());
            long[] st = new long[throttled];
            for (int i = 0; i < throttled; i++) st[i] = stack[i];
            m.put(K_STACK, st);
            m.put(K_STARTED, started);
            if (adaptive) {
                m.put(K_PHASE, new long[] {detecting ? 1 : 0, faultSeen ? 1 : 0, evictionSeen ? 1 : 0, faultingSm, dormant ? 1 : 0, epochEndPs});
            }
            m.put(K_WORK_CHECK, workCheckAtPs);
            m.put(K_KIND, adaptive ? "mt" : "nt");
            m.put(K_INITIAL, initial);
            return m;
        }

        static final String K_STACK = "etc.mt.throttled_sms", K_STARTED = "etc.mt.started", K_PHASE = "etc.mt.epoch",
                K_WORK_CHECK = "etc.mt.work_check_ps", K_KIND = "etc.mt.kind", K_INITIAL = "etc.mt.initial_throttle";

        /**
         * Takes over a predecessor's MT or NT state. The platform re-enables every SM when a throttling policy is swapped
         * in (after this call), and the predecessor's close does too, so the SMs of the handed-over stack stop issuing
         * again in {@link #begin}, at the swap's instant. An epoch under way goes on to its end as scheduled; an NT
         * predecessor had none, so MT starts a detection epoch. Nothing is taken over from a predecessor that never
         * started (it had not decided or faulted yet): this policy starts as a fresh one would.
         *
         * <p>NT is static (seed 002 §6.2): swapped in for a started MT, it does not keep MT's throttled set (MT's
         * adaptation, which NT is the comparison point for, would otherwise go on through it: a tester's MT-to-NT swap
         * kept MT's 2 SMs, then none, and NT's {@code initial_throttle} was never applied). It throttles its own
         * {@code initial_throttle} of the SMs in {@link #begin} and holds them as it would from its start. From an NT
         * predecessor with the same {@code initial_throttle} it carries on with the throttled SMs as they are (what
         * work conservation released is throttled again at the next kernel launch, as without the swap).
         */
        @Override
        public void importState(java.util.Map<String, Object> state) {
            classifier.importState(state);
            long now = machine.engine().now();
            if (!(state.get(K_STARTED) instanceof Boolean b) || !b || !(state.get(K_STACK) instanceof long[] st) || !wanted()) {
                if (mode == Mode.AUTO && classifier.done()) reconsider(); // a decision handed over: act on it as at the decision
                return;
            }
            started = true;
            stack = new int[Math.max(sms.size(), 1)];
            throttled = 0;
            boolean sameNt = "nt".equals(state.get(K_KIND)) && state.get(K_INITIAL) instanceof Double f && f == initial;
            if (!adaptive && !sameNt) {
                throttleAtBegin = true; // the SMs are re-enabled after this call: NT's static throttle is set in begin
                return;
            }
            for (long sm : st) if (sm >= 0 && sm < sms.size() && throttled < stack.length) stack[throttled++] = (int) sm;
            if (adaptive) {
                if (state.get(K_PHASE) instanceof long[] ph && ph.length == 6) {
                    detecting = ph[0] == 1;
                    faultSeen = ph[1] == 1;
                    evictionSeen = ph[2] == 1;
                    faultingSm = (int) ph[3];
                    dormant = ph[4] == 1;
                    epochEndPs = ph[5];
                    if (epochEndPs >= 0) machine.engine().schedule(Math.max(now, epochEndPs), this, detecting ? EV_DETECT_END : EV_EXEC_END, ++epochSeq);
                } else startDetect(); // from NT: no epoch under way
            }
            if (state.get(K_WORK_CHECK) instanceof Long at && at >= 0 && workConserving) {
                workCheckArmed = true;
                workCheckAtPs = Math.max(now, at);
                machine.engine().schedule(workCheckAtPs, this, EV_WORK_CHECK, 0);
            } else if (!idle()) armWorkCheck(); // idle (a predecessor between kernels has no check pending): the next launch arms it, as it would have
        }

        /**
         * At time 0 nothing is throttled yet. After a live swap (the platform has just re-enabled every SM): the handed-over
         * stack's SMs stop issuing again, or NT sets its own static throttle (see {@link #importState}).
         */
        @Override
        public void begin(long nowPs) {
            for (int i = 0; i < throttled; i++) sms.get(stack[i]).setIssueEnabled(false);
            if (!throttleAtBegin) return;
            throttleAtBegin = false;
            throttleInitial();
            if (!idle()) armWorkCheck();
        }

        private boolean idle() {
            for (CoreView c : sms) if (c.residentCtas() > 0) return false;
            return true;
        }

        private void throttleOne(int sm) {
            if (sms.size() - throttled <= minActive || !sms.get(sm).issueEnabled()) return;
            if (workConserving && sms.get(sm).residentCtas() > 0 && busyIssuing() <= minActive) return;
            sms.get(sm).setIssueEnabled(false);
            if (throttled == stack.length) stack = java.util.Arrays.copyOf(stack, Math.max(sms.size(), 1));
            stack[throttled++] = sm;
            throttles++;
        }

        private void release() {
            for (int k = 0; k < releaseDegree && throttled > 0; k++) releaseAt(workConserving ? lastThrottledWithWork() : throttled - 1);
        }

        /** The most recently throttled SM that holds thread blocks, else the most recently throttled. */
        private int lastThrottledWithWork() {
            for (int i = throttled - 1; i >= 0; i--) if (sms.get(stack[i]).residentCtas() > 0) return i;
            return throttled - 1;
        }

        private void releaseAt(int i) {
            int sm = stack[i];
            System.arraycopy(stack, i + 1, stack, i, throttled - 1 - i);
            throttled--;
            sms.get(sm).setIssueEnabled(true);
            releases++;
        }

        private int lastActive() {
            for (int i = sms.size() - 1; i >= 0; i--) if (sms.get(i).issueEnabled()) return i;
            return -1;
        }

        @Override
        public void close() {
            if (machine.unifiedMemory() != null) machine.unifiedMemory().removeListener(this);
            while (throttled > 0) sms.get(stack[--throttled]).setIssueEnabled(true);
            started = false; // a work check still pending finds MT stopped and does not re-arm (a live swap replaced it)
            ++epochSeq;
            classifier.close();
        }
    }
}
