package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Stream;
import org.hmsim.platform.kernel.results.Environment;
import org.hmsim.platform.kernel.results.Json;
import org.hmsim.platform.kernel.runner.Progress;
import org.hmsim.platform.kernel.runner.RunOptions;
import org.hmsim.platform.kernel.runner.StudyExecution;
import org.hmsim.platform.kernel.runner.StudyRunner;
import org.hmsim.platform.kernel.study.Study;
import org.hmsim.platform.kernel.study.StudyParser;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StudyRunnerTest {
    @TempDir
    Path dir;
    Study study;

    static final String STUDY = """
            study: det
            seeds: [1, 2]
            machine: ../machines/small.yaml
            workloads: [stream, {name: bfs, nodes: 4096}]
            policies:
              placement: {sweep: [local, {name: ratio, fast_percent: 30}]}
            sweep:
              pools.ddr.bandwidth: [40GB/s, 80GB/s]
            """;

    @BeforeEach
    void setUp() throws Exception {
        Fakes.write(dir, "machines/small.yaml", Fakes.MACHINE);
        study = parse(STUDY);
    }

    Study parse(String yaml) throws Exception {
        return new StudyParser(Fakes.policies(), Fakes.workloads()).parse(Fakes.write(dir, "studies/s.yaml", yaml));
    }

    int run(Study s, Path out, int jobs, boolean resume, Function<RunSpec, RunResult> sim) throws Exception {
        return new StudyRunner(sim, Environment.classpath()).run(s, new RunOptions(out, jobs, resume), Progress.silent());
    }

    static String read(Path p) throws Exception { return Files.readString(p); }

    @Test
    void runsCsvIsIdenticalForOneAndTwoThreads() throws Exception {
        assertEquals(16, study.runs().size());
        Path a = dir.resolve("a"), b = dir.resolve("b");
        assertEquals(0, run(study, a, 1, false, Fakes.SIMULATOR));
        assertEquals(0, run(study, b, 2, false, Fakes.SIMULATOR));
        String csv = read(a.resolve("runs.csv"));
        assertEquals(csv, read(b.resolve("runs.csv")));
        for (String id : List.of("0001", "0007", "0016"))
            for (String f : List.of("stats.json", "config.json", "timeseries.csv"))
                assertEquals(read(a.resolve("runs/" + id + "/" + f)), read(b.resolve("runs/" + id + "/" + f)), id + "/" + f);

        List<String> lines = csv.lines().toList();
        assertEquals(17, lines.size());
        assertEquals("run,status,workload,machine,slot.placement,slot.migration,slot.residency,slot.throttling,slot.compression,"
                + "slot.cacheability,slot.coherence,slot.l2-miss-path,slot.replacement,slot.interleave,slot.cta-scheduler,"
                + "slot.warp-scheduler,slot.dram-scheduler,pools.ddr.bandwidth,seed,sim_time_ns,l2_hit_rate,edges", lines.get(0));
        assertTrue(lines.get(1).startsWith("0001,ok,stream,small,local,none,none,none,none,cache-all,none,conventional,lru,fine,round-robin,gto,fr-fcfs,40GB/s,1,"), lines.get(1));
        assertTrue(lines.get(4).startsWith("0004,ok,stream,small,ratio(fast_percent=30),"), lines.get(4));
        assertTrue(lines.get(9).startsWith("0009,ok,bfs(nodes=4096),"), lines.get(9));
        assertTrue(lines.get(1).endsWith(","), "stream has no edges metric: " + lines.get(1));

        Map<String, Object> config = Json.read(a.resolve("runs/0004/config.json"));
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> policies = (Map<String, Map<String, Object>>) config.get("policies");
        assertEquals(Map.of("fast_percent", 30), policies.get("placement").get("params"));
        assertEquals("classpath", policies.get("placement").get("bundle"));
        assertEquals("1.0.0", policies.get("placement").get("version"));
        Map<String, Object> provenance = Json.read(a.resolve("study.json"));
        assertEquals(study.sha256(), provenance.get("study_sha256"));
        assertEquals("finished", provenance.get("status"));
    }

    @Test
    void aFailingRunFailsAloneWithItsStackTrace() throws Exception {
        Study s = parse("""
                study: fail
                machine: ../machines/small.yaml
                workloads: [stream, boom, bfs]
                policies:
                  placement: {sweep: [local, explode]}
                """);
        Path out = dir.resolve("out");
        assertEquals(StudyExecution.FAILED_RUNS, run(s, out, 2, false, Fakes.SIMULATOR));
        // 0002 stream+explode, 0003 boom+local, 0004 boom+explode, 0006 bfs+explode fail; 0001, 0005 succeed.
        for (String ok : List.of("0001", "0005")) {
            assertTrue(Files.exists(out.resolve("runs/" + ok + "/stats.json")), ok);
            assertFalse(Files.exists(out.resolve("runs/" + ok + "/error.txt")), ok);
        }
        String err = read(out.resolve("runs/0002/error.txt"));
        assertTrue(err.contains("IllegalStateException: policy explode exploded"), err);
        assertTrue(err.contains("at org.hmsim.platform.kernel.Fakes"), "stack trace: " + err);
        assertTrue(read(out.resolve("runs/0003/error.txt")).contains("workload boom failed on purpose"));
        assertTrue(Files.exists(out.resolve("runs/0003/config.json")), "a failed run keeps its configuration");
        List<String> lines = read(out.resolve("runs.csv")).lines().toList();
        assertEquals(7, lines.size());
        assertTrue(lines.get(2).startsWith("0002,failed,stream,small,explode,"), lines.get(2));
        assertTrue(lines.get(2).endsWith(",1,,,"), "no metrics for a failed run: " + lines.get(2));
    }

    @Test
    void resumeRedoesOnlyIncompleteRunsAndRebuildsTheSameTable() throws Exception {
        Path full = dir.resolve("full"), cut = dir.resolve("cut");
        assertEquals(0, run(study, full, 2, false, Fakes.SIMULATOR));
        assertEquals(0, run(study, cut, 2, false, Fakes.SIMULATOR));
        // An interrupted study: two runs never finished, one left a stale runs.csv behind.
        Files.delete(cut.resolve("runs/0003/stats.json"));
        Files.delete(cut.resolve("runs/0011/stats.json"));
        Files.writeString(cut.resolve("runs.csv"), "half a table");
        AtomicInteger simulated = new AtomicInteger();
        AtomicReference<String> which = new AtomicReference<>("");
        assertEquals(0, run(study, cut, 2, true, spec -> {
            simulated.incrementAndGet();
            synchronized (which) {
                which.set(which.get() + spec.runId() + " ");
            }
            return Fakes.SIMULATOR.apply(spec);
        }));
        assertEquals(2, simulated.get(), which.get());
        assertTrue(which.get().contains("0003") && which.get().contains("0011"), which.get());
        assertEquals(read(full.resolve("runs.csv")), read(cut.resolve("runs.csv")));
        assertEquals(read(full.resolve("runs/0003/stats.json")), read(cut.resolve("runs/0003/stats.json")));
    }

    @Test
    void aFreshRunSetsOldResultsAsideAndLeavesNoTemporaryFiles() throws Exception {
        Path out = dir.resolve("out");
        Files.createDirectories(out.resolve("runs/0099"));
        Files.writeString(out.resolve("runs/0099/stats.json"), "{}");
        Files.writeString(out.resolve("study.json"), "{\"study\": \"s\", \"study_sha256\": \"00\"}");
        Files.writeString(out.resolve("notes.txt"), "mine");
        assertEquals(0, run(study, out, 2, false, Fakes.SIMULATOR));
        assertFalse(Files.exists(out.resolve("runs/0099")), "results of an earlier execution are replaced");
        assertTrue(Files.exists(out.resolve("previous/runs/0099/stats.json")), "and kept in previous/");
        assertTrue(Files.exists(out.resolve("notes.txt")), "files hmsim did not write are kept");
        try (Stream<Path> s = Files.walk(out)) {
            List<Path> tmp = s.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList();
            assertEquals(List.of(), tmp);
        }
    }

    @Test
    void stopLetsRunningRunsFinishAndStartsNoNewOne() throws Exception {
        AtomicReference<StudyExecution> ex = new AtomicReference<>();
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        StudyRunner runner = new StudyRunner(spec -> {
            try {
                started.countDown();
                while (ex.get() == null || !ex.get().stopRequested()) Thread.sleep(1);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return Fakes.SIMULATOR.apply(spec);
        }, Environment.classpath());
        Path out = dir.resolve("stop");
        ex.set(runner.start(study, new RunOptions(out, 1, false), Progress.silent()));
        started.await();
        assertTrue(ex.get().stop());
        assertEquals(StudyExecution.STOPPED, ex.get().await());
        assertEquals(2, read(out.resolve("runs.csv")).lines().count(), "header and the one run in flight");
        assertEquals("stopped", Json.read(out.resolve("study.json")).get("status"));
    }

    /**
     * A run that reaches max_time fails (its numbers are part of a workload), and keeps its statistics up to the limit
     * beside its error under names that do not mark it complete: --resume runs it again, and a later success removes them.
     */
    @Test
    void aRunStoppedByMaxTimeFailsAndKeepsItsPartialStatistics() throws Exception {
        Study s = parse("study: capped\nseed: 1\nmachine: ../machines/small.yaml\nworkloads: [stream]\n");
        Path out = dir.resolve("capped");
        Function<RunSpec, RunResult> capped = spec -> {
            RunResult part = partial(5000, 42, 7);
            throw new org.hmsim.platform.machine.SimTimeLimitException("simulated-time limit max_time = 5us reached", part);
        };
        assertEquals(StudyExecution.FAILED_RUNS, run(s, out, 1, false, capped));
        Path r = out.resolve("runs/0001");
        assertTrue(read(r.resolve("error.txt")).contains("max_time = 5us"));
        assertTrue(read(r.resolve("partial-stats.json")).contains("\"gpu0.l2.hits\" : 42.0") || read(r.resolve("partial-stats.json")).contains("\"gpu0.l2.hits\": 42.0"),
                read(r.resolve("partial-stats.json")));
        assertEquals("time_ns,requests\n5000,7\n", read(r.resolve("partial-timeseries.csv")));
        assertFalse(Files.exists(r.resolve("stats.json")), "not complete");
        assertTrue(read(out.resolve("runs.csv")).lines().skip(1).allMatch(l -> l.startsWith("0001,failed,")));
        assertEquals(0, run(s, out, 1, true, Fakes.SIMULATOR), "--resume runs it again");
        assertFalse(Files.exists(r.resolve("partial-stats.json")) || Files.exists(r.resolve("partial-timeseries.csv")), "the partial files go with the error");
    }

    /** Any run that fails mid-simulation keeps what it simulated beside its error (a trial's run failed 48 us in and kept nothing). */
    @Test
    void aRunThatFailsMidSimulationKeepsItsStatisticsUpToTheFailure() throws Exception {
        Study s = parse("study: broken\nseed: 1\nmachine: ../machines/small.yaml\nworkloads: [stream]\n");
        Path out = dir.resolve("broken");
        Function<RunSpec, RunResult> failing = spec -> {
            RunResult part = partial(48000, 7, 3);
            IllegalStateException e = new IllegalStateException("the cta-scheduler policy picked SM 19");
            e.addSuppressed(new org.hmsim.platform.machine.RunFailureContext("the run failed at 48us simulated; policies swapped in before it: cta-scheduler=mine@1.0.0 (at 40us)", part));
            throw e;
        };
        assertEquals(StudyExecution.FAILED_RUNS, run(s, out, 1, false, failing));
        Path r = out.resolve("runs/0001");
        String error = read(r.resolve("error.txt"));
        assertTrue(error.contains("picked SM 19") && error.contains("policies swapped in before it: cta-scheduler=mine@1.0.0 (at 40us)"), error);
        assertTrue(read(r.resolve("partial-stats.json")).contains("gpu0.l2.hits"), read(r.resolve("partial-stats.json")));
        assertEquals("time_ns,requests\n48000,3\n", read(r.resolve("partial-timeseries.csv")));
        assertFalse(Files.exists(r.resolve("stats.json")), "not complete");
    }

    /** What a run simulated up to {@code ns}: {@code gpu0.l2.hits} and one time-series row with {@code requests}. */
    private static RunResult partial(long ns, double hits, double requests) {
        return new RunResult(ns * 1000, new java.util.LinkedHashMap<>(Map.of("sim_time_ns", (double) ns)), new java.util.TreeMap<>(Map.of("gpu0.l2.hits", hits)),
                List.of("requests"), List.of(new double[] {ns, requests}), 1, 1);
    }

    /** A workload file's error met mid-run is said as an input error, located, with no stack trace (an irregular-workload trial). */
    @Test
    void aWorkloadFilesErrorAtRunTimeIsReportedWithoutAStackTrace() throws Exception {
        Function<RunSpec, RunResult> sim = spec -> {
            throw new IllegalStateException("run failed", new org.hmsim.platform.workloads.file.WorkloadFileException("oob.yaml", 9, 15,
                    "kernels[0].steps[0].load", "index 5000 is outside 'a' (1024 elements) at cta 1, tid 0, i 0, launch 0"));
        };
        Path out = dir.resolve("oob");
        assertEquals(StudyExecution.FAILED_RUNS, run(study, out, 1, false, sim));
        String error = read(out.resolve("runs/0001/error.txt"));
        assertTrue(error.contains("oob.yaml:9:15") && error.contains("index 5000 is outside 'a' (1024 elements)"), error);
        assertTrue(!error.contains("\tat "), "no stack trace: " + error);
        // anything else keeps its stack trace (a plugin's bug)
        Path other = dir.resolve("npe");
        assertEquals(StudyExecution.FAILED_RUNS, run(study, other, 1, false, spec -> { throw new NullPointerException("in a policy"); }));
        assertTrue(read(other.resolve("runs/0001/error.txt")).contains("\tat "));
    }
}
