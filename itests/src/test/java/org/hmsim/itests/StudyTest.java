package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** (c) A study runs and writes its results folder; (e) a bad study is refused with a located error. */
class StudyTest extends ContainerPerClass {
    @Test
    void aSmallStudyRunsAndWritesEveryResultFile(@TempDir Path dir) throws Exception {
        Path study = Studies.tiny(dir, "tiny", "local", "interleave");
        Path out = dir.resolve("results");

        Hmsim.Result r = Hmsim.run(container, "run", study.toString(), "--out", out.toString(), "--jobs", "2");

        assertEquals(0, r.code(), () -> Studies.errors(r, out));
        assertTrue(r.out().contains(out.toString()), "the command says where the results are\n" + r);
        List<List<String>> table = Studies.table(out);
        List<String> head = table.get(0);
        assertEquals(List.of("run", "status", "workload", "machine"), head.subList(0, 4));
        for (String c : new String[] {"slot.placement", "slot.replacement", "seed", "sim_time_ns"}) {
            assertTrue(head.contains(c), "column " + c + " in " + head);
        }
        assertEquals(3, table.size(), "a header and one row per run");
        assertEquals(List.of("ok", "ok"), Studies.column(out, "status"));
        assertEquals(List.of("local", "interleave"), Studies.column(out, "slot.placement"));
        assertEquals(List.of("7", "7"), Studies.column(out, "seed"));
        for (String t : Studies.column(out, "sim_time_ns")) assertTrue(Double.parseDouble(t) > 0, "sim_time_ns " + t);

        String provenance = Files.readString(out.resolve("study.json"), StandardCharsets.UTF_8);
        for (String s : new String[] {"org.hmsim.kernel", "org.hmsim.baseline", "org.hmsim.api", "17"}) {
            assertTrue(provenance.contains(s), "study.json records " + s + "\n" + provenance);
        }
        for (String run : Studies.column(out, "run")) {
            Path runDir = out.resolve("runs").resolve(run);
            for (String f : new String[] {"config.json", "stats.json", "timeseries.csv"}) {
                assertTrue(Files.size(runDir.resolve(f)) > 0, runDir.resolve(f) + " written");
            }
            assertFalse(Files.exists(runDir.resolve("error.txt")));
            String config = Files.readString(runDir.resolve("config.json"), StandardCharsets.UTF_8);
            assertTrue(config.contains("\"placement\""), "config.json records the policies\n" + config);
            assertTrue(Files.readAllLines(runDir.resolve("timeseries.csv")).size() >= 2, "a header and at least one epoch");
        }
        try (Stream<Path> files = Files.walk(out)) {
            assertEquals(List.of(), files.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList(),
                    "no temporary file is left behind");
        }
    }

    /**
     * Seed 004 §6.5: a mix runs its programs side by side, one per GPU, through the container's coda bundle: under
     * CGP-Only each program's pages stay in its GPU's memory, so nothing crosses a link, and every program ends sooner.
     */
    @Test
    void aMultiprogrammedMixRunsOneProgramPerGpu(@TempDir Path dir) throws Exception {
        Path study = Hmsim.write(dir.resolve("mix.yaml"),
                "study: mix",
                "machine: " + Hmsim.examples().resolve("machines/coda.yaml"),
                "workloads:",
                "  - {mix: [{name: block-exclusive, ctas: 64}, {name: sharing, ctas: 32}, {name: stream, elements: 16384}], label: three}",
                "policies:",
                "  interleave: {sweep: [fine, coarse]}");
        Path out = dir.resolve("results");
        Hmsim.Result r = Hmsim.run(container, "run", study.toString(), "--out", out.toString(), "--jobs", "2");
        assertEquals(0, r.code(), () -> Studies.errors(r, out));
        assertEquals(List.of("three", "three"), Studies.column(out, "workload"));
        List<String> remote = Studies.column(out, "remote_bytes");
        assertTrue(Double.parseDouble(remote.get(0)) > 0 && Double.parseDouble(remote.get(1)) == 0, "remote bytes fine, coarse: " + remote);
        for (int p = 0; p < 3; p++) {
            List<String> t = Studies.column(out, "program" + p + "_time_ns");
            assertTrue(Double.parseDouble(t.get(1)) < Double.parseDouble(t.get(0)), "program " + p + " fine, coarse: " + t);
        }
        assertFalse(Studies.table(out).get(0).contains("program3_time_ns"), "three programs, three columns");
    }

    /** Every study the repository ships validates against the container's bundles: machines, workloads, policies, report. */
    @Test
    void everyExampleStudyIsValid() throws Exception {
        List<Path> studies;
        try (Stream<Path> files = Files.list(Hmsim.examples().resolve("studies"))) {
            studies = files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertTrue(studies.size() >= 15, "the example studies " + studies);
        for (Path study : studies) {
            Hmsim.Result r = Hmsim.run(container, "validate", study.toString());
            assertEquals(0, r.code(), () -> study + "\n" + r);
            assertTrue(r.out().contains("is valid"), study + "\n" + r);
            // the one shipped study that crosses a one-GPU machine with the affinity schedulers says which runs repeat others
            boolean noted = r.out().contains("note: policies.cta-scheduler: affinity on machine coda-big:");
            assertEquals(study.getFileName().toString().equals("coda.yaml"), noted, () -> study + "\n" + r);
        }
    }

    @Test
    void theSameStudyAndSeedGiveTheSameTableWithOneOrTwoThreads(@TempDir Path dir) throws Exception {
        Path study = Studies.tiny(dir, "twice", "local", "interleave", "ratio");
        Path one = dir.resolve("one"), two = dir.resolve("two");
        Hmsim.Result r1 = Hmsim.run(container, "run", study.toString(), "--out", one.toString(), "--jobs", "1");
        assertEquals(0, r1.code(), () -> Studies.errors(r1, one));
        Hmsim.Result r2 = Hmsim.run(container, "run", study.toString(), "--out", two.toString(), "--jobs", "2");
        assertEquals(0, r2.code(), () -> Studies.errors(r2, two));
        assertEquals(Files.readString(one.resolve("runs.csv")), Files.readString(two.resolve("runs.csv")));
    }

    @Test
    void anUnknownPolicyIsRefusedWithItsFileAndLineBeforeAnythingRuns(@TempDir Path dir) throws Exception {
        Path study = Hmsim.write(dir.resolve("typo.yaml"),
                "study: typo",
                "machine: " + Hmsim.smallMachine(),
                "workloads: [stream]",
                "policies:",
                "  placement: locl");
        Path out = dir.resolve("results");

        Hmsim.Result r = Hmsim.run(container, "run", study.toString(), "--out", out.toString());

        assertNotEquals(0, r.code(), r::toString);
        assertLocated(r, study, "locl");
        assertFalse(Files.exists(out), "nothing is written for a study that does not validate");
        assertEquals(r.code(), Hmsim.run(container, "validate", study.toString()).code(), "validate agrees with run");
    }

    @Test
    void aParameterOutOfRangeIsRefusedWithItsFileAndLine(@TempDir Path dir) throws Exception {
        Path study = Hmsim.write(dir.resolve("range.yaml"),
                "study: range",
                "machine: " + Hmsim.smallMachine(),
                "workloads:",
                "  - { name: stream, threads: 4096 }");
        Hmsim.Result r = Hmsim.run(container, "validate", study.toString());
        assertNotEquals(0, r.code(), r::toString);
        assertLocated(r, study, "4096");
        assertTrue(r.err().contains("threads"), "the field is named\n" + r);
    }

    /** A bare number for a time: below its range it was "out of range [1ns, 1s]" (taken as ps), above it "has no unit" (a trial). */
    @Test
    void aBareTimeIsSaidToHaveNoUnitWhateverItsSize(@TempDir Path dir) throws Exception {
        for (String v : new String[] {"40", "40000"}) {
            Path study = Hmsim.write(dir.resolve("bare" + v + ".yaml"), "study: bare", "machine: " + Hmsim.examples().resolve("machines/etc.yaml"),
                    "workloads: [etc-atax]", "policies:", "  throttling: {name: etc, mode: \"on\", detect_epoch: " + v + "}");
            Hmsim.Result r = Hmsim.run(container, "validate", study.toString());
            assertEquals(2, r.code(), r::toString);
            assertTrue(r.err().contains("policies.throttling.detect_epoch: '" + v + "' has no unit"), r::toString);
        }
    }

    @Test
    void aYamlSyntaxErrorIsLocated(@TempDir Path dir) throws Exception {
        Path study = Hmsim.write(dir.resolve("syntax.yaml"),
                "study: syntax",
                "workloads: [stream",
                "seed: 1");
        Hmsim.Result r = Hmsim.run(container, "validate", study.toString());
        assertNotEquals(0, r.code(), r::toString);
        assertTrue(r.err().matches("(?s).*syntax\\.yaml:\\d+.*"), "file:line in\n" + r);
    }

    @Test
    void aMissingStudyFileIsABadInput(@TempDir Path dir) throws Exception {
        Hmsim.Result r = Hmsim.run(container, "run", dir.resolve("nowhere.yaml").toString());
        assertNotEquals(0, r.code(), r::toString);
        assertTrue(r.err().contains("nowhere.yaml"), r::toString);
    }

    /** The error names the file and the line holding {@code text}. */
    static void assertLocated(Hmsim.Result r, Path study, String text) throws Exception {
        int line = Hmsim.lineOf(study, text);
        String where = study.getFileName() + ":" + line + ":";
        assertTrue(r.err().contains(where), "error located at " + where + "\n" + r);
    }
}
