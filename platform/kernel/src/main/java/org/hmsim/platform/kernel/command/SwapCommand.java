package org.hmsim.platform.kernel.command;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.InvalidChoiceException;
import org.hmsim.platform.kernel.registry.PolicyChoice;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.hmsim.platform.kernel.runner.LiveSwaps;
import org.hmsim.platform.machine.SwapRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code swap RUN SLOT POLICY [param=value...]}: asks a running run to swap a slot's policy (DESIGN §6). With one run in
 * progress RUN may be left out ({@code swap coherence sahc}, the design's form).
 * The choice is validated here (so a typo is an error at once); the run performs it at its next epoch
 * end and records it in runs/RUN/swaps.csv. Without arguments, lists the runs that can be swapped.
 */
@Command(name = "swap", mixinStandardHelpOptions = true, description = "Swaps a slot's policy in a running run at its next safe point: swap [RUN] SLOT POLICY [param=value...] (RUN may be left out while one run is in progress). It reaches the runs of the study this container runs (the shell's sim:run), not a headless hmsim run in another process: script those swaps in the study (swaps:).")
final class SwapCommand implements Callable<Integer> {
    private final Commands.Context ctx;

    @Parameters(arity = "0..*", paramLabel = "ARG", description = "[RUN] SLOT POLICY[@VERSION] [param=value...]")
    List<String> args = new ArrayList<>();

    SwapCommand(Commands.Context ctx) { this.ctx = ctx; }

    /** The policy's remark on this run ({@link org.hmsim.api.policy.PolicyProvider#note}), or null; a note that throws is none, as at validation. */
    private static String noteOf(PolicyChoice c, org.hmsim.api.policy.RunFacts facts) {
        try {
            return c.entry().provider().note(c.params(), facts);
        } catch (RuntimeException throwing) {
            return null;
        }
    }

    /** Why a headless swap reaches nothing: this process is a new container, not the one simulating. */
    private static final String HEADLESS = "hmsim swap: swaps a run of the study this container runs (the shell's sim:swap, while sim:run runs the study);"
            + " a headless hmsim run cannot be reached from another process: run the study with sim:run in hmsim shell,"
            + " or script the swap in the study (swaps:, docs/study-files.md)";

    @Override
    public Integer call() {
        PrintStream o = ctx.out(), e = ctx.err();
        if (args.size() >= 2 && Slot.byId(args.get(0)) != null) { // swap SLOT POLICY ...: the one run in progress
            java.util.Set<String> running = runningOnceOneStarts();
            if (running.isEmpty() && ctx.kernel().current() == null && !ctx.background()) {
                e.println(HEADLESS); // "no run in progress" while another process ran one misled a plugin author
                return Commands.BAD_INPUT;
            }
            if (running.size() != 1) {
                e.println("swap: " + (running.isEmpty() ? "no run in progress" : running.size() + " runs in progress (" + String.join(", ", running)
                        + "): name one, swap RUN " + args.get(0) + " " + args.get(1)));
                return Commands.BAD_INPUT;
            }
            args = new ArrayList<>(args);
            args.add(0, running.iterator().next());
        }
        if (args.size() == 2 && !LiveSwaps.running().containsKey(args.get(0)) && !args.get(0).matches("\\d+")) {
            try { // SLOT POLICY with a misspelt slot: said so, with the slots (it printed the usage alone, a shell trial)
                PolicyRegistry.slot(args.get(0));
            } catch (InvalidChoiceException ex) {
                e.println("swap: " + ex.getMessage());
                return Commands.BAD_INPUT;
            }
        }
        if (args.size() < 3) {
            if (!args.isEmpty()) {
                e.println("usage: swap [RUN] SLOT POLICY[@VERSION] [param=value...] (RUN may be left out while one run is in progress)");
                return Commands.BAD_INPUT;
            }
            o.println("runs in progress: " + (LiveSwaps.running().isEmpty() ? "none" : String.join(", ", LiveSwaps.running().keySet())));
            return Commands.OK;
        }
        String run = args.get(0);
        Map<String, Object> params = new LinkedHashMap<>();
        for (String kv : args.subList(3, args.size())) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                e.println("swap: '" + kv + "' is not param=value");
                return Commands.BAD_INPUT;
            }
            if (params.put(kv.substring(0, eq), kv.substring(eq + 1)) != null) {
                e.println("swap: " + kv.substring(0, eq) + " is given twice");
                return Commands.BAD_INPUT;
            }
        }
        PolicyChoice c;
        try {
            Slot slot = PolicyRegistry.slot(args.get(1));
            c = ctx.kernel().policies().resolve(slot, args.get(2), params);
        } catch (InvalidChoiceException ex) {
            // a value error names the parameter as typed (entries=3), as trace record's --param does
            boolean named = ex.parameter() != null && !ex.getMessage().startsWith("unknown parameter") && !ex.getMessage().contains(ex.parameter());
            e.println("swap: " + (named ? ex.parameter() + ": " : "") + ex.getMessage());
            return Commands.BAD_INPUT;
        }
        // a parameter naming a pool must name one of the run's machine, a granularity fit its page: refused here, not by the run (it failed the run)
        var current = ctx.kernel().current();
        if (current != null && c.entry().provider() != null)
            for (var planned : current.study().runs()) {
                if (!planned.id().equals(run)) continue;
                try {
                    var m = planned.machine().config(); // the workload is not built again here: its allocations are checked by the policy
                    // a mix's programs count: a policy refused for a mix at validation is refused here too (a review swapped one in live)
                    var facts = m.runFacts(List.of(), planned.workload().programs(), planned.workload().isMix());
                    c.entry().provider().check(c.params(), facts);
                    // what validation refuses as acting on nothing on every run refuses a swap into this one (a shell
                    // trial's static throttle of 8 SMs on a 4-SM GPU was recorded as a swap that capped nothing)
                    String note = noteOf(c, facts);
                    if (note != null) {
                        e.println("swap: " + c.label() + " on machine " + m.name() + ": " + note + ": it would only label the run");
                        return Commands.BAD_INPUT;
                    }
                } catch (RuntimeException bad) { // a plugin's check may throw anything
                    e.println("swap: " + c.entry().name() + " on machine " + planned.machine().config().name() + ": " + bad.getMessage());
                    return Commands.BAD_INPUT;
                }
            }
        if (ctx.kernel().current() == null && !ctx.background() && !LiveSwaps.running().containsKey(run)) {
            // headless, this process is a new container: it cannot reach a run another process simulates ("running: none"
            // while that run was in flight misled a researcher); checked after the choice, so a typo is still named
            e.println(HEADLESS);
            return Commands.BAD_INPUT;
        }
        // Submit the validated values (typed), so the run resolves exactly what was checked.
        Map<String, Object> typed = new LinkedHashMap<>();
        for (String k : params.keySet()) typed.put(k, c.params().asMap().get(k));
        SwapRequest request = new SwapRequest(c.slot(), c.entry().id(), typed, "shell");
        var study = ctx.kernel().current();
        if (study != null && !LiveSwaps.running().containsKey(run) && study.study().runs().stream().noneMatch(r -> r.id().equals(run))) {
            // not one of the study's runs: said at once, with the ids it has (a review's typo was waited on, then
            // answered "no run of study ... is simulating yet")
            var runs = study.study().runs();
            e.println("swap: study " + study.study().name() + " has no run '" + run + "' (its runs: "
                    + (runs.isEmpty() ? "none" : runs.size() == 1 ? runs.get(0).id() : runs.get(0).id() + " to " + runs.get(runs.size() - 1).id()) + ")");
            return Commands.BAD_INPUT;
        }
        if (!submitOnceSetUp(run, request)) {
            java.util.Set<String> running = LiveSwaps.running().keySet();
            // a study that has started but whose runs are still being set up has no run to swap yet
            String why = running.isEmpty() && study != null && study.ended() == null
                    ? "no run of study " + study.study().name() + " is simulating yet (a run of it being set up or queued is waited for "
                    + START_WAIT_MS / 1000 + " s; try again)"
                    : queued(study, run) ? "run " + run + " is still queued behind the runs in progress (" + String.join(", ", running) + ") after "
                    + START_WAIT_MS / 1000 + " s of waiting: swap it once it runs, or script the swap in the study's swaps: (docs/study-files.md)"
                    : "no run '" + run + "' in progress (running: " + (running.isEmpty() ? "none" : String.join(", ", running)) + ")";
            e.println("swap: " + why);
            return Commands.BAD_INPUT;
        }
        org.hmsim.platform.machine.SwapRecord done = awaitRecord(LiveSwaps.running().get(run), request);
        if (done == null) {
            o.println("run " + run + ": " + c.slot().id() + " -> " + c.entry().id() + " at its next epoch end (sim:status and the run's swaps.csv show the outcome)");
            return Commands.OK;
        }
        if (!done.outcome().equals("ok")) { // said here, not only in swaps.csv (a researcher found a refusal silent)
            e.println("swap: run " + run + " refused " + c.slot().id() + " -> " + c.entry().id() + " at " + done.simTimePs() / 1000 + " ns: "
                    + done.outcome() + "; it keeps " + done.from());
            return Commands.ERROR;
        }
        // a swap that reached nothing says so here too (a trial read only swaps.csv's state for "so nothing changed")
        String inert = done.state() != null && (done.state().contains("nothing changed") || done.state().contains("keep the scheduler"))
                ? " (" + done.state().substring(done.state().lastIndexOf("; ") + 2) + ")" : "";
        o.println("run " + run + ": " + c.slot().id() + " -> " + done.toWithParams() + " at " + done.simTimePs() / 1000 + " ns" + inert);
        return Commands.OK;
    }

    /**
     * The runs in progress; with none yet while this container's study has not ended (a script's {@code sim:swap SLOT
     * POLICY} right after {@code sim:run}, its run still being set up), those once one starts simulating, waited for up to
     * {@link #START_WAIT_MS} as a swap naming its run is (a plugin author's script was told "no run in progress" and its
     * study ran without the swap).
     */
    private java.util.Set<String> runningOnceOneStarts() {
        var study = ctx.kernel().current();
        long deadline = System.nanoTime() + START_WAIT_MS * 1_000_000;
        while (LiveSwaps.running().isEmpty() && study != null && study.ended() == null && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return LiveSwaps.running().keySet();
    }

    /** Whether {@code run} is a run of {@code study} waiting for a worker (a swap to it was refused as if it did not exist, a trial). */
    private static boolean queued(org.hmsim.platform.kernel.runner.StudyExecution study, String run) {
        if (study == null) return false;
        for (var r : study.study().runs())
            if (r.id().equals(run)) return study.state(r.index()) == org.hmsim.platform.kernel.runner.RunState.PENDING;
        return false;
    }

    /** How long a swap waits for a run of the running study that is still being set up (or queued) to start simulating. */
    private static final long START_WAIT_MS = 10_000;

    /**
     * Submits {@code request} to {@code run}; a run of the study this container runs that has not started simulating
     * yet (its workload and machine being built, right after {@code sim:run}) is waited for, up to {@link #START_WAIT_MS},
     * so that a script can swap right after starting the study (a plugin author's script was refused "not simulating
     * yet" and the shell has no wait command). Any other run is refused at once, as before.
     */
    private boolean submitOnceSetUp(String run, SwapRequest request) {
        if (LiveSwaps.submit(run, request)) return true;
        var study = ctx.kernel().current();
        var planned = study == null ? null : study.study().runs().stream().filter(r -> r.id().equals(run)).findFirst().orElse(null);
        if (planned == null) return false;
        long deadline = System.nanoTime() + START_WAIT_MS * 1_000_000;
        while (study.ended() == null && System.nanoTime() < deadline) {
            var state = study.state(planned.index());
            if (state != org.hmsim.platform.kernel.runner.RunState.PENDING && state != org.hmsim.platform.kernel.runner.RunState.RUNNING) return false;
            try {
                Thread.sleep(20);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return false;
            }
            if (LiveSwaps.submit(run, request)) return true;
        }
        return false;
    }

    /** How long the shell waits to say how a swap went: a run reaches its next epoch end within it, usually. */
    private static final long AWAIT_MS = 3_000;

    /** The record of {@code request}, once the run has carried it out or refused it; null if not within the wait (or the run ended). */
    private static org.hmsim.platform.machine.SwapRecord awaitRecord(org.hmsim.platform.machine.SwapControl control, SwapRequest request) {
        if (control == null) return null;
        long deadline = System.nanoTime() + AWAIT_MS * 1_000_000;
        while (System.nanoTime() < deadline) {
            org.hmsim.platform.machine.SwapRecord r = control.recordOf(request);
            if (r != null) return r;
            if (control.finished()) return null;
            try {
                Thread.sleep(20);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }
}
