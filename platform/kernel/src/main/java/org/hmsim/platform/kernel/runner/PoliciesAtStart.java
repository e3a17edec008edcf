package org.hmsim.platform.kernel.runner;

import java.util.EnumMap;
import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.PolicyChoice;
import org.hmsim.platform.kernel.registry.PolicyEntry;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.hmsim.platform.kernel.study.PlannedRun;
import org.hmsim.platform.machine.RunAbortedException;

/**
 * A run's policies as installed when the run starts. The study resolved them when it began; a bundle uninstalled
 * since (a plugin jar taken out of {@code plugins/}, {@code uninstall} in the shell) would otherwise start the run
 * with a departed bundle's classes: it failed with a NoClassDefFoundError, or, where the classes still loaded, ran
 * on the slot's default from time 0 under the study's label. A run in flight is swapped to the default instead
 * (DESIGN §6), but a run that has not started has simulated nothing yet, and the study asked for that policy.
 */
final class PoliciesAtStart {
    private PoliciesAtStart() {}

    /**
     * {@code run} with each policy whose provider left replaced by an installed provider of the same name and version
     * from a bundle of the same name (the jar updated or installed again); fails naming the policy where there is none.
     * Another bundle's copy of the policy (a built-in one that a plugin overrode by ranking) is not the study's choice.
     * While the container stops, its bundles leave: the run is then not failed but left for --resume, as a run the
     * container stopped under is.
     */
    static PlannedRun of(PlannedRun run) {
        PolicyRegistry registry = LiveSwaps.registry();
        if (registry == null) return run; // outside a container: nothing can leave
        Map<Slot, PolicyChoice> now = null;
        for (Map.Entry<Slot, PolicyChoice> e : run.policies().entrySet()) {
            PolicyChoice c = e.getValue();
            if (LivePolicies.installed(registry, c.entry().provider())) continue;
            if (LiveSwaps.aborting()) throw containerStopping();
            PolicyEntry same = registry.entries(c.slot()).stream()
                    .filter(x -> x.name().equals(c.entry().name()) && x.version().equals(c.entry().version())
                            && x.bundleName().equals(c.entry().bundleName())).findFirst()
                    .orElseThrow(() -> new PolicyUninstalledException(c, registry));
            if (now == null) now = new EnumMap<>(run.policies());
            now.put(e.getKey(), registry.choose(same, c.given()));
        }
        return now == null ? run
                : new PlannedRun(run.id(), run.index(), run.label(), run.machine(), run.workload(), now, run.sweepValues(), run.seed());
    }

    /** A departure seen while the container stops: its bundles are leaving, so the run is left for --resume, not failed. */
    static RunAbortedException containerStopping() {
        return new RunAbortedException("the container is stopping: its bundles are leaving; hmsim run --resume runs this run");
    }

    /** "{slot} policy {id} (bundle {bundle}) was uninstalled {when}": the start of both failures' messages. */
    private static String uninstalled(PolicyChoice c, String when) {
        return c.slot().id() + " policy " + c.entry().id() + " (bundle " + c.entry().bundle() + ") was uninstalled " + when;
    }

    private static final String NOT_STARTED = ", so the run did not start; install it again and `hmsim run --resume` runs it";

    /** A run's policy was uninstalled between the study's start and the run's: the run fails without starting. */
    static class PolicyUninstalledException extends IllegalStateException {
        PolicyUninstalledException(PolicyChoice c, PolicyRegistry registry) {
            this(uninstalled(c, "before this run started") + others(c, registry) + NOT_STARTED);
        }

        PolicyUninstalledException(String message) { super(message); }

        private static String others(PolicyChoice c, PolicyRegistry registry) {
            String versions = String.join(", ", registry.entries(c.slot()).stream()
                    .filter(x -> x.name().equals(c.entry().name())).map(x -> x.id() + " from " + x.bundle()).toList());
            return versions.isEmpty() ? "" : " (installed now: " + versions + ")";
        }

        /** The message says it all: no stack trace in error.txt or the progress line. */
        @Override
        public synchronized Throwable fillInStackTrace() { return this; }
    }

    /**
     * A run's policy was uninstalled after the start check, while the run was being set up: nothing is simulated yet
     * ({@link LivePolicies#starting}), and {@link RunWorker} checks again from the start.
     */
    static final class LeftDuringSetUp extends PolicyUninstalledException {
        LeftDuringSetUp(PolicyChoice c) {
            super(uninstalled(c, "while this run was being set up") + NOT_STARTED);
        }
    }
}
