package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.MemoryManager;
import org.hmsim.api.policy.MigrationPolicy;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.Slot;
import org.junit.jupiter.api.Test;

/**
 * The machine, not the policy, stops page copies at the workload's end: a migration policy that ignores
 * {@code onWorkloadEnd} (a third party's, or copy-first and migrate-on-touch, which have no queue to drop) gets every
 * copy and mapping refused from then on. The policy here moves one page back and forth between the pools for as long as
 * the OS lets it, each copy started from the last one's completion, with a cap so that a machine that does not stop it
 * fails the test instead of running on.
 */
class WorkloadEndMigrationTest {
    static final int CAP = 20_000;

    /** Ping-pongs the first page of the first allocation between pools 0 and 1 from kernel 0's launch on. */
    static final class PingPong implements MigrationPolicy, Runnable {
        final PolicyContext ctx;
        final MemoryManager memory;
        final List<Long> acceptedPs = new ArrayList<>();
        long vpn = -1;
        int refusedMaps;

        PingPong(PolicyContext ctx) {
            this.ctx = ctx;
            this.memory = ctx.memory();
        }

        @Override
        public void onKernelLaunch(int kernel, Runnable proceed) {
            if (kernel == 0) {
                Allocation a = memory.allocations().get(0);
                vpn = a.baseVa() / memory.pageBytes();
                if (memory.poolOf(vpn) < 0) memory.map(vpn, 1);
                run();
            }
            proceed.run();
        }

        /** The last copy completed (or the first starts): the page goes to the other pool. */
        @Override
        public void run() {
            if (acceptedPs.size() >= CAP) return;
            int to = memory.poolOf(vpn) == 0 ? 1 : 0;
            if (memory.migrate(vpn, to, this)) acceptedPs.add(ctx.machine().engine().now());
            else if (memory.map(vpn + 1, 1) == -1) refusedMaps++;
        }
    }

    static final class Source extends SwappableProviders {
        PingPong policy;

        @Override
        public Policy create(Slot slot, PolicyContext c) {
            if (slot != Slot.MIGRATION) return super.create(slot, c);
            policy = new PingPong(c);
            return policy;
        }
    }

    @Test
    void noCopyIsAcceptedAfterTheLastKernelEvenForAPolicyThatIgnoresTheEnd() {
        Source source = new Source();
        RunResult r = TestMachines.run(TestMachines.machine("small"), TestMachines.workload("stream", 1, "elements", 65536), source);
        List<Long> accepted = source.policy.acceptedPs;
        long end = r.simTimePs();
        assertTrue(accepted.size() > 5 && accepted.get(accepted.size() - 1) > end / 2,
                "the case: the page is still being moved late in the run (" + accepted.size() + " copies, last at "
                        + accepted.get(accepted.size() - 1) + " of " + end + " ps)");
        assertTrue(accepted.size() < CAP, "the copies stopped at the workload's end, not at the test's cap");
        assertTrue(accepted.stream().allMatch(t -> t <= end), "a copy started after the run's end at " + end + " ps");
        assertEquals(1, source.policy.refusedMaps, "the one refusal, after the end, tried a mapping too, refused");
        assertEquals(accepted.size(), r.metrics().get("migrations").intValue(), "every copy started completed");
    }
}
