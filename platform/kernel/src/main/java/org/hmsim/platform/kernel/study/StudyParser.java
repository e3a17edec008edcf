package org.hmsim.platform.kernel.study;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.hmsim.platform.kernel.registry.WorkloadRegistry;
import org.hmsim.platform.machine.MachineConfig;

/**
 * Reads a study file (docs/study-files.md) and validates all of it before anything runs (DESIGN §8, §9):
 * machines of every sweep point, overrides, workloads and policies with their parameters. The first
 * problem found is a {@link StudyException} naming file, line, column and field.
 *
 * <p>Runs are machines x workloads x cartesian(sweep entries in file order, then policy sweeps in file
 * order) x seeds, the last dimension varying fastest.
 *
 * <p>Each part of the study is read by its own class: {@link StudyFile} (the document, its values and paths),
 * {@link TopLevelKeys}, {@link MachineSection} (machines and overrides), {@link WorkloadSection}, {@link PolicySection},
 * {@link SweepSection}, {@link SwapSection} and {@link ReportSection}; {@link RunExpansion} lays out the runs, and
 * {@link RunChecks} and {@link BuiltWorkloads} check them. {@link StudyErrors} collects the errors of parts read side
 * by side.
 */
public final class StudyParser {
    /**
     * The most runs one study may have: 100,000 (days of simulation on a cluster). Laying out a run's plan costs a
     * machine-field sweep ~20 KB of heap: 100,000 runs validate in ~10 s in ~2 GB, a million did not finish in 6 GB.
     */
    public static final int MAX_RUNS = 100_000;

    private final PolicyRegistry policies;
    private final WorkloadRegistry workloads;
    private final Function<Map<String, Object>, MachineConfig> machineParser;
    /**
     * A study whose runs began under an earlier version ({@code --resume}, {@code collect}, Slurm tasks): its figures are
     * read as that version accepted them ({@code by} / {@code invert} where they change nothing) and a sweep of an
     * overridden field is let through, rules added since that would lock the folder (found by a review).
     */
    private boolean begun;

    public StudyParser(PolicyRegistry policies, WorkloadRegistry workloads) {
        this(policies, workloads, MachineConfig::parse);
    }

    /** @param machineParser checks a machine tree ({@code MachineConfig::parse}; tests may wrap it) */
    public StudyParser(PolicyRegistry policies, WorkloadRegistry workloads, Function<Map<String, Object>, MachineConfig> machineParser) {
        this.policies = policies;
        this.workloads = workloads;
        this.machineParser = machineParser;
    }

    /** This parser, for a study whose runs began under an earlier version (see {@link #begun}). */
    public StudyParser forBegunStudy() {
        begun = true;
        return this;
    }

    /** Parses and validates {@code file}; {@code display} is how messages name it. */
    public Study parse(Path file) throws StudyException {
        return read(file, file.toString());
    }

    /**
     * Parses a copy of a study as if it were the original named {@code display} (a batch task parses the
     * copy in its results folder; messages and config.json name files as the local run did).
     */
    public Study parse(Path file, String display) throws StudyException {
        return read(file, display);
    }

    /** One parse: each section read in turn, then the runs expanded and checked. */
    private Study read(Path file, String display) throws StudyException {
        StudyFile f = StudyFile.load(file, display);
        // a results folder's study.json given for its study file drew 15 "unknown key" lines (a newcomer's trial)
        if (f.top.containsKey("study_file") && f.top.containsKey("study_sha256"))
            throw new StudyException(display, 1, 1, "study", "this is a results folder's provenance (study.json), not a study file: its study is "
                    + f.scalarText(f.value("study_file"), "study_file"));
        StudyErrors errors = new StudyErrors();
        TopLevelKeys keys = new TopLevelKeys(f);
        MachineSection machines = new MachineSection(f);
        WorkloadSection workloadSection = new WorkloadSection(f, errors, workloads);
        PolicySection policySection = new PolicySection(f, errors, policies);
        SweepSection sweep = new SweepSection(f, machines, policySection, workloadSection, begun);
        List<SweepDim> dims = sweep.dims;
        RunExpansion expansion = new RunExpansion(f, machines, workloadSection, policySection, dims, machineParser);
        // Independent parts are all checked, so one validate reports every error they hold; a part that
        // depends on another (overrides on machines, the sweep on machines and policies) waits for it.
        keys.refuseUnknown(errors.errors);

        String name = errors.check(keys::studyName);
        List<Long> seeds = errors.check(keys::seeds);
        Long epoch = errors.check(() -> keys.time("epoch", TopLevelKeys.DEFAULT_EPOCH_PS, TopLevelKeys.MIN_EPOCH_PS, TopLevelKeys.MAX_EPOCH_PS));
        Long maxTime = errors.check(() -> keys.time("max_time", 0, 1, Long.MAX_VALUE));
        List<String> statistics = errors.check(keys::statistics);
        boolean machinesRead = errors.ok(machines::machines);
        boolean machinesOk = machinesRead && errors.ok(machines::overrides); // a bad override is skipped, the good ones set
        errors.ok(workloadSection::workloadsSection);
        boolean policiesOk = policySection.policiesSection();
        if (machinesOk && policiesOk) errors.ok(sweep::sweepSection);
        if (!errors.errors.isEmpty()) {
            // the machines are otherwise built with the runs; check them now so that their errors come too
            // (with the overrides that could be set: a misspelt pool hid a bad timing field of another override, a trial)
            if (machinesRead) for (MachineTree t : machines.machines) errors.check(() -> expansion.machineAt(t, new int[dims.size()]));
            throw StudyException.of(errors.errors);
        }
        SwapSection swapSection = new SwapSection(f, policySection, policies);
        List<Object> swaps;
        StudyException badSwaps = null;
        try {
            swaps = swapSection.swaps();
        } catch (StudyException e) { // said with the report's mistakes below, which do not depend on the swaps
            badSwaps = e;
            swaps = List.of();
        }
        List<String> sweepColumns = new ArrayList<>();
        for (SweepDim d : dims) if (d.hasColumn()) sweepColumns.add(d.key());
        dims.addAll(policySection.policyDims);
        List<PlannedRun> runs = expansion.expand(seeds);
        if (badSwaps != null) {
            List<StudyException> all = new ArrayList<>(badSwaps.errors());
            try {
                ReportSection.read(f.doc, f.value("report"), sweepColumns, runs, begun, statistics);
            } catch (StudyException badFigures) {
                all.addAll(badFigures.errors());
            }
            throw StudyException.of(all);
        }
        BuiltWorkloads built = new BuiltWorkloads(f);
        RunChecks checks = new RunChecks(f, machines, workloadSection, swapSection, built);
        checks.refuseTwins(runs);
        built.refuseUnbuildable(runs, workloadSection);
        built.refuseUnfitting(runs);
        checks.refuseMixesMachinesCannotRun(runs);
        checks.refuseUnknownParts(runs, swaps);
        built.refuseUnreachedKernels(runs, swaps);
        built.refuseUnfitBlocks(runs);
        List<Object> report = ReportSection.read(f.doc, f.value("report"), sweepColumns, runs, begun, statistics);
        List<String> columns = new ArrayList<>();
        for (SweepDim d : dims) if (d.hasColumn()) columns.add(d.key());
        int points = 1;
        for (SweepDim d : dims) points *= d.size();
        int machineCount = machines.machines.size(), workloadCount = workloadSection.workloadChoices.size();
        String shape = machineCount + " machine" + (machineCount == 1 ? "" : "s") + " x " + workloadCount
                + " workload" + (workloadCount == 1 ? "" : "s") + " x " + points + " sweep point" + (points == 1 ? "" : "s")
                + " x " + seeds.size() + " seed" + (seeds.size() == 1 ? "" : "s") + " = " + runs.size() + " run" + (runs.size() == 1 ? "" : "s");
        return new Study(name, file, display, org.hmsim.platform.kernel.results.Sha256.of(f.bytes), seeds, epoch, maxTime, columns, runs, swaps,
                report, shape, policySection.follow, checks.notes(runs, swaps), statistics);
    }
}
