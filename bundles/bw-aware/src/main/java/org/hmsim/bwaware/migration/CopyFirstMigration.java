package org.hmsim.bwaware.migration;

import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.MemoryManager;
import org.hmsim.api.policy.MigrationPolicy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.stats.Stats;
import org.hmsim.bwaware.placement.Bandwidths;

/**
 * The legacy GDDR+memcpy baseline (seed 000 §2.1, Fig. 2.2, Ch. 5): the host's data starts in CPU
 * memory; before the first kernel every page is bulk-copied to GPU memory, in allocation order, with
 * {@code copies_in_flight} page copies outstanding, so the copy runs at what the DDR pool, the link and
 * GDDR sustain; the kernel launches when the copy is done, and the run's time includes the copy. Pages
 * that do not fit stay in CPU memory. Nothing has been translated yet, so no copy costs a shootdown.
 */
final class CopyFirstMigration implements MigrationPolicy, Runnable {
    private final PolicyContext context;
    private final MemoryManager memory;
    private final int copies;
    private long[] vpns;
    private int next, inFlight, fast;
    private Runnable proceed;
    private long startPs, copyPs, copied, refused;

    CopyFirstMigration(PolicyContext context, int copies) {
        this.context = context;
        this.memory = context.memory();
        this.copies = copies;
        Stats st = context.stats();
        if (st != null) {
            st.counter("pages_copied", "pages copied to GPU memory before the first kernel", () -> copied);
            st.counter("pages_left", "pages that stayed in CPU memory because GPU memory was full", () -> refused);
            st.counter("copy_time_ps", "time the bulk copy took before the first kernel, ps", () -> copyPs);
        }
    }

    @Override
    public void onKernelLaunch(int kernel, Runnable proceed) {
        if (kernel != 0) {
            proceed.run();
            return;
        }
        fast = new Bandwidths(context.machine(), "", 0).fastest();
        HostData.mapAll(memory, Bandwidths.capacityPool(context.machine()));
        long pb = memory.pageBytes();
        int n = 0;
        for (Allocation a : memory.allocations()) n += (int) ((a.bytes() + pb - 1) / pb);
        vpns = new long[n];
        int k = 0;
        for (Allocation a : memory.allocations())
            for (long v = a.baseVa() / pb; v <= (a.endVa() - 1) / pb; v++) vpns[k++] = v;
        this.proceed = proceed;
        startPs = context.machine().engine().now();
        pump();
        maybeLaunch();
    }

    private void pump() {
        while (inFlight < copies && next < vpns.length) {
            long vpn = vpns[next++];
            if (memory.migrate(vpn, fast, this)) {
                inFlight++;
            } else if (memory.poolOf(vpn) != fast) {
                refused++;
            }
        }
    }

    @Override
    public void run() {
        inFlight--;
        copied++;
        pump();
        maybeLaunch();
    }

    private void maybeLaunch() {
        if (inFlight > 0 || next < vpns.length || proceed == null) return;
        copyPs = context.machine().engine().now() - startPs;
        Runnable p = proceed;
        proceed = null;
        p.run();
    }
}
