package org.hmsim.platform.machine;

import org.hmsim.platform.gpu.Gpu;
import org.hmsim.platform.gpu.cache.L2Slice;
import org.hmsim.platform.gpu.sm.Sm;
import org.hmsim.platform.memory.dram.DramPool;
import org.hmsim.platform.memory.link.Link;

/**
 * Fails a run that has stopped making progress. The {@link EpochClock} keeps the event queue busy for as
 * long as the workload is unfinished, so a deadlocked model never empties the queue and would otherwise
 * run until its simulated-time limit (or forever). At every epoch end (the {@link EpochClock} calls it, so
 * the watchdog schedules no event of its own and cannot move the end of a finished run) this compares a progress signature — warp instructions issued on every SM, CPU accesses
 * completed, bytes served by every DRAM pool, kernels launched — with the last one; once it has not
 * changed for a whole interval the run throws, naming the components that still hold work (SMs with
 * resident warps or pending loads, busy L1 and L2 MSHRs, crossbar, page walks, DRAM and link queues, the
 * CPU side and its directory, the unified-memory driver). Legitimate quiet phases (a UVM far fault, a
 * SAHC permission fault, a host phase's compute) retire instructions or complete requests far more often
 * than the default 10 ms interval.
 */
final class Watchdog {
    private final Machine m;
    private final WorkloadRunner workload;
    private final long intervalPs;
    private long lastSignature = Long.MIN_VALUE;
    private long lastProgressPs;
    /** Each pool's ACTs at the last progress: a channel that keeps activating and serves nothing is livelocked, not idle. */
    private long[] activatesAtProgress;

    Watchdog(Machine m, WorkloadRunner workload, long intervalPs) {
        this.m = m;
        this.workload = workload;
        this.intervalPs = intervalPs;
    }

    /** Starts the interval now. */
    void start() { lastProgressPs = m.engine.now(); }

    /** Called at each epoch end of an unfinished run: throws once nothing has moved for a whole interval. */
    void check(long now) {
        if (intervalPs <= 0) return; // watchdog off
        long sig = signature();
        if (sig != lastSignature) {
            lastSignature = sig;
            lastProgressPs = now;
            activatesAtProgress = new long[m.pools.size()];
            for (int i = 0; i < activatesAtProgress.length; i++) activatesAtProgress[i] = m.pools.get(i).activates();
        } else if (now - lastProgressPs >= intervalPs) {
            throw new IllegalStateException(message(now));
        }
    }

    /** A value that changes whenever anything retires or completes (a sum of monotonic counters). */
    long signature() {
        long s = workload.kernelsLaunched();
        for (Gpu g : m.gpus)
            for (Sm sm : g.sms()) s = s * 31 + sm.issued();
        for (DramPool p : m.pools) s = s * 31 + p.bytesServed();
        if (m.cpu != null) s = s * 31 + m.cpu.completedAccesses();
        return s;
    }

    String message(long now) {
        StringBuilder b = new StringBuilder();
        b.append("simulation deadlocked: no instruction retired, no memory request completed and no kernel launched for ")
                .append(fmt(now - lastProgressPs)).append(" (watchdog ").append(fmt(intervalPs)).append(", machine file field 'watchdog') at ")
                .append(fmt(now)).append(", in kernel launch ").append(workload.kernelsLaunched()).append(" of ").append(workload.kernelCount())
                .append(" (counted from 1; a swap's at: kernel N counts from 0)");
        if (workload.launchHeld()) b.append(" (its launch is held by the migration policy)");
        int held = m.blocksNotDispatched();
        // a cta-scheduler that never picks an SM (pickSm -1 for ever, blocks bound to no GPU that runs) holds no request
        if (held > 0) b.append("; ").append(held).append(" of its thread blocks not dispatched (the cta-scheduler policy has not placed them,"
                + " or the throttling policy leaves them no SM)");
        b.append(". Still holding work: ").append(holders());
        return b.toString();
    }

    /** The components that hold work, most specific first; "nothing" if every queue is empty. */
    String holders() {
        StringBuilder b = new StringBuilder();
        for (Gpu g : m.gpus) {
            StringBuilder sms = new StringBuilder(), l1 = new StringBuilder(), l2 = new StringBuilder();
            for (Sm sm : g.sms()) {
                if (sm.residentWarps() > 0 || sm.inFlight() > 0)
                    sms.append(" sm").append(sm.index()).append(" (").append(sm.residentWarps()).append(" warps, ").append(sm.inFlight()).append(" loads/stores pending)");
                if (sm.l1().inFlight() > 0) l1.append(" sm").append(sm.index()).append('=').append(sm.l1().mshrsInUse()).append('/').append(sm.l1().inFlight());
            }
            int i = 0;
            for (L2Slice s : g.l2Slices()) {
                if (s.inFlight() > 0) l2.append(" slice").append(i).append('=').append(s.mshrsInUse()).append('/').append(s.inFlight());
                i++;
            }
            if (sms.length() > 0) b.append(g.name()).append(" SMs with warps waiting:").append(sms).append("; ");
            if (l1.length() > 0) b.append(g.name()).append(" L1 MSHRs busy/held:").append(l1).append("; ");
            if (l2.length() > 0) b.append(g.name()).append(" L2 MSHRs busy/held:").append(l2).append("; ");
            if (g.crossbar().inFlight() > 0) b.append(g.name()).append(" crossbar ").append(g.crossbar().inFlight()).append(" packets; ");
            if (g.mmu().walksInFlight() > 0) b.append(g.name()).append(" page walks ").append(g.mmu().walksInFlight()).append("; ");
        }
        for (int i = 0; i < m.pools.size(); i++) {
            DramPool p = m.pools.get(i);
            if (p.inFlight() == 0) continue;
            b.append("DRAM ").append(p.name()).append(" queues ").append(p.inFlight()).append(" requests");
            long acts = activatesAtProgress == null ? 0 : p.activates() - activatesAtProgress[i];
            // a rank that prefers closed rows opens and closes them for ever (a trial's plugin): say where the time went
            if (acts > 0) b.append(" and issued ").append(acts).append(" ACTs without serving one (a livelock: ").append(p.schedulerFixed()
                    ? "its scheduler" : "the dram-scheduler slot's ranks close each row before its column command can go?").append(")");
            b.append("; ");
        }
        for (Link l : m.links) if (l.inFlight() > 0) b.append("link ").append(l.name()).append(' ').append(l.inFlight()).append(" packets; ");
        if (m.cpu != null && m.cpu.inFlight() > 0)
            b.append("CPU side ").append(m.cpu.inFlight()).append(" (directory ").append(m.cpu.directory().inFlight()).append("); ");
        if (m.uvm != null && m.uvm.inFlight() > 0) b.append("unified-memory driver ").append(m.uvm.inFlight()).append(" faults/evictions; ");
        return b.length() == 0 ? "nothing (no component holds a request: a callback that never came, e.g. a policy that never answered)"
                : b.substring(0, b.length() - 2);
    }

    private static String fmt(long ps) {
        if (ps >= 1_000_000_000L) return String.format(java.util.Locale.ROOT, "%.3f ms", ps / 1e9);
        if (ps >= 1_000_000L) return String.format(java.util.Locale.ROOT, "%.3f us", ps / 1e6);
        if (ps >= 1_000L) return String.format(java.util.Locale.ROOT, "%.3f ns", ps / 1e3);
        return ps + " ps";
    }
}
