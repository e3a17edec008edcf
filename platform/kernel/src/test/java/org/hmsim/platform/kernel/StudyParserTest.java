package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.study.PlannedRun;
import org.hmsim.platform.kernel.study.Study;
import org.hmsim.platform.kernel.study.StudyException;
import org.hmsim.platform.kernel.study.StudyParser;
import org.hmsim.platform.machine.ConfigException;
import org.hmsim.platform.machine.MachineConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StudyParserTest {
    @TempDir
    Path dir;
    StudyParser parser;

    @BeforeEach
    void setUp() throws Exception {
        Fakes.write(dir, "machines/small.yaml", Fakes.MACHINE);
        parser = new StudyParser(Fakes.policies(), Fakes.workloads());
    }

    Study parse(String yaml) throws Exception {
        return parser.parse(Fakes.write(dir, "studies/s.yaml", yaml));
    }

    StudyException error(String yaml) throws Exception {
        Path p = Fakes.write(dir, "studies/s.yaml", yaml);
        return assertThrows(StudyException.class, () -> parser.parse(p));
    }

    static final String GOOD = """
            study: quickstart
            seeds: [1, 2]
            machine: ../machines/small.yaml
            overrides: { gpu.sms: 8, pools.ddr.channels: 4 }
            workloads: [stream, {name: bfs, nodes: 4096}]
            policies:
              placement: ratio
              replacement: random
            sweep:
              pools.ddr.bandwidth: [40GB/s, 80GB/s]
              policies.placement.fast_percent: [10, 20, 30]
            epoch: 20us
            max_time: 5ms
            swaps:
              - {at: kernel 2, slot: placement, to: interleave}
            report: [{metric: sim_time_ns}]
            """;

    /** A machine error that only one point of a sweep raises names that point: the machine file's line is the same for all. */
    @Test
    void aMachineErrorOnlyASweepPointRaisesNamesThePoint() throws Exception {
        StudyException e = error("study: two\nmachine: ../machines/small.yaml\nworkloads: [stream]\nsweep:\n  gpus: [1, 2]\n");
        assertTrue(e.getMessage().contains("(at the sweep point gpus = 2 (line 5) of "), e.getMessage());
        // a swept value that is itself wrong is pointed at where it is written, with no point appended
        StudyException v = error("study: two\nmachine: ../machines/small.yaml\nworkloads: [stream]\nsweep:\n  gpu.sms: [4, 0]\n");
        assertTrue(v.getMessage().contains("sweep.gpu.sms"), v.getMessage());
        assertTrue(!v.getMessage().contains("at the sweep point"), v.getMessage());
    }

    /** A sweep over seeds points to seeds: (a trial's sweep: {seed: [3, 4]} was an unknown machine field, said once per value). */
    @Test
    void aSweepOverSeedsPointsToSeeds() throws Exception {
        StudyException e = error("study: sd\nmachine: ../machines/small.yaml\nworkloads: [stream]\nsweep:\n  seed: [3, 4]\n");
        assertEquals(1, e.errors().size(), e.getMessage());
        assertTrue(e.getMessage().contains(":5:3: sweep.seed: seeds are not swept here: give them at the top level, seeds: [3, 4]"), e.getMessage());
    }

    /**
     * A DRAM trial's five mistakes took five validate rounds, each said "at the sweep point clock = 1215" though every
     * point had it: every override's error in one validate, and an error every point has names none.
     */
    @Test
    void everyOverrideErrorIsSaidOnceAndOneEveryPointHasNamesNoPoint() throws Exception {
        StudyException e = error("study: ov\nmachine: ../machines/small.yaml\nworkloads: [stream]\n"
                + "overrides: {pools.hmb.clock: 1000, pools.0.timing.tcl: 3}\nsweep:\n  pools.0.clock: [1215, 1300]\n");
        assertTrue(e.getMessage().contains("overrides.pools.hmb.clock: no such machine field") && e.getMessage().contains("overrides.pools.0.timing.tcl: unknown field"),
                "both override errors in one validate: " + e.getMessage());
        StudyException everywhere = error("study: ov\nmachine: ../machines/small.yaml\nworkloads: [stream]\n"
                + "overrides: {pools.0.timing.rcd: -1, pools.0.banks: 17.5}\nsweep:\n  pools.0.clock: [1215, 1300]\n");
        assertEquals(2, everywhere.errors().size(), everywhere.getMessage());
        assertTrue(!everywhere.getMessage().contains("at the sweep point"), everywhere.getMessage());
    }

    /** An override may lead through a group the machine file leaves out (its fields take their defaults); a misspelt group is refused. */
    @Test
    void anOverrideMayCreateAGroupTheMachineFileLeavesOut() throws Exception {
        String head = "study: g\nmachine: ../machines/small.yaml\nworkloads: [stream]\n";
        Fakes.write(dir, "machines/nolinks.yaml", "name: nolinks\ngpus: 1\npools:\n  - { name: gddr, node: gpu0 }\n");
        Study s = parse(head + "overrides: {pools.gddr.timing.rfc: 300, pools.gddr.timing.refi: 12000}\n");
        assertEquals(300, s.runs().get(0).machine().config().pools().get(0).timing().tRFC());
        StudyException e = error(head + "overrides: {pools.gddr.timinng.rfc: 300}\n");
        assertTrue(e.getMessage().contains("overrides.pools.gddr.timinng") && e.getMessage().contains("timinng"), e.getMessage());
        // a top-level section is not made up: cpu: and uvm: turn a model on by being there
        StudyException cpu = error(head + "sweep:\n  cpu.cores: [1, 2]\n");
        assertTrue(cpu.getMessage().contains("no such machine field: the machine has no 'cpu'"), cpu.getMessage());
        // ... but given whole they are: an empty one adds the model with its defaults, as in a machine file (refused as
        // "has no value" until a docs audit); into a machine that has one, it would merge nothing
        Study uvm = parse(head + "overrides: {uvm: {}}\n");
        assertTrue(uvm.runs().get(0).machine().config().uvm() != null, "uvm: {} adds demand paging");
        assertEquals(2, parse(head + "overrides: {cpu: {}}\n").runs().get(0).machine().config().cpu().cores());
        Fakes.write(dir, "machines/paged.yaml", Fakes.MACHINE + "uvm: {oversubscription: 0.5}\n");
        StudyException twice = error("study: g\nmachine: ../machines/paged.yaml\nworkloads: [stream]\noverrides: {uvm: {}}\n");
        assertEquals("overrides.uvm", twice.field());
        assertTrue(twice.reason().contains("has a uvm: section already"), twice.reason());
        // other sections a machine file may leave out take their defaults and may be made (energy: is in no example)
        assertEquals(2, parse(head + "sweep:\n  energy.l1_access_pj: [1, 2]\n").runs().size());
        // a list section is not made up either: its elements are addressed, not created
        StudyException links = error("study: g\nmachine: ../machines/nolinks.yaml\nworkloads: [stream]\noverrides: {links.0.bandwidth: 8GB/s}\n");
        assertTrue(links.getMessage().contains("the machine has no 'links'"), links.getMessage());
    }

    /** follow: inside a policy sweep says so (it was told its name was missing). */
    @Test
    void followInsideAPolicySweepIsRefusedAsSuch() throws Exception {
        for (String item : new String[] {"{follow: highest-ranked}", "{follow: highest-ranked, name: ratio}"}) {
            StudyException e = error("study: f\nmachine: ../machines/small.yaml\nworkloads: [stream]\npolicies:\n  placement: {sweep: [local, " + item + "]}\n");
            assertTrue(e.getMessage().contains("policies.placement.sweep[1].follow: follow is not allowed inside a policy sweep"), e.getMessage());
        }
    }

    /**
     * A figure's metric is checked against the metrics runs.csv can hold, at validation: a misspelt one came out after the
     * runs as a warning and an empty figure. Pool and link names, patterns and swept columns are accepted; a time series
     * draws statistics, which are not checked here.
     */
    @Test
    void aFiguresMetricMustBeOneRunsCsvCanHold() throws Exception {
        StudyException e = error(GOOD.replace("report: [{metric: sim_time_ns}]", "report: [{metric: sim_tme_ns}]"));
        assertTrue(e.getMessage().contains("report[0].metric: 'sim_tme_ns' is not a metric of runs.csv (did you mean sim_time_ns?"), e.getMessage());
        StudyException list = error(GOOD.replace("report: [{metric: sim_time_ns}]", "report: [{kind: stacked, metrics: [pool.gddr.bytes, pool.*.byte]}]"));
        assertTrue(list.getMessage().contains("report[0].metrics: 'pool.*.byte' is not a metric of runs.csv (did you mean pool.<p>.bytes?"), list.getMessage());
        for (String ok : new String[] {"{metric: pool.gddr.bandwidth_gbps}", "{metric: 'pool.*.bytes'}", "{metric: bandwidth}",
                "{kind: timeseries, metrics: [uvm.resident_pages]}"})
            parse(GOOD.replace("report: [{metric: sim_time_ns}]", "report: [" + ok + "]"));
    }

    /**
     * A policy or parameter both set under policies: and swept would never be simulated with the value policies: gives
     * (the sweep's replace it in every run): refused, as for a machine field overridden and swept.
     */
    @Test
    void aSweptPolicyOrParameterThatPoliciesSetsTooIsRefused() throws Exception {
        String study = "study: x\nmachine: ../machines/small.yaml\nworkloads: [stream]\npolicies:\n  replacement: %s\nsweep:\n  %s\n";
        StudyException choice = error(String.format(study, "{name: tagged, tag: \"7\"}", "policies.replacement: [tagged, lru]"));
        assertTrue(choice.getMessage().contains("sweep.policies.replacement: the replacement policy is also set by policies.replacement, which no run would keep"),
                choice.getMessage());
        StudyException param = error(String.format(study, "{name: tagged, tag: \"7\"}", "policies.replacement.tag: [\"8\", \"9\"]"));
        assertTrue(param.getMessage().contains("sweep.policies.replacement.tag: sets the same parameter as policies.replacement.tag, whose value no run would keep"),
                param.getMessage());
        StudyException inSweep = error(String.format(study, "{sweep: [{name: tagged, tag: \"7\"}, {name: tagged, tag: \"5\"}]}", "policies.replacement.tag: [\"8\"]"));
        assertTrue(inSweep.getMessage().contains("sets the same parameter as policies.replacement.sweep[0].tag"), inSweep.getMessage());
        assertEquals(2, parse(String.format(study, "tagged", "policies.replacement.tag: [\"8\", \"9\"]")).runs().size());
    }

    /** A workload whose model refuses its parameters only as it builds is refused at validation, at its entry. */
    @Test
    void aWorkloadThatCannotBeBuiltIsRefusedAtItsEntry() throws Exception {
        StudyException e = error("study: x\nmachine: ../machines/small.yaml\nworkloads:\n  - stream\n  - {name: blocks, threads: 48}\n");
        assertTrue(e.getMessage().contains("s.yaml:5:5: workloads[1]: blocks(threads=48) cannot be built: threads must be whole warps (a multiple of 32), not 48;"
                + " every run of it would fail"), e.getMessage());
        parse("study: x\nmachine: ../machines/small.yaml\nworkloads:\n  - stream\n  - {name: blocks, threads: 64}\n");
    }

    /** Figure keys the report would draw nothing for are refused: a geomean without a baseline, runs a where: leaves out. */
    @Test
    void figureKeysThatWouldDrawNothingAreRefused() throws Exception {
        StudyException g = error(GOOD.replace("report: [{metric: sim_time_ns}]", "report: [{metric: sim_time_ns, geomean: true}]"));
        assertTrue(g.getMessage().contains("report[0].geomean: a geometric-mean group is drawn over values normalised to a baseline: give normalise_to"),
                g.getMessage());
        StudyException t = error(GOOD.replace("report: [{metric: sim_time_ns}]", "report: [{kind: timeseries, where: {workload: bfs}, runs: [\"0001\"]}]"));
        assertTrue(t.getMessage().contains("report[0].runs: run 0001 (stream") && t.getMessage().contains("is left out by this figure's where:"), t.getMessage());
        parse(GOOD.replace("report: [{metric: sim_time_ns}]", "report: [{kind: timeseries, where: {workload: stream}, runs: [\"0001\"]}]"));
    }

    /** A line figure's x must hold numbers (with or without a unit): words would be drawn as one point labelled by them. */
    @Test
    void aLineFiguresXHoldsNumbers() throws Exception {
        parse(GOOD.replace("report: [{metric: sim_time_ns}]", "report: [{metric: sim_time_ns, x: bandwidth}]"));
        StudyException e = error(GOOD.replace("report: [{metric: sim_time_ns}]", "report: [{metric: sim_time_ns, x: workload}]"));
        assertTrue(e.getMessage().contains("report[0].x: 'workload' holds values that are not numbers (stream, bfs(nodes=4096)): a line figure's x axis "
                + "needs numbers; to compare these, use by: workload"), e.getMessage());
        // only the runs the figure draws count: a where: that keeps numbers only is fine, one that keeps a word is not
        String mixed = "study: x\nmachine: ../machines/small.yaml\nworkloads: [stream]\npolicies:\n  replacement: tagged\nsweep:\n"
                + "  policies.replacement.tag: [\"7\", \"9\", weights]\nreport:\n  - {metric: sim_time_ns, x: tag, where: {tag: %s}}\n";
        StudyException words = error(String.format(mixed, "[\"7\", weights]"));
        assertTrue(words.getMessage().contains("report[0].x: 'tag' holds values that are not numbers (weights)"), words.getMessage());
        assertEquals(3, parse(String.format(mixed, "[\"7\", \"9\"]")).runs().size());
        // the baseline's runs are drawn too (normalise_to's value on its column): a word there is refused as well
        StudyException base = error(String.format(mixed, "[\"7\", \"9\"]").replace("where:", "normalise_to: {tag: weights}, where:"));
        assertTrue(base.getMessage().contains("report[0].x: 'tag' holds values that are not numbers (weights)"), base.getMessage());
    }

    /** by on a line figure and invert on one not normalised changed nothing, without a word; refused at their key. */
    @Test
    void byAndInvertAFigureIgnoresAreRefusedAtTheirKey() throws Exception {
        StudyException by = error(GOOD.replace("report: [{metric: sim_time_ns}]", "report:\n  - {metric: sim_time_ns, x: bandwidth, by: placement}"));
        assertEquals(dir.resolve("studies/s.yaml") + ":17:45: report[0].by: a line figure has no by: it draws one line per combination "
                + "of the other varied columns (where: picks them)", by.getMessage());
        StudyException invert = error(GOOD.replace("report: [{metric: sim_time_ns}]", "report:\n  - {metric: sim_time_ns}\n  - {metric: ipc, invert: true}"));
        assertEquals("report[1].invert", invert.field());
        assertTrue(invert.getMessage().contains(":18:27: "), invert.getMessage());
    }

    /** A sweep whose product is beyond 100,000 runs is refused, fast, before any run is laid out (it used to fill the heap). */
    @Test
    void aStudyOfMoreThanAMillionRunsIsRefused() throws Exception {
        StringBuilder bw = new StringBuilder(), pct = new StringBuilder();
        for (int i = 1; i <= 300; i++) bw.append(i == 1 ? "" : ", ").append(i).append("GB/s");
        for (int i = 0; i <= 100; i++) pct.append(i == 0 ? "" : ", ").append(i);
        StudyException e = error(GOOD.replace("pools.ddr.bandwidth: [40GB/s, 80GB/s]", "pools.ddr.bandwidth: [" + bw + "]\n  pools.gddr.bandwidth: [" + bw + "]")
                .replace("policies.placement.fast_percent: [10, 20, 30]", "policies.placement.fast_percent: [" + pct + "]"));
        assertTrue(e.getMessage().contains("sweep: 36360000 runs (1 machine(s) x 2 workload(s) x 300 (pools.ddr.bandwidth) x 300 (pools.gddr.bandwidth) x 101 "
                + "(policies.placement.fast_percent) x 2 seed(s)): at most 100000 runs are allowed in one study"), e.getMessage());
    }

    /** A whole-number parameter written as a float (YAML reads 1e3 as 1000.0) is labelled as its value; a real one as written. */
    @Test
    void aWholeNumberWrittenAsAFloatIsLabelledAsItsValue() throws Exception {
        Study s = parse(GOOD.replace("{name: bfs, nodes: 4096}", "{name: bfs, nodes: 4.096e3}")
                .replace("policies.placement.fast_percent: [10, 20, 30]", "policies.placement.fast_percent: [1e1, 20, 30]"));
        PlannedRun bfs = s.runs().stream().filter(r -> r.workload().label().startsWith("bfs")).findFirst().orElseThrow();
        assertEquals("bfs(nodes=4096)", bfs.workload().label());
        assertEquals("ratio(fast_percent=10)", s.runs().get(0).policies().get(Slot.PLACEMENT).label());
    }

    @Test
    void goodStudyIsFullyResolved() throws Exception {
        Study s = parse(GOOD);
        assertEquals("quickstart", s.name());
        assertEquals(List.of(1L, 2L), s.seeds());
        assertEquals(20_000_000L, s.epochPs());
        assertEquals(5_000_000_000L, s.maxTimePs());
        assertEquals(List.of("pools.ddr.bandwidth", "policies.placement.fast_percent"), s.sweepColumns());
        assertEquals(1 * 2 * (2 * 3) * 2, s.runs().size());
        assertEquals(1, s.swaps().size());
        assertEquals(1, s.report().size());

        PlannedRun first = s.runs().get(0);
        assertEquals("0001", first.id());
        assertEquals("stream", first.workload().label());
        assertEquals("small", first.machine().label());
        assertEquals("ratio(fast_percent=10)", first.policies().get(Slot.PLACEMENT).label());
        assertEquals(10, first.policies().get(Slot.PLACEMENT).params().getInt("fast_percent"));
        assertEquals("random", first.policies().get(Slot.REPLACEMENT).label());
        assertEquals("gto", first.policies().get(Slot.WARP_SCHEDULER).label());
        assertEquals(Map.of("pools.ddr.bandwidth", "40GB/s", "policies.placement.fast_percent", "10"), first.sweepValues());
        assertEquals(1L, first.seed());
        assertEquals("stream pools.ddr.bandwidth=40GB/s placement.fast_percent=10 seed=1", first.label());

        @SuppressWarnings("unchecked")
        Map<String, Object> gpu = (Map<String, Object>) first.machine().tree().get("gpu");
        assertEquals(8, gpu.get("sms"), "override applied");
        @SuppressWarnings("unchecked")
        Map<String, Object> ddr = (Map<String, Object>) ((List<Object>) first.machine().tree().get("pools")).get(1);
        assertEquals("40GB/s", ddr.get("bandwidth"));
        assertEquals(4, ddr.get("channels"));

        PlannedRun last = s.runs().get(s.runs().size() - 1);
        assertEquals("0024", last.id());
        assertEquals("bfs(nodes=4096)", last.workload().label());
        assertEquals(4096, last.workload().params().getInt("nodes"));
        assertEquals("80GB/s", last.sweepValues().get("pools.ddr.bandwidth"));
        assertEquals("30", last.sweepValues().get("policies.placement.fast_percent"));
        assertEquals(2L, last.seed());
    }

    @Test
    void aFigureNamingAValueNoRunHasIsRefusedBeforeAnythingRuns() throws Exception {
        String head = """
                study: fig
                machine: ../machines/small.yaml
                workloads: [stream, {name: bfs, nodes: 4096}]
                policies:
                  placement: {sweep: [local, {name: ratio, fast_percent: 70}]}
                sweep:
                  pools.ddr.bandwidth: [40GB/s, 80GB/s]
                report:
                """;
        StudyException typo = error(head + "  - {metric: sim_time_ns, normalise_to: {placement: lcoal}}\n");
        assertTrue(typo.getMessage().contains("report[0].normalise_to.placement: no run of this study has placement 'lcoal' "
                + "(its values: local, ratio(fast_percent=70))"), typo.getMessage());
        StudyException where = error(head + "  - {metric: sim_time_ns, where: {bandwidth: [40GB/s, 60GB/s]}}\n");
        assertTrue(where.getMessage().contains("report[0].where.bandwidth: no run of this study has bandwidth '60GB/s' (its values: 40GB/s, 80GB/s)"),
                where.getMessage());
        StudyException workload = error(head + "  - {metric: sim_time_ns, where: {workload: sgemm}}\n");
        assertTrue(workload.getMessage().contains("no run of this study has workload 'sgemm' (its values: stream, bfs(nodes=4096))"), workload.getMessage());
        // what the report itself accepts passes: a policy by name, a number in another spelling, an exact label
        Study ok = parse(head + "  - {metric: sim_time_ns, normalise_to: {placement: ratio}, where: {bandwidth: 40GB/s, workload: 'bfs(nodes=4096)'}}\n"
                + "  - {metric: sim_time_ns, normalize_to: {pools.ddr.bandwidth: 80 GB/s}}\n"); // a unit spelt with a space (a review)
        assertEquals(2, ok.report().size());
    }

    @Test
    void aWorkloadPolicyOrValueListedTwiceIsRefused() throws Exception {
        String head = "study: twice\nmachine: ../machines/small.yaml\n";
        StudyException w = error(head + "workloads: [stream, {name: bfs, nodes: 4096}, {name: bfs, nodes: 4096}]\n");
        assertTrue(w.getMessage().contains("workloads[2]: 'bfs(nodes=4096)' is listed twice (also workloads[1])"), w.getMessage());
        // a workload file named as a built-in: not the same workload twice, but the same label
        Fakes.write(dir, "workloads/stream.yaml", java.nio.file.Files.readString(org.hmsim.platform.machine.Presets.examples()
                .resolve("workloads/saxpy.yaml")).replaceFirst("(?m)^name: .*$", "name: stream"));
        StudyException named = error(head + "workloads: [stream, {file: ../workloads/stream.yaml}]\n");
        assertTrue(named.getMessage().contains("workloads[1]: two different workloads are named 'stream' (also workloads[0])"), named.getMessage());
        StudyException p = error(head + "workloads: [stream]\npolicies:\n  placement: {sweep: [local, {name: ratio, fast_percent: 70}, {name: ratio, fast_percent: 70}]}\n");
        assertTrue(p.getMessage().contains("policies.placement.sweep[2]: this policy is listed twice (also policies.placement.sweep[1])"), p.getMessage());
        StudyException v = error(head + "workloads: [stream]\nsweep:\n  pools.ddr.bandwidth: [40GB/s, 80GB/s, 40GB/s]\n");
        assertTrue(v.getMessage().contains("sweep.pools.ddr.bandwidth[2]: this value is listed twice (also sweep.pools.ddr.bandwidth[0])"), v.getMessage());
        // the same value spelt two ways is the same run too: found once every value is read
        for (String twice : new String[] {"sweep:\n  gpu.sms: [4, \"4\"]\n", "sweep:\n  pools.ddr.bandwidth: [40GB/s, 40000MB/s]\n",
                "policies:\n  placement: {sweep: [ratio, {name: ratio, fast_percent: 50}]}\n"}) {
            StudyException t = error(head + "workloads: [stream]\n" + twice);
            assertTrue(t.getMessage().contains("runs 0001 (") && t.getMessage().contains("are the same simulation: a value is listed twice, spelt two ways"),
                    twice + " -> " + t.getMessage());
        }
        // a workload beyond the machine's pools (no demand paging): every run would fail as it starts
        StudyException big = error(head + "workloads: [{name: stream, size: 4GB}]\noverrides: {pools.ddr.capacity: 1GB}\n");
        assertTrue(big.getMessage().contains("more than machine small's pools hold"), big.getMessage());
        // a provider's own check runs once a sweep has completed the policy's parameters, each value at its place
        assertEquals(2, parse(head + "workloads: [stream]\npolicies:\n  placement: paired\nsweep:\n  policies.placement.pairs: [\"a=1\", \"b=2,c=3\"]\n").runs().size());
        StudyException pair = error(head + "workloads: [stream]\npolicies:\n  placement: paired\nsweep:\n  policies.placement.pairs: [\"a=1\", \"b\"]\n");
        assertTrue(pair.getMessage().contains("sweep.policies.placement.pairs: 'b' is not name=value"), pair.getMessage());
        // a machine field left empty (it took hmsim's built-in default, not the machine file's)
        StudyException empty = error(head + "workloads: [stream]\noverrides:\n  gpu.sms:\n");
        assertTrue(empty.getMessage().contains("overrides.gpu.sms: has no value"), empty.getMessage());
        StudyException emptySweep = error(head + "workloads: [stream]\nsweep:\n  gpu.sms: [4, ~]\n");
        assertTrue(emptySweep.getMessage().contains("sweep.gpu.sms[1]: has no value"), emptySweep.getMessage());
        StudyException nested = error(head + "workloads: [stream]\noverrides: {gpu: {sms: ~}}\n");
        assertTrue(nested.getMessage().contains("overrides.gpu.sms: has no value"), nested.getMessage());
        // a parameter naming a pool the machine does not have: every run would fail
        assertEquals(1, parse(head + "workloads: [stream]\npolicies:\n  placement: {name: pinned, pool: ddr}\n").runs().size());
        StudyException pool = error(head + "workloads: [stream]\npolicies:\n  placement: {name: pinned, pool: hbm}\n");
        // two slots' refusals in one validate (a compression trial saw the second only after fixing the first)
        StudyException two = error(head + "workloads: [{name: stream, size: 4096}]\npolicies:\n  placement: {name: pinned, pool: hbm}\n  replacement: {name: by-allocation, alloc: b}\n");
        assertEquals(List.of("policies.placement.pool", "policies.replacement.alloc"), two.errors().stream().map(StudyException::field).toList(), two.getMessage());
        // at the parameter the provider's message names (it was at the slot, found by a researcher's trial)
        assertTrue(pool.getMessage().contains("s.yaml:5:35: policies.placement.pool: pinned(pool=hbm) on machine small with workload stream: parameter 'pool': no pool 'hbm'"), pool.getMessage());
        StudyException swapPool = error(head + "workloads: [stream]\nswaps: [{at: kernel 1, slot: placement, to: {name: pinned, pool: hbm}}]\n");
        // at its own entry's to (it was at the list's first line, found by a trial)
        assertTrue(swapPool.getMessage().contains("s.yaml:4:45: swaps[0].to: placement -> pinned(pool=hbm) on machine small with workload stream: parameter 'pool': no pool 'hbm'"), swapPool.getMessage());
        // a parameter naming an allocation the workload does not make (api.policy 1.8.0: the run's facts)
        assertEquals(1, parse(head + "workloads: [{name: stream, size: 4096}]\npolicies:\n  replacement: {name: by-allocation, alloc: a}\n").runs().size());
        StudyException alloc = error(head + "workloads: [{name: stream, size: 4096}]\npolicies:\n  replacement: {name: by-allocation, alloc: b}\n");
        assertTrue(alloc.getMessage().contains("policies.replacement.alloc: by-allocation(alloc=b) on machine small with workload stream(size=4096): "
                + "parameter 'alloc': no allocation 'b' (page 4096 B)"), alloc.getMessage());
        // a thread block larger than the SM never starts: every run failed as its kernel launched
        assertEquals(1, parse(head + "workloads: [{name: blocks, threads: 1024}]\n").runs().size());
        StudyException wide = error(head + "workloads: [{name: blocks, threads: 4096}]\n");
        assertTrue(wide.getMessage().contains("workloads: blocks(threads=4096): a thread block of kernel k0 (128 warps, 0 B shared) never fits an SM of machine small"),
                wide.getMessage());
        // a swap before a kernel the workload never launches would never fire
        assertEquals(1, parse(head + "workloads: [stream]\nswaps: [{at: kernel 3, slot: placement, to: ratio}]\n").runs().size());
        StudyException unreached = error(head + "workloads: [stream]\nswaps: [{at: kernel 4, slot: placement, to: ratio}]\n");
        assertTrue(unreached.getMessage().contains("swaps[0].at: 'kernel 4' is never reached: workload stream launches 4 kernels with seed 1 (0-based indices 0 to 3; the count may depend on the seed)"),
                unreached.getMessage());
        // at its own entry's at, not the first swap's line (a trial); its target's mistake in the same validate
        StudyException second = error(head + "workloads: [stream]\nswaps:\n  - {at: kernel 1, slot: placement, to: ratio}\n  - {at: kernel 9, slot: placement, to: ratio}\n");
        assertTrue(second.getMessage().contains("s.yaml:6:10: swaps[1].at: 'kernel 9' is never reached"), second.getMessage());
        StudyException both = error(head + "workloads: [stream]\nswaps:\n  - {at: 5 parsecs, slot: placement, to: {name: ratio, fast_percent: 300}}\n");
        assertEquals(List.of("swaps[0].at", "swaps[0].to.fast_percent"), both.errors().stream().map(StudyException::field).toList(), both.getMessage());
        // a time series of a run the study does not have (it showed only as a warning in the report)
        StudyException ts = error(head + "workloads: [stream]\nreport:\n  - {kind: timeseries, runs: [\"0001\", \"9999\"]}\n");
        assertTrue(ts.getMessage().contains("report[0].runs: '9999' is not a run of this study (runs 0001 to 0001)"), ts.getMessage());
        assertEquals(1, parse(head + "workloads: [stream]\nreport:\n  - {kind: timeseries, runs: [1, 0001]}\n").runs().size(), "a number matches as the report does");
        // different parameters, or a bfs of another size, are different runs
        assertEquals(4, parse(head + "workloads: [{name: bfs, nodes: 4096}, {name: bfs, nodes: 8192}]\n"
                + "policies:\n  placement: {sweep: [{name: ratio, fast_percent: 70}, {name: ratio, fast_percent: 30}]}\n").runs().size());
    }

    @Test
    void aSweptListValueLabelsItsRunsInFlowStyle() throws Exception {
        Study s = parse("""
                study: links
                machine: ../machines/small.yaml
                workloads: [stream]
                sweep:
                  links:
                    - [{between: [gpu0, cpu], latency_cycles: 100, bandwidth: 16GB/s}]
                    - [{between: [gpu0, cpu], latency_cycles: 100, bandwidth: 256GB/s}]
                """);
        assertEquals(List.of("stream links=[{between: [gpu0, cpu], latency_cycles: 100, bandwidth: 16GB/s}]",
                "stream links=[{between: [gpu0, cpu], latency_cycles: 100, bandwidth: 256GB/s}]"),
                s.runs().stream().map(PlannedRun::label).toList());
    }

    @Test
    void aStarSegmentSetsEveryElementOfAList() throws Exception {
        Study s = parse("""
                study: pools
                machine: ../machines/small.yaml
                workloads: [stream]
                sweep:
                  pools.*.bandwidth: [16GB/s, 256GB/s]
                """);
        assertEquals(List.of("stream pools.*.bandwidth=16GB/s", "stream pools.*.bandwidth=256GB/s"),
                s.runs().stream().map(PlannedRun::label).toList());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> pools = (List<Map<String, Object>>) s.runs().get(1).machine().tree().get("pools");
        assertEquals(2, pools.size());
        for (Map<String, Object> p : pools) assertEquals("256GB/s", p.get("bandwidth"));
        StudyException e = error("""
                study: bad
                machine: ../machines/small.yaml
                workloads: [stream]
                sweep:
                  gpu.*.sms: [1, 2]
                """);
        assertTrue(e.getMessage().contains("'*'"), e.getMessage());
    }

    @Test
    void oneMachineFieldSweptUnderTwoSpellingsIsRejected() throws Exception {
        // Before: the later key's value was the one simulated while the run was labelled with both.
        StudyException byName = error("""
                study: bad
                machine: ../machines/small.yaml
                workloads: [stream]
                sweep:
                  pools.ddr.bandwidth: [40GB/s]
                  pools.1.bandwidth: [80GB/s]
                """);
        assertEquals("sweep.pools.1.bandwidth", byName.field());
        assertTrue(byName.getMessage().contains("same machine field as sweep.pools.ddr.bandwidth (pools.1.bandwidth)"), byName.getMessage());
        StudyException prefix = error("""
                study: bad
                machine: ../machines/small.yaml
                workloads: [stream]
                sweep:
                  gpu.sms: [4]
                  machine.gpu.sms: [8]
                """);
        assertEquals("sweep.machine.gpu.sms", prefix.field());
        StudyException star = error("""
                study: bad
                machine: ../machines/small.yaml
                workloads: [stream]
                sweep:
                  pools.*.bandwidth: [16GB/s]
                  pools.ddr: [{name: ddr, kind: DDR4, node: cpu, channels: 2, bandwidth: 40GB/s, capacity: 4GB}]
                """);
        assertEquals("sweep.pools.ddr", star.field());
        // different fields of one element, and the same field of different elements, stay allowed
        assertEquals(4, parse("""
                study: ok
                machine: ../machines/small.yaml
                workloads: [stream]
                sweep:
                  pools.0.bandwidth: [16GB/s, 32GB/s]
                  pools.ddr.bandwidth: [40GB/s, 80GB/s]
                """).runs().size());
    }

    /** Before: the later of two override keys that reach one field was simulated, and nothing said the other was dropped. */
    @Test
    void twoOverrideKeysReachingOneFieldAreRefused() throws Exception {
        String head = "study: o\nmachine: ../machines/small.yaml\nworkloads: [stream]\noverrides:\n";
        StudyException byName = error(head + "  pools.ddr.bandwidth: 40GB/s\n  pools.1.bandwidth: 80GB/s\n");
        assertEquals(dir.resolve("studies/s.yaml") + ":6:3: overrides.pools.1.bandwidth: sets the same machine field as "
                + "overrides.pools.ddr.bandwidth (line 5) (pools.1.bandwidth); give each field once", byName.getMessage());
        StudyException merged = error(head + "  gpu: {sms: 4}\n  gpu.sms: 8\n");
        assertEquals("overrides.gpu.sms", merged.field());
        assertTrue(merged.getMessage().contains("as overrides.gpu (line 5) (gpu.sms)"), merged.getMessage());
        StudyException star = error(head + "  links.*.bandwidth: 16GB/s\n  links.0: {between: [gpu0, cpu], latency_cycles: 100, bandwidth: 64GB/s}\n");
        assertEquals("overrides.links.0", star.field());
        // different fields of one group, given as a mapping and as a dotted key, in either order, stay allowed
        assertEquals(1, parse(head + "  gpu: {clock: 1GHz}\n  gpu.sms: 8\n  pools.0.bandwidth: 50GB/s\n  pools.ddr.bandwidth: 20GB/s\n").runs().size());
        assertEquals(1, parse(head + "  gpu.l2: {size: 256KB}\n  gpu.l2.ways: 4\n").runs().size());
        assertEquals(1, parse(head + "  gpu.l2.ways: 4\n  gpu.l2: {size: 256KB}\n").runs().size());
        // an override a sweep sets too: the sweep's values replaced it in every run, and 20 GB/s was never simulated
        StudyException swept = error(head + "  pools.ddr.bandwidth: 20GB/s\nsweep:\n  pools.1.bandwidth: [10GB/s, 30GB/s]\n");
        assertEquals("sweep.pools.1.bandwidth", swept.field());
        assertTrue(swept.getMessage().contains("sets the same machine field as overrides.pools.ddr.bandwidth (line 5)"), swept.getMessage());
        assertEquals(2, parse(head + "  pools.ddr.bandwidth: 20GB/s\nsweep:\n  pools.0.bandwidth: [10GB/s, 30GB/s]\n").runs().size());
        // a list element given as a mapping merges too (it replaced the pool, which then lacked its name: a review)
        Study merged2 = parse(head + "  pools.ddr: {capacity: 2GB}\n");
        assertEquals(2L << 30, merged2.runs().get(0).machine().config().pools().get(1).capacityBytes());
        assertEquals("ddr", merged2.runs().get(0).machine().config().pools().get(1).name());
        // a mapping sweep merges key by key: it leaves an overridden field of the same group alone (a second review)
        assertEquals(2, parse(head + "  gpu.clock: 1GHz\nsweep:\n  gpu: [{sms: 2}, {sms: 4}]\n").runs().size());
        assertEquals("sweep.gpu", error(head + "  gpu.sms: 8\nsweep:\n  gpu: [{sms: 2}, {sms: 4}]\n").field());
    }

    /**
     * Two runs that are the same simulation because two machine files describe the same machine, or a workload is
     * spelt two ways, were blamed on the sweep: (a line of the study the user had not got wrong; found by a docs audit).
     */
    @Test
    void twinRunsAreRefusedAtTheListThatHoldsTheTwin() throws Exception {
        Fakes.write(dir, "machines/small2.yaml", Fakes.MACHINE);
        String head = "study: twins\nmachines: [../machines/small.yaml, ../machines/small2.yaml]\n";
        StudyException m = error(head + "workloads: [stream]\nsweep:\n  gpu.sms: [2, 4]\n");
        assertEquals("machines[1]", m.field(), m.getMessage());
        assertTrue(m.getMessage().contains("s.yaml:2:") && m.getMessage().contains("describe the same machine"), m.getMessage());
        String one = "study: twins\nmachine: ../machines/small.yaml\n";
        StudyException w = error(one + "workloads: [stream, {name: stream, size: 1MB}]\nsweep:\n  gpu.sms: [2, 4]\n");
        assertEquals("workloads[1]", w.field(), w.getMessage());
        assertTrue(w.getMessage().contains("s.yaml:3:") && w.getMessage().contains("a workload is listed twice, spelt two ways"), w.getMessage());
    }

    /** b is a bit, B a byte: 320Gb/s was simulated as 320 GB/s; a size in bits is refused at the study's line. */
    @Test
    void aBandwidthInBitsIsAnEighthOfOneInBytes() throws Exception {
        String head = "study: bits\nmachine: ../machines/small.yaml\nworkloads: [stream]\n";
        Study s = parse(head + "overrides: {pools.ddr.bandwidth: 320Gb/s}\n");
        assertEquals(40e9, s.runs().get(0).machine().config().pools().get(1).bytesPerSecond());
        StudyException twins = error(head + "sweep:\n  pools.ddr.bandwidth: [40GB/s, 320Gb/s]\n");
        assertTrue(twins.getMessage().contains("are the same simulation"), twins.getMessage());
        StudyException size = error(head + "overrides: {pools.ddr.capacity: 4Gb}\n");
        assertEquals(dir.resolve("studies/s.yaml") + ":4:33: overrides.pools.ddr.capacity: '4Gb' is in bits (b); a size is in bytes (B): write 4GB",
                size.getMessage());
    }

    @Test
    void sweepOrderIsMachinesWorkloadsPointsSeedsLastFastest() throws Exception {
        Study s = parse("""
                study: order
                machines: [../machines/small.yaml, ../machines/other.yaml]
                workloads: [stream, bfs]
                policies:
                  placement: {sweep: [local, interleave, {name: ratio, fast_percent: 30}]}
                sweep:
                  gpu.sms: [2, 4]
                """.replace("other.yaml", "small2.yaml"));
        assertEquals(2 * 2 * 2 * 3, s.runs().size());
        // Sweep entries first, then policy sweeps; the last dimension varies fastest.
        List<String> labels = s.runs().stream().limit(7).map(PlannedRun::label).toList();
        assertEquals(List.of(
                "stream machine=small gpu.sms=2 placement=local",
                "stream machine=small gpu.sms=2 placement=interleave",
                "stream machine=small gpu.sms=2 placement=ratio(fast_percent=30)",
                "stream machine=small gpu.sms=4 placement=local",
                "stream machine=small gpu.sms=4 placement=interleave",
                "stream machine=small gpu.sms=4 placement=ratio(fast_percent=30)",
                "bfs machine=small gpu.sms=2 placement=local"), labels);
        assertEquals("small2", s.runs().get(12).machine().label());
        assertEquals("ratio(fast_percent=30)", s.runs().get(2).policies().get(Slot.PLACEMENT).label());
        assertEquals(List.of("gpu.sms"), s.sweepColumns());
    }

    @BeforeEach
    void secondMachine() throws Exception {
        Fakes.write(dir, "machines/small2.yaml", Fakes.MACHINE.replace("name: small", "name: small2"));
    }

    @Test
    void unknownTopLevelKey() throws Exception {
        StudyException e = error("""
                study: x
                machine: ../machines/small.yaml
                workloads: [stream]
                polices: {placement: local}
                """);
        assertEquals(4, e.line());
        assertEquals(1, e.column());
        assertEquals("polices", e.field());
        assertTrue(e.getMessage().startsWith(dir.resolve("studies/s.yaml") + ":4:1: polices: unknown key 'polices'"), e.getMessage());
    }

    @Test
    void unknownPolicyNameListsTheInstalledOnes() throws Exception {
        StudyException e = error("""
                study: x
                machine: ../machines/small.yaml
                workloads: [stream]
                policies:
                  placement: bw-awair
                """);
        assertEquals(5, e.line());
        assertEquals(14, e.column());
        assertEquals("policies.placement", e.field());
        assertTrue(e.reason().contains("unknown placement policy 'bw-awair'"), e.reason());
        assertTrue(e.reason().contains("explode, interleave, local, paired, pinned, ratio"), e.reason());
    }

    @Test
    void outOfRangeParameterPointsAtTheValue() throws Exception {
        StudyException e = error("""
                study: x
                machine: ../machines/small.yaml
                workloads: [stream]
                policies:
                  placement: {name: ratio, fast_percent: 130}
                """);
        assertEquals(dir.resolve("studies/s.yaml") + ":5:42: policies.placement.fast_percent: value 130 is out of range [0, 100]", e.getMessage());
    }

    @Test
    void wrongTypeOfParameter() throws Exception {
        StudyException e = error("""
                study: x
                machine: ../machines/small.yaml
                workloads: [{name: bfs, nodes: many}]
                """);
        assertEquals(3, e.line());
        assertEquals(32, e.column());
        assertEquals("workloads[0].nodes", e.field());
        assertEquals("value 'many' is not a whole number", e.reason());
    }

    @Test
    void sweptParameterOutOfRangePointsAtTheSweepValue() throws Exception {
        StudyException e = error("""
                study: x
                machine: ../machines/small.yaml
                workloads: [stream]
                policies: {placement: ratio}
                sweep:
                  policies.placement.fast_percent: [10, 200]
                """);
        assertEquals(6, e.line());
        assertEquals(41, e.column());
        assertEquals("sweep.policies.placement.fast_percent", e.field());
    }

    /** Seed 004 §6.5: {mix: [...]} runs its programs side by side, program p on GPU p; each program is checked as any workload. */
    @Test
    void aMixRunsItsProgramsOnAGpuEachAndIsCheckedLikeAnyWorkload() throws Exception {
        String coda = org.hmsim.platform.machine.Presets.examples().resolve("machines/coda.yaml").toString();
        Study s = parse("study: m\nmachine: " + coda + "\nworkloads: [{mix: [stream, {name: bfs, nodes: 4096}], label: pair}, {mix: [stream, stream]}]\n");
        assertEquals(List.of("pair", "mix[stream+stream]"), s.runs().stream().map(r -> r.workload().label()).toList());
        var w = s.runs().get(0).workload().create(1);
        assertTrue(w instanceof org.hmsim.api.workload.Multiprogram mp && mp.programs().size() == 2, "a Multiprogram of two");
        assertTrue(s.runs().get(0).workload().entry().origin().contains("bfs(nodes=4096)"), s.runs().get(0).workload().entry().origin());

        StudyException key = error("study: m\nmachine: " + coda + "\nworkloads: [{mix: [stream], lable: x}]\n");
        assertEquals("workloads[0].lable", key.field(), key.getMessage());
        StudyException nested = error("study: m\nmachine: " + coda + "\nworkloads: [{mix: [stream, {mix: [stream]}]}]\n");
        assertEquals("workloads[0].mix[1]", nested.field(), nested.getMessage());
        StudyException unknown = error("study: m\nmachine: " + coda + "\nworkloads:\n  - {mix: [stream, sgemmm]}\n");
        assertEquals("workloads[0].mix[1]", unknown.field());
        assertEquals(4, unknown.line());
        assertTrue(unknown.reason().startsWith("unknown workload 'sgemmm'"), unknown.reason());
        StudyException five = error("study: m\nmachine: " + coda + "\nworkloads:\n  - stream\n  - {mix: [stream, stream, stream, stream, stream], label: five}\n");
        assertTrue(five.reason().contains("five runs each of its 5 programs on a GPU of its own, and machine coda has 4 GPUs"), five.reason());
        assertEquals("workloads[1]", five.field(), five.getMessage());
        assertEquals(5, five.line(), five.getMessage());
        // brackets forgotten, or a label that is not a name (an audit found both accepted)
        StudyException scalar = error("study: m\nmachine: " + coda + "\nworkloads: [{mix: stream, label: x}]\n");
        assertEquals("workloads[0].mix", scalar.field(), scalar.getMessage());
        StudyException badLabel = error("study: m\nmachine: " + coda + "\nworkloads: [{mix: [stream], label: \"a b\"}]\n");
        assertEquals("workloads[0].label", badLabel.field(), badLabel.getMessage());
        // two labels, one simulation
        StudyException twins = error("study: m\nmachine: " + coda + "\nworkloads: [{mix: [stream, bfs], label: x}, {mix: [stream, bfs], label: y}]\n");
        assertTrue(twins.reason().contains("are the same simulation"), twins.reason());
        StudyException one = error("study: m\nmachine: ../machines/small.yaml\nworkloads: [{mix: [stream, bfs]}]\n");
        assertTrue(one.reason().contains("has 1 GPU"), one.reason());
    }

    @Test
    void unknownWorkload() throws Exception {
        StudyException e = error("""
                study: x
                machine: ../machines/small.yaml
                workloads: [stream, sgemmm]
                """);
        assertEquals(3, e.line());
        assertEquals(21, e.column());
        assertEquals("workloads[1]", e.field());
        assertTrue(e.reason().startsWith("unknown workload 'sgemmm' (available: bfs, blocks, boom, hosted, stream)"), e.reason());
    }

    /** Several errors come in the file's line order (they came section by section: line 11 before line 4, a newcomer's trial). */
    @Test
    void errorsComeInLineOrder() throws Exception {
        StudyException e = error("study: o\nmachine: ../machines/small.yaml\nepoch: 5\nworkloads: [strem]\npolicies: {placment: local}\nseed: x\n");
        List<Integer> lines = e.errors().stream().map(StudyException::line).toList();
        assertTrue(lines.size() >= 3, e.getMessage());
        assertEquals(lines.stream().sorted().toList(), lines, e.getMessage());
    }

    @Test
    void aYamlMergeKeyIsSaidToBeUnsupported() throws Exception {
        StudyException e = error("study: m\nmachine: ../machines/small.yaml\nbase: &b {name: stream}\nworkloads: [{<<: *b, elements: 1024}]\n");
        assertTrue(e.getMessage().contains("YAML merge keys (<<) are not supported in a study: write the entries out"), e.getMessage());
    }

    @Test
    void aStudyNameTooLongForAFolderIsRefused() throws Exception {
        StudyException e = error("study: " + "x".repeat(300) + "\nmachine: ../machines/small.yaml\nworkloads: [stream]\n");
        assertEquals("a study name of 300 characters cannot name a folder: at most 200", e.reason());
    }

    @Test
    void aResultsFoldersStudyJsonIsNamedForWhatItIs() throws Exception {
        StudyException e = error("{\"study\": \"quickstart\", \"study_file\": \"examples/studies/quickstart.yaml\", \"study_sha256\": \"abc\"}\n");
        assertEquals("this is a results folder's provenance (study.json), not a study file: its study is examples/studies/quickstart.yaml", e.reason());
    }

    @Test
    void badOverridePath() throws Exception {
        StudyException e = error("""
                study: x
                machine: ../machines/small.yaml
                overrides:
                  pools.hbm.bandwidth: 1TB/s
                workloads: [stream]
                """);
        assertEquals(4, e.line());
        assertEquals(3, e.column());
        assertEquals("overrides.pools.hbm.bandwidth", e.field());
        assertTrue(e.reason().contains("'pools' has no element named 'hbm' (elements: gddr, ddr)"), e.reason());
    }

    /** A link without a name answers to its default name, as stats.json and runs.csv call it (link.gpu0-cpu.wire_bytes). */
    @Test
    void anUnnamedLinkIsNamedByItsEnds() throws Exception {
        Study s = parse("study: l\nmachine: ../machines/small.yaml\nworkloads: [stream]\noverrides: {links.gpu0-cpu.bandwidth: 8GB/s}\n");
        assertEquals(8e9, s.runs().get(0).machine().config().links().get(0).bytesPerSecondPerDirection(), 1);
        StudyException e = error("study: l\nmachine: ../machines/small.yaml\nworkloads: [stream]\noverrides: {links.gpu0-gpu1.bandwidth: 8GB/s}\n");
        assertTrue(e.reason().contains("'links' has no element named 'gpu0-gpu1' (elements: gpu0-cpu)"), e.reason());
    }

    @Test
    void independentErrorsAreReportedTogether() throws Exception {
        StudyException e = error("""
                study: x
                machine: ../machines/small.yaml
                frobnicate: 1
                workloads: [{name: stream, elemnts: 4}, bfz]
                policies: {placement: {name: ratio, fast_percent: 170}, replacment: lru}
                """);
        List<String> fields = e.errors().stream().map(StudyException::field).toList();
        assertEquals(List.of("frobnicate", "workloads[0].elemnts", "workloads[1]", "policies.placement.fast_percent", "policies.replacment"), fields);
        assertEquals(3, e.line(), "located at the first error");
        assertEquals(5, e.getMessage().lines().count(), e.getMessage());
    }

    /**
     * A researcher's study with three bad values in one policy, two bad figure metrics and two bad swaps needed an edit
     * and a validate for each: every parameter's, figure's and swap's own mistake now comes at once.
     */
    @Test
    void everyBadParameterFigureAndSwapIsReportedInOneValidate() throws Exception {
        StudyException swept = error("""
                study: x
                machine: ../machines/small.yaml
                workloads: [stream]
                policies: {placement: {sweep: [ratoi, {name: ratio, fast_percent: 170}, local, {name: ratio, fast_precent: 3}]}}
                """);
        assertEquals(List.of("policies.placement.sweep[0]", "policies.placement.sweep[1].fast_percent", "policies.placement.sweep[3].fast_precent"),
                swept.errors().stream().map(StudyException::field).toList(), swept.getMessage());
        StudyException params = error("""
                study: x
                machine: ../machines/small.yaml
                workloads: [stream]
                policies: {placement: {name: ratio, fast_percent: 170, fast_precent: 3}}
                """);
        assertEquals(List.of("4:policies.placement.fast_percent", "4:policies.placement.fast_precent"),
                params.errors().stream().map(x -> x.line() + ":" + x.field()).toList(), params.getMessage());
        StudyException rest = error("""
                study: x
                machine: ../machines/small.yaml
                workloads: [stream]
                swaps:
                  - {at: epoch 0, slot: placement, to: ratio}
                  - {at: kernel 1, slot: placement, to: ratoi}
                report:
                  - {metric: sim_tme_ns, by: workload}
                  - {metric: l2_hit_rate, by: workload}
                  - {metric: l2_hitrate, by: workload}
                """);
        assertEquals(List.of("5:swaps[0].at", "6:swaps[1].to", "8:report[0].metric", "10:report[2].metric"),
                rest.errors().stream().map(x -> x.line() + ":" + x.field()).toList(), rest.getMessage());
    }

    /** A policy's name where the study runs it with two parameter sets is ambiguous, not absent (a coherence trial). */
    @Test
    void aFigureSelectingAPolicyRunWithSeveralParameterSetsSaysItIsAmbiguous() throws Exception {
        StudyException e = error("""
                study: x
                machine: ../machines/small.yaml
                workloads: [stream, {name: bfs, nodes: 64}]
                policies: {placement: {sweep: [local, {name: ratio, fast_percent: 30}, {name: ratio, fast_percent: 60}]}}
                report:
                  - {metric: sim_time_ns, by: workload, where: {placement: ratio}}
                """);
        assertTrue(e.getMessage().contains("'ratio' names 2 values of placement (ratio(fast_percent=30), ratio(fast_percent=60)): give one as written"),
                e.getMessage());
    }

    /** A pool's metric with a misspelt pool passed validation and its figure came out empty after the runs (a researcher's trial). */
    @Test
    void aFigureOfAPoolNoMachineHasIsRefused() throws Exception {
        StudyException e = error("""
                study: x
                machine: ../machines/small.yaml
                workloads: [stream]
                report:
                  - {metric: pool.dddr.bandwidth_gbps, by: workload}
                  - {metric: pool.*.bytes, by: workload}
                """);
        assertEquals("report[0].metric", e.field(), e.getMessage());
        assertTrue(e.getMessage().contains("'pool.dddr.bandwidth_gbps': no machine of this study has a pool 'dddr' (its pools: "), e.getMessage());
        assertEquals(1, e.errors().size(), "a pattern is not checked: " + e.getMessage());
    }

    /**
     * {@code sweep: {workloads.<param>: [...]}}: a workload's size or stride as a swept column, so a line figure can draw
     * over it (a researcher's stride sweep could only be bars); the workload column keeps the entry's label.
     */
    @Test
    void aWorkloadParameterIsSweptAsAColumnOfItsOwn() throws Exception {
        Study s = parse("""
                study: x
                machine: ../machines/small.yaml
                workloads: [bfs]
                sweep:
                  workloads.nodes: [1024, 4096]
                report:
                  - {metric: sim_time_ns, x: workloads.nodes}
                """);
        assertEquals(List.of("workloads.nodes"), s.sweepColumns());
        assertEquals(2, s.runs().size());
        assertEquals("bfs", s.runs().get(1).workload().label(), "the workload column is the entry's");
        assertEquals(4096, s.runs().get(1).workload().params().getInt("nodes"), "the run's workload has the swept value");
        assertEquals("4096", s.runs().get(1).sweepValues().get("workloads.nodes"));
        assertEquals("bfs workloads.nodes=4096", s.runs().get(1).label());

        StudyException notTaken = error("study: x\nmachine: ../machines/small.yaml\nworkloads: [bfs, stream]\nsweep:\n  workloads.nodes: [1024, 4096]\n");
        assertEquals("sweep.workloads.nodes", notTaken.field());
        assertTrue(notTaken.getMessage().contains("workload stream (workloads[1]) takes no parameter 'nodes' (its parameters: size)"), notTaken.getMessage());
        StudyException twice = error("study: x\nmachine: ../machines/small.yaml\nworkloads: [{name: bfs, nodes: 64}]\nsweep:\n  workloads.nodes: [1024]\n");
        assertTrue(twice.getMessage().contains("sets 'nodes' in its entry too"), twice.getMessage());
        StudyException range = error("study: x\nmachine: ../machines/small.yaml\nworkloads: [bfs]\nsweep:\n  workloads.nodes: [1024, 0]\n");
        assertEquals("5:sweep.workloads.nodes[1]", range.line() + ":" + range.field(), range.getMessage());
    }

    /** A wrong swept policy parameter and a wrong swept machine value come in one validate (a review met them one by one). */
    @Test
    void sweepErrorsOfPoliciesAndMachinesAreReportedTogether() throws Exception {
        StudyException e = error("""
                study: x
                machine: ../machines/small.yaml
                workloads: [stream]
                policies: {placement: ratio}
                sweep:
                  policies.placement.fast_precent: [10, 20]
                  gpu.sms: [4, 0]
                """);
        assertEquals(List.of("6:sweep.policies.placement.fast_precent", "7:sweep.gpu.sms"),
                e.errors().stream().map(x -> x.line() + ":" + x.field()).toList(), e.getMessage());
    }

    /**
     * Two policies of one bundle sharing a parameter, given on one only or with different values, are noted on their runs
     * (a trial's CODA with blocks_per_gpu on the interleave alone ran at 0.41x of FGP without a word); matching, nothing.
     */
    @Test
    void policiesOfOneBundleThatDisagreeOnASharedParameterAreNoted() throws Exception {
        String head = "study: p\nmachine: ../machines/small.yaml\nworkloads: [stream]\npolicies:\n";
        List<String> one = parse(head + "  interleave: {name: split, blocks_per_gpu: 24}\n  cta-scheduler: bound\n").notes();
        assertEquals(List.of("policies.interleave.blocks_per_gpu and policies.cta-scheduler.blocks_per_gpu: split(blocks_per_gpu=24) has 24 and bound has 0"
                + " (its default): policies of one bundle that share a parameter work from it together; set it on both unless the difference is the study"
                + " (run 0001)"), one);
        assertEquals(List.of(), parse(head + "  interleave: {name: split, blocks_per_gpu: 24}\n  cta-scheduler: {name: bound, blocks_per_gpu: 24}\n").notes());
        assertEquals(List.of(), parse(head + "  interleave: split\n  cta-scheduler: bound\n").notes(), "both at their default");
    }

    /**
     * A slot read under another spelling is the same slot: swept, its column is hyphenated (a trial's
     * policies.dram_scheduler.cap column matched no report x: and no folder of the same study written with the hyphen);
     * given twice under two spellings, refused (the last won, silently).
     */
    @Test
    void aSlotsSpellingsAreOneSlot() throws Exception {
        Study s = parse("study: p\nmachine: ../machines/small.yaml\nworkloads: [stream]\npolicies:\n  placement: ratio\nsweep:\n"
                + "  policies.Placement.fast_percent: [10, 20]\n  policies.dram_scheduler: [fr-fcfs, fcfs]\n");
        assertEquals(List.of("policies.placement.fast_percent"), s.sweepColumns(), "a swept policy is its slot.dram-scheduler column");
        StudyException e = error("study: p\nmachine: ../machines/small.yaml\nworkloads: [stream]\npolicies:\n  dram_scheduler: fcfs\n  dram-scheduler: fr-fcfs\n");
        assertTrue(e.getMessage().contains(":6:3: policies.dram-scheduler: the dram-scheduler slot is given twice (also as 'dram_scheduler', which reads the same): give it once"),
                e.getMessage());
    }

    /** A DRAM scheduler where every pool's machine file fixes its own is never asked: refused where every run is so, noted where some are. */
    @Test
    void aDramSchedulerThatActsOnNoPoolIsSaid() throws Exception {
        Fakes.write(dir, "machines/fixed.yaml", Fakes.MACHINE.replace("name: small", "name: fixed").replace("capacity: 1GB }", "capacity: 1GB, scheduler: fr-fcfs }")
                .replace("capacity: 4GB }", "capacity: 4GB, scheduler: fcfs }"));
        StudyException e = error("study: p\nmachine: ../machines/fixed.yaml\nworkloads: [stream]\npolicies:\n  dram-scheduler: fcfs\n");
        assertTrue(e.getMessage().contains("policies.dram-scheduler: fcfs on machine fixed: acts on no pool: the machine file fixes every pool's scheduler"),
                e.getMessage());
        Study crossed = parse("study: p\nmachines: [../machines/small.yaml, ../machines/fixed.yaml]\nworkloads: [stream]\npolicies:\n  dram-scheduler: fcfs\n");
        assertTrue(crossed.notes().stream().anyMatch(n -> n.startsWith("policies.dram-scheduler: fcfs on machine fixed: acts on no pool") && n.endsWith("(run 0002)")),
                crossed.notes().toString());
        // the slot's default is not refused (a study need not name it), but the machine says its pools keep their own
        List<String> fixed = parse("study: p\nmachine: ../machines/fixed.yaml\nworkloads: [stream]\npolicies:\n  dram-scheduler: fr-fcfs\n").notes();
        assertEquals(2, fixed.size(), fixed.toString());
        assertTrue(fixed.get(1).startsWith("machine fixed: pools.ddr.scheduler: fixes this pool's controller to fcfs, which the study's dram-scheduler slot"), fixed.toString());
    }

    /** A replacement policy where both GPU cache levels keep LRU is never asked: refused where every run is so, noted where some are (a trial). */
    @Test
    void aReplacementPolicyThatActsOnNoCacheIsSaid() throws Exception {
        Fakes.write(dir, "machines/pinned.yaml", Fakes.MACHINE.replace("name: small", "name: pinned")
                .replace("  sms: 4\n", "  sms: 4\n  l1: {replacement: lru}\n  l2: {replacement: lru}\n"));
        StudyException e = error("study: p\nmachine: ../machines/pinned.yaml\nworkloads: [stream]\npolicies:\n  replacement: random\n");
        assertTrue(e.getMessage().contains("policies.replacement: random on machine pinned: acts on no cache: the L1s keep LRU (gpu.l1.replacement: lru)"
                + " and the L2 does too (gpu.l2.replacement: lru), on every run of the study"), e.getMessage());
        Study crossed = parse("study: p\nmachines: [../machines/small.yaml, ../machines/pinned.yaml]\nworkloads: [stream]\npolicies:\n  replacement: random\n");
        assertEquals(List.of("policies.replacement: random on machine pinned: acts on no cache: the L1s keep LRU (gpu.l1.replacement: lru) and the L2"
                + " does too (gpu.l2.replacement: lru) (run 0002)"), crossed.notes());
    }

    /**
     * What runs but acts on nothing on some runs is a note, not an error (a crossed study gives it without a mistake):
     * a policy's remark on a run's facts, a scripted swap target's, and a machine setting made inert by another, each once
     * with its runs. A choice noted on every run that has it acts on nothing in the study: refused.
     */
    @Test
    void notesNameWhatActsOnNothingAndTheirRuns() throws Exception {
        Fakes.write(dir, "machines/onepool.yaml", "name: onepool\ngpus: 1\npools:\n  - { name: gddr, node: gpu0 }\n");
        String crossed = "study: n\nseeds: [1, 2]\nmachines: [../machines/small.yaml, ../machines/onepool.yaml]\nworkloads: [stream]\n";
        Study s = parse(crossed + "policies:\n  replacement: {sweep: [lru, {name: tagged, tag: noted}, {name: tagged, tag: note-throws}]}\n");
        assertEquals(List.of("policies.replacement: tagged(tag=noted) on machine small: acts as lru with several pools (2 runs: 0003, 0004)"), s.notes(),
                "one note for the two seeds, none on the one-pool machine; a note that throws is no note");
        assertEquals(List.of(), parse(GOOD).notes());
        Study swapped = parse(crossed + "swaps:\n  - {at: kernel 1, slot: replacement, to: {name: tagged, tag: noted}}\n");
        assertEquals(List.of("swaps[0].to: replacement -> tagged(tag=noted) on machine small: acts as lru with several pools (2 runs: 0001, 0002)"), swapped.notes());

        // at the swept entry, not at the first slot under policies: (a trial's error about a swept slot came a line early)
        StudyException e = error("study: n\nmachine: ../machines/small.yaml\nworkloads: [stream]\n"
                + "policies:\n  placement: local\n  replacement: {sweep: [lru, {name: tagged, tag: noted}]}\n");
        assertTrue(e.getMessage().contains("policies.replacement.sweep[1]: tagged(tag=noted) on machine small: acts as lru with several pools, on every run of the study"),
                e.getMessage());
        assertEquals(List.of(6), e.errors().stream().map(x -> x.line()).toList(), e.getMessage());
        // a swept entry that leaves a parameter at its default is found too, and so is each later one (a multi-GPU trial's
        // errors of sweep[1] and sweep[2] came as one, at sweep[0])
        StudyException entries = error("study: n\nmachine: ../machines/small.yaml\nworkloads: [{name: stream, size: 4096}]\n"
                + "policies:\n  replacement: {sweep: [lru, {name: by-allocation, alloc: x}, {name: by-allocation, alloc: y}]}\n");
        assertEquals(List.of("policies.replacement.sweep[1]", "policies.replacement.sweep[2]"), entries.errors().stream().map(x -> x.field()).toList(),
                entries.getMessage());
        assertTrue(entries.getMessage().contains("no allocation 'y'"), entries.getMessage());
        // every such choice, each at its own line (a trial's second one was dropped and the first said at another slot's line)
        StudyException both = error("study: n\nmachine: ../machines/small.yaml\nworkloads: [stream]\n"
                + "policies:\n  placement: local\n  replacement: {name: tagged, tag: noted}\nswaps:\n  - {at: kernel 1, slot: replacement, to: {name: tagged, tag: noted}}\n");
        assertEquals(List.of("6:policies.replacement", "8:swaps[0].to"), both.errors().stream().map(x -> x.line() + ":" + x.field()).toList(), both.getMessage());

        Fakes.write(dir, "machines/paged.yaml", Fakes.MACHINE.replace("name: small", "name: paged")
                + "uvm: {prefetcher: tree, prefetch_region_pages: 16, prefetch_evicts: true}\n");
        Study u = parse("study: u\nmachine: ../machines/paged.yaml\nworkloads: [{name: stream, size: 1MB}]\nsweep:\n  uvm.prefetcher: [tree, none]\n");
        assertEquals(List.of("machine paged: uvm.prefetch_region_pages: acts on nothing with uvm.prefetcher: none (run 0002)"), u.notes(),
                "prefetch_evicts still governs a residency policy's prefetches: no note");
    }

    @Test
    void aWorkloadFileIsBuiltForItsParametersWhenValidated() throws Exception {
        // the grid is fine, the block is not: only building the kernel for the given parameters finds it
        Fakes.write(dir, "studies/w.yaml", """
                name: w
                params:
                  n: {default: 1024, min: 1, max: 1048576}
                allocations:
                  - {name: x, size: "n*4"}
                kernels:
                  - name: k
                    grid: 4
                    block: "n - 1024"
                    steps:
                      - load: {alloc: x, strided: {stride: 1}}
                """);
        StudyException e = error("study: x\nmachine: ../machines/small.yaml\nworkloads: [{file: w.yaml}]\n");
        assertTrue(e.file().endsWith("w.yaml"), e.getMessage());
        assertTrue(e.reason().contains("block must have 1..1024 threads"), e.getMessage());
        assertEquals(9, e.line(), "the bad block field: " + e.getMessage());
    }

    @Test
    void aBinaryFileIsNotText() throws Exception {
        Path bin = dir.resolve("machines/bin.yaml");
        java.nio.file.Files.createDirectories(bin.getParent());
        java.nio.file.Files.write(bin, new byte[] {(byte) 0xff, (byte) 0xfe, 0x00, (byte) 0xc3, 0x28, 0x41});
        StudyException e = error("study: x\nmachine: ../machines/bin.yaml\nworkloads: [stream]\n");
        assertTrue(e.reason().startsWith("not UTF-8 text"), e.getMessage());
    }

    @Test
    void missingMachineFile() throws Exception {
        StudyException e = error("""
                study: x
                machine: ../machines/nope.yaml
                workloads: [stream]
                """);
        assertEquals(2, e.line());
        assertEquals(10, e.column());
        assertEquals("machine", e.field());
        assertTrue(e.reason().contains("machine file '../machines/nope.yaml' not found"), e.reason());
        e = error("study: x\nmachine: ../machines\nworkloads: [stream]\n");
        assertEquals("machine", e.field());
        assertTrue(e.reason().startsWith("machine file '../machines' is a folder, not a file"), e.reason());
        e = error("study: x\nmachine: ../machines/small.yaml\nworkloads: [{file: ../machines}]\n");
        assertTrue(e.reason().startsWith("workload file '../machines' is a folder, not a file"), e.reason());
    }

    @Test
    void unknownSlotAndYamlSyntax() throws Exception {
        StudyException e = error("""
                study: x
                machine: ../machines/small.yaml
                workloads: [stream]
                policies: {placment: local}
                """);
        assertEquals("policies.placment", e.field());
        assertTrue(e.reason().startsWith("unknown slot 'placment'"), e.reason());

        StudyException syntax = error("study: x\nworkloads: [stream\n");
        assertTrue(syntax.reason().startsWith("YAML syntax"), syntax.reason());
        assertTrue(syntax.line() >= 2, syntax.getMessage());
    }

    @Test
    void machineErrorMapsToTheLineThatSetTheValue() throws Exception {
        // A machine parser that rejects 3 SMs, the way MachineConfig reports a bad field.
        StudyParser strict = new StudyParser(Fakes.policies(), Fakes.workloads(), tree -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> gpu = (Map<String, Object>) tree.get("gpu");
            if (Integer.valueOf(3).equals(gpu.get("sms"))) throw new ConfigException("gpu.sms", "3 SMs are not supported here");
            if ("9GB/s".equals(((Map<?, ?>) ((List<?>) tree.get("pools")).get(1)).get("bandwidth")))
                throw new ConfigException("pools.1.bandwidth", "too slow");
            return MachineConfig.parse(tree);
        });
        Path p = Fakes.write(dir, "studies/m.yaml", """
                study: x
                machine: ../machines/small.yaml
                workloads: [stream]
                sweep:
                  gpu.sms: [4, 3]
                """);
        StudyException e = assertThrows(StudyException.class, () -> strict.parse(p));
        assertEquals(p + ":5:16: sweep.gpu.sms: 3 SMs are not supported here", e.getMessage());

        Fakes.write(dir, "machines/slow.yaml", Fakes.MACHINE.replace("bandwidth: 40GB/s", "bandwidth: 9GB/s"));
        Path q = Fakes.write(dir, "studies/q.yaml", "study: x\nmachine: ../machines/slow.yaml\nworkloads: [stream]\n");
        StudyException f = assertThrows(StudyException.class, () -> strict.parse(q));
        assertEquals(dir.resolve("studies/../machines/slow.yaml").normalize() + ":8:65: pools.1.bandwidth: too slow", f.getMessage());

        Path r = Fakes.write(dir, "studies/r.yaml", "study: x\nmachine: ../machines/slow.yaml\noverrides: {gpu.sms: 3}\nworkloads: [stream]\n");
        StudyException g = assertThrows(StudyException.class, () -> strict.parse(r));
        assertEquals(r + ":3:22: overrides.gpu.sms: 3 SMs are not supported here", g.getMessage());

        // set as a nested map, the error names the field inside it, not the map's key
        Path n = Fakes.write(dir, "studies/n.yaml", "study: x\nmachine: ../machines/slow.yaml\noverrides:\n  gpu: {sms: 3}\nworkloads: [stream]\n");
        StudyException h = assertThrows(StudyException.class, () -> strict.parse(n));
        assertEquals("overrides.gpu.sms", h.field());
        assertEquals(4, h.line());
    }

    /** A mapping given as an override merges into the file's: the file's other fields stay (they were dropped). */
    @Test
    void aMappingOverrideChangesOnlyTheFieldsItGives() throws Exception {
        Fakes.write(dir, "machines/slow-clock.yaml", Fakes.MACHINE.replace("clock: 1400MHz", "clock: 1000MHz")); // not the default
        Study s = parse("study: x\nmachine: ../machines/slow-clock.yaml\noverrides: {gpu: {sms: 8}}\nworkloads: [stream]\n");
        var gpu = s.runs().get(0).machine().config().gpu();
        assertEquals(8, gpu.sms());
        assertEquals(1000, gpu.clockMHz(), 1e-9, "the file's clock is kept");
        Study swept = parse("study: x\nmachine: ../machines/slow-clock.yaml\nworkloads: [stream]\nsweep:\n  gpu: [{sms: 2}, {sms: 8}]\n");
        assertEquals(1000, swept.runs().get(1).machine().config().gpu().clockMHz(), 1e-9);
        assertEquals(2, swept.runs().get(0).machine().config().gpu().sms());
        StudyException empty = error("study: x\nmachine: ../machines/slow-clock.yaml\noverrides: {gpu: {}}\nworkloads: [stream]\n");
        assertTrue(empty.getMessage().contains("overrides.gpu: has no value"), empty.getMessage());
    }

    @Test
    void badSectionsOfAMachineFileAreReportedTogetherAtTheirLines() throws Exception {
        Fakes.write(dir, "machines/bad.yaml", Fakes.MACHINE.replace("sms: 4", "sms: four").replace("bandwidth: 40GB/s", "bandwidth: 40GX/s")
                .replace("latency_cycles: 100", "latency_cycles: -1"));
        StudyException e = error("study: x\nmachine: ../machines/bad.yaml\nworkloads: [stream]\n");
        List<String> at = e.errors().stream().map(x -> x.line() + ":" + x.field()).toList();
        // one error per section (the GPU, each pool, each link), each at its own line of the machine file
        assertEquals(List.of("5:gpu.sms", "8:pools.1.bandwidth", "10:links.0.latency_cycles"), at, e.getMessage());
        assertTrue(e.errors().get(0).file().endsWith("bad.yaml"), e.getMessage());
    }

    @Test
    void badPartsOfAWorkloadFileAreReportedTogetherAtTheirLines() throws Exception {
        Fakes.write(dir, "studies/w2.yaml", """
                name: w2
                allocations:
                  - {name: a, size: 4XB}
                kernels:
                  - {name: k, grid: 1, block: 32, steps: [{load: {alloc: a, index: tid}}, {jump: 1}]}
                """);
        StudyException e = error("study: x\nmachine: ../machines/small.yaml\nworkloads: [{file: w2.yaml}]\n");
        assertEquals(List.of("3:allocations[0].size", "5:kernels[0].steps[1].jump"), e.errors().stream().map(x -> x.line() + ":" + x.field()).toList(), e.getMessage());
        assertTrue(e.errors().get(0).file().endsWith("w2.yaml"), e.getMessage());
    }

    @Test
    void seedAndSwapShapes() throws Exception {
        assertEquals("seeds", error("study: x\nseed: 1\nseeds: [2]\nmachine: ../machines/small.yaml\nworkloads: [stream]\n").field());
        StudyException e = error("study: x\nmachine: ../machines/small.yaml\nworkloads: [stream]\nswaps: [{at: kernel 2, slot: placement}]\n");
        assertTrue(e.reason().contains("missing 'to'"), e.reason());
        assertEquals("study", error("study: a/b\nmachine: ../machines/small.yaml\nworkloads: [stream]\n").field());
        assertEquals("epoch", error("study: x\nmachine: ../machines/small.yaml\nworkloads: [stream]\nepoch: soon\n").field());
    }

    static final String BASE = "study: x\nmachine: ../machines/small.yaml\nworkloads: [stream]\n";

    @Test
    void numbersBeyond64BitsAreOutOfRangeAsWritten() throws Exception {
        // each of these used to wrap to a small valid value and validate
        StudyException e = error(BASE + "overrides: {gpu.sms: 18446744073709551620}\n");
        assertEquals(dir.resolve("studies/s.yaml") + ":4:22: overrides.gpu.sms: value 18446744073709551620 is out of range [1, 64]", e.getMessage());
        assertEquals("value 99999999999999999999 is out of range [1, 64]", error(BASE + "overrides: {gpu.sms: 99999999999999999999}\n").reason());
        assertEquals("value 18446744073709551618 is out of range [1, 64]", error(BASE + "overrides: {gpus: 18446744073709551618}\n").reason());
        e = error(BASE + "policies: {placement: {name: ratio, fast_percent: 18446744073709551646}}\n");
        assertEquals("policies.placement.fast_percent", e.field());
        assertEquals("value 18446744073709551646 is out of range [0, 100]", e.reason());
        e = error("study: x\nmachine: ../machines/small.yaml\nworkloads: [{name: bfs, nodes: 99999999999999999999}]\n");
        assertEquals("workloads[0].nodes", e.field());
        assertEquals("value 99999999999999999999 is out of range [1, 1000000]", e.reason());
        e = error(BASE + "overrides: {pools.99999999999.bandwidth: 1GB/s}\n");
        assertEquals("overrides.pools.99999999999.bandwidth", e.field());
        assertTrue(e.reason().endsWith("'pools' has 2 elements, no index 99999999999"), e.reason());
        e = error(BASE + "swaps: [{at: kernel 99999999999999999999, slot: placement, to: interleave}]\n");
        assertEquals("swaps[0].at", e.field());
        assertEquals("'kernel 99999999999999999999': 99999999999999999999 is out of range [0, 9223372036854775807]", e.reason());
    }

    @Test
    void aDurationNeedsAUnit() throws Exception {
        // epoch: 5 ran with a 5 ps epoch: a tiny run took 81 s and wrote a 238 MB time series
        StudyException e = error(BASE + "epoch: 5\n");
        assertEquals(dir.resolve("studies/s.yaml") + ":4:8: epoch: '5' has no unit: write the duration with one (10us, 2ms)", e.getMessage());
        assertEquals("'50000' has no unit: write the duration with one (10us, 2ms)", error(BASE + "max_time: 50000\n").reason());
        assertEquals("'5' is not a duration (write it with a unit: 10us, 2ms): unknown time unit '' in '5' (use ps, ns, us, ms, s)",
                error(BASE + "epoch: '5'\n").reason());
        assertEquals("5ps is out of range [1ns, 1000s]", error(BASE + "epoch: 5ps\n").reason());
        assertEquals("2000s is out of range [1ns, 1000s]", error(BASE + "epoch: 2000s\n").reason());
        assertEquals("must be greater than zero", error(BASE + "max_time: 0ms\n").reason());
        assertEquals("0.0001ns is out of range [1ns, 1000s]", error(BASE + "epoch: 0.0001ns\n").reason(), "a positive value that rounds to 0 ps");
        assertEquals("'1e9s' is not a duration (write it with a unit: 10us, 2ms): '1e9s' is too large (at most 9223372036854775807 ps)",
                error(BASE + "max_time: 1e9s\n").reason());
        assertEquals(1_000L, parse(BASE + "epoch: 1ns\n").epochPs());
        assertTrue(error(BASE + "swaps: [{at: 50, slot: placement, to: interleave}]\n").reason().contains("write it with a unit"));
        // a swap that could never happen, or a key that would be ignored, is refused rather than silently skipped
        assertTrue(error(BASE + "swaps: [{at: epoch 0, slot: placement, to: interleave}]\n").reason().contains("epochs count from 1"));
        StudyException mixed = error(BASE + "swaps: [{at: 50us, slot: placement, to: interleave, between: [local, interleave]}]\n");
        assertEquals("swaps[0].between", mixed.field());
        assertTrue(mixed.reason().contains("either at and to, or every and between"), mixed.reason());
        // at beside every was refused as "missing 'between'", a key of the form the user did not mean (found by a docs audit)
        StudyException both = error(BASE + "swaps: [{at: 5us, every: 2 epochs, slot: placement, to: local}]\n");
        assertEquals("swaps[0].every", both.field());
        assertTrue(both.reason().startsWith("a swap has either at and to, or every and between, not both (at and every given)"), both.reason());
        assertEquals(1, parse(BASE + "swaps: [{at: epoch 1, slot: placement, to: interleave}]\n").swaps().size());

        // a policy's time parameter likewise: gpu_fault: 20 would be 20 ps
        org.hmsim.platform.kernel.registry.PolicyRegistry r = Fakes.policies();
        r.add(new Fakes.Provider(Slot.MIGRATION, "delayed", "1.0.0",
                List.of(org.hmsim.api.policy.ParamSpec.time("delay", 20_000_000L, 0, 1_000_000_000L, "fault service")), false));
        StudyParser timed = new StudyParser(r, Fakes.workloads());
        Path p = Fakes.write(dir, "studies/t.yaml", BASE + "policies: {migration: {name: delayed, delay: 20}}\n");
        e = assertThrows(StudyException.class, () -> timed.parse(p));
        assertEquals(p + ":4:46: policies.migration.delay: '20' has no unit: write the duration with one (20us, 100ns)", e.getMessage());
        Path swept = Fakes.write(dir, "studies/u.yaml", BASE + "policies: {migration: delayed}\nsweep: {policies.migration.delay: [20us, 30]}\n");
        assertEquals("sweep.policies.migration.delay", assertThrows(StudyException.class, () -> timed.parse(swept)).field());
        Path zero = Fakes.write(dir, "studies/v.yaml", BASE + "policies: {migration: {name: delayed, delay: 0}}\n");
        assertEquals(0L, timed.parse(zero).runs().get(0).policies().get(Slot.MIGRATION).params().getLong("delay"));
    }

    @Test
    void aWorkloadFilesExpressionsAreEvaluatedWhenValidating() throws Exception {
        Fakes.write(dir, "workloads/w.yaml", """
                name: w
                params: {n: 1024}
                allocations:
                  - {name: a, size: "n*4"}
                kernels: [{name: k, grid: 1, block: 32, steps: [barrier]}]
                """);
        String study = "study: x\nmachine: ../machines/small.yaml\nworkloads: [{file: ../workloads/w.yaml, n: N}]\n";
        // n*4 wrapped to 256 B and the run went ahead
        StudyException e = error(study.replace("N", "4611686018427387968"));
        assertEquals(dir.resolve("studies/../workloads/w.yaml").normalize()
                + ":4:21: allocations[0].size: integer overflow: the result does not fit in 64 bits (with n = 4611686018427387968); the study sets n at "
                + dir.resolve("studies/s.yaml") + ":3:44", e.getMessage());
        e = error(study.replace("N", "99999999999999999999"));
        assertEquals("workloads[0].n", e.field());
        assertEquals("value 99999999999999999999 is out of range [-9223372036854775808, 9223372036854775807]", e.reason());
        assertEquals("allocations[0].size", error(study.replace("N", "0")).field(), "a size of 0 is found by validate too");
        assertEquals(1, parse(study.replace("N", "2048")).runs().size());
    }
}
