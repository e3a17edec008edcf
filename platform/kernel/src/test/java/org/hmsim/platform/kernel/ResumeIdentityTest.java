package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hmsim.platform.kernel.results.Environment;
import org.hmsim.platform.kernel.results.FolderLock;
import org.junit.jupiter.api.Test;

/** What tells one execution's results from another's: the folder's lock, the workload file's contents, study.json. */
class ResumeIdentityTest extends ResultsCli {
    @Test
    void aFolderAnotherExecutionWritesIntoIsRefused() throws Exception {
        try (FolderLock held = FolderLock.acquire(out)) {
            assertOneLineError(run(), "another hmsim run is writing into " + out);
        }
        assertEquals(0, run(), "the lock is free again once its holder ends");
    }

    @Test
    void resumeRefusesRunsOfAChangedWorkloadFile() throws Exception {
        String file = """
                name: w
                params:
                  n: {default: 1024, min: 32, max: 1048576}
                allocations:
                  - {name: x, size: "n*4"}
                kernels:
                  - name: k
                    grid: 4
                    block: 32
                    steps:
                      - load: {alloc: x, strided: {stride: 1}}
                      - compute: {cycles: 2}
                """;
        Fakes.write(dir, "studies/w.yaml", file);
        study = Fakes.write(dir, "studies/s.yaml", "study: s\nseeds: [1, 2]\nmachine: ../machines/small.yaml\nworkloads: [{file: w.yaml}]\n");
        assertEquals(0, run());
        Files.delete(out.resolve("runs/0002/stats.json"));
        Fakes.write(dir, "studies/w.yaml", file.replace("cycles: 2", "cycles: 200"));
        assertOneLineError(run("--resume"), "workload.file_sha256: ");
        Fakes.write(dir, "studies/w.yaml", file);
        assertEquals(0, run("--resume"), err());

        // the same file as a program of a mix: its contents identify the run too (a review found a mix's resume keeping stale results)
        study = Fakes.write(dir, "studies/s.yaml", "study: s\nseeds: [1, 2]\nmachine: ../machines/small.yaml\nworkloads: [{mix: [{file: w.yaml}], label: one}]\n");
        assertEquals(0, run(), err());
        Files.delete(out.resolve("runs/0002/stats.json"));
        Fakes.write(dir, "studies/w.yaml", file.replace("cycles: 2", "cycles: 200"));
        assertOneLineError(run("--resume"), "workload.programs.p0.file_sha256: ");
    }

    /** The timing model is the kernel bundle's: a resume after rebuilding it mixed two builds' runs (an artifact-evaluation trial). */
    @Test
    void resumeRefusesAFolderAnotherHmsimBuildWrote() throws Exception {
        assertEquals(0, run());
        Files.delete(out.resolve("runs/0002/stats.json"));
        String json = Files.readString(out.resolve("study.json"));
        String version = org.hmsim.platform.kernel.results.Environment.classpath().hmsimVersion();
        Files.writeString(out.resolve("study.json"), json.replace("\"hmsim_version\" : \"" + version + "\"", "\"hmsim_version\" : \"0.1.0.202611011200\""));
        org.junit.jupiter.api.Assertions.assertNotEquals(json, Files.readString(out.resolve("study.json")), "the version was replaced");
        assertOneLineError(run("--resume"), "holds runs of another hmsim build (hmsim_version 0.1.0.202611011200 then, " + version + " now)");
        assertEquals(0, run(), "without --resume the earlier runs move aside");
    }

    /**
     * A policy bundle's version qualifier is its build time: resuming after rebuilding the tree said the folder held
     * "results of another version of" the unchanged study. It is another build, and the bundle is named.
     */
    @Test
    void resumeAfterRebuildingAPolicyBundleNamesTheBuildNotTheStudy() throws Exception {
        bundle = "org.hmsim.fake 0.1.0.202611300450";
        assertEquals(0, run());
        Files.delete(out.resolve("runs/0002/stats.json"));
        bundle = "org.hmsim.fake 0.1.0.202611300455";
        assertOneLineError(run("--resume"), "--resume: " + out + " holds runs of another hmsim build (bundle org.hmsim.fake, whose placement policy"
                + " run 0001 used: 0.1.0.202611300450 then, 0.1.0.202611300455 now): its runs and this build's would be mixed; run without --resume");
        assertTrue(!err().contains("another version of"), err());
        // a full rebuild: the kernel's version and the policy's bundle both named, as one build
        environment = built("0.1.0.202611300455", "");
        assertOneLineError(run("--resume"), "holds runs of another hmsim build (hmsim_version " + Environment.classpath().hmsimVersion()
                + " then, 0.1.0.202611300455 now; bundle org.hmsim.fake, whose placement policy run 0001 used: 0.1.0.202611300450 then,");
        environment = Environment.classpath();
        // another release, or another bundle, is no build of the same one: named as such, still not the study's change
        bundle = "org.hmsim.fake 0.2.0.202611300455";
        assertOneLineError(run("--resume"), "holds runs made with other bundles (run 0001's placement policy came from org.hmsim.fake"
                + " 0.1.0.202611300450 then, org.hmsim.fake 0.2.0.202611300455 now)");
        // a changed study is still said as such, before the build
        bundle = "org.hmsim.fake 0.1.0.202611300455";
        study(8192);
        Files.writeString(out.resolve("runs/0002/stats.json"), "{}"); // run 0002 (bfs) done, so its changed nodes show
        assertOneLineError(run("--resume"), "holds results of another version of " + study + " (run 0002: workload.params.nodes: 4096 then, 8192 now)");
        Files.delete(out.resolve("runs/0002/stats.json"));
        study(4096);
        bundle = "org.hmsim.fake 0.1.0.202611300450";
        assertEquals(0, run("--resume"), err());
    }

    /**
     * The build was told by hmsim_version alone, to the minute: two builds of one minute from other sources (or a clean and
     * a -dirty build of one commit) were mixed by --resume. study.json's source_commit is compared too.
     */
    @Test
    void resumeRefusesAFolderBuiltFromAnotherSource() throws Exception {
        environment = built("v1-3-gabcdef012345");
        assertEquals(0, run());
        Files.delete(out.resolve("runs/0002/stats.json"));
        environment = built("v1-3-gabcdef012345-dirty");
        assertOneLineError(run("--resume"), "--resume: " + out + " holds runs of another hmsim build (source_commit v1-3-gabcdef012345 then,"
                + " v1-3-gabcdef012345-dirty now): its runs and this build's would be mixed");
        // a build that knows no commit (built without git, or a kernel outside OSGi) cannot be told by one: the version decides
        environment = built("");
        assertEquals(0, run("--resume"), err());
        Files.delete(out.resolve("runs/0002/stats.json"));
        // a study.json of a build that recorded no commit says nothing of it
        environment = built("v1-3-gabcdef012345");
        String json = Files.readString(out.resolve("study.json"));
        Files.writeString(out.resolve("study.json"), json.replaceFirst("\"source_commit\" : \"[^\"]*\",", ""));
        org.junit.jupiter.api.Assertions.assertNotEquals(json, Files.readString(out.resolve("study.json")), "the commit was removed");
        assertEquals(0, run("--resume"), err());
        environment = built("");
        Files.delete(out.resolve("runs/0002/stats.json"));
        assertEquals(0, run("--resume"), err());
    }

    /** The classpath's build, from {@code commit}. */
    private static Environment built(String commit) { return built(Environment.classpath().hmsimVersion(), commit); }

    /** A build of {@code version} from {@code commit}. */
    private static Environment built(String version, String commit) {
        return new Environment() {
            public String hmsimVersion() { return version; }

            public String sourceCommit() { return commit; }

            public java.util.List<BundleInfo> bundles() { return java.util.List.of(); }
        };
    }

    @Test
    void resumeRefusesAFolderWhoseStudyJsonIsDamaged() throws Exception {
        assertEquals(0, run());
        Files.writeString(out.resolve("study.json"), "{\"study\" : \"s\", \"study_sha");
        // a study.json that cannot be read claims nothing: the folder is refused before anything changes
        byte[] table = bytes(out.resolve("runs.csv"));
        assertOneLineError(run("--resume"), "study.json");
        org.junit.jupiter.api.Assertions.assertArrayEquals(table, bytes(out.resolve("runs.csv")));
    }

    @Test
    void anEmptyOutIsRefused() throws Exception {
        assertOneLineError(exec("run", study.toString(), "--out", ""), "--out: empty");
    }

    @Test
    void statusOfALocalExecutionNobodyHoldsSaysResumeContinuesIt() throws Exception {
        assertEquals(0, run());
        Files.delete(out.resolve("runs/0002/stats.json"));
        Files.delete(out.resolve("runs.csv"));
        assertEquals(0, exec("status", out.toString()));
        org.junit.jupiter.api.Assertions.assertTrue(out().contains("no execution is writing here (interrupted?)"), out());
        // run 0002 was begun (config.json) and never ended: with nobody holding the folder it is not "running" (an audit)
        org.junit.jupiter.api.Assertions.assertTrue(out().contains("1 interrupted") && out().contains("  interrupted 0002 ")
                && !out().contains("running 0002"), out());
        // with its label from config.json (a local folder's study.json lists none; a review saw "interrupted 0002  (begun")
        org.junit.jupiter.api.Assertions.assertTrue(!out().contains("interrupted 0002  (") && out().contains("interrupted 0002 bfs"), out());
        try (FolderLock held = FolderLock.acquire(out)) {
            assertEquals(0, exec("status", out.toString()));
            org.junit.jupiter.api.Assertions.assertTrue(out().contains("assembled when every run has ended"), out());
            org.junit.jupiter.api.Assertions.assertTrue(out().contains("  running 0002 ") && !out().contains("interrupted"), out());
        }
    }

    /** A stats.json cut short is not counted as done (status said done while --resume redid the run). */
    @Test
    void statusCallsACutShortStatsJsonDamaged() throws Exception {
        assertEquals(0, run());
        Path stats = out.resolve("runs/0001/stats.json");
        String whole = Files.readString(stats);
        Files.writeString(stats, whole.substring(0, whole.length() / 2));
        assertEquals(0, exec("status", out.toString()));
        org.junit.jupiter.api.Assertions.assertTrue(out().contains("1 damaged") && out().contains("  damaged 0001 ")
                && out().contains("is cut short") && out().contains("--resume runs it again")
                && out().contains("runs.csv: assembled, but 1 run(s) damaged since they ended: hmsim run STUDY --out " + out + " --resume runs them again"), out());
        // cut just after an inner object's brace: still cut short
        int inner = whole.indexOf("\n  }");
        org.junit.jupiter.api.Assertions.assertTrue(inner > 0, whole);
        Files.writeString(stats, whole.substring(0, inner + 4));
        assertEquals(0, exec("status", out.toString()));
        org.junit.jupiter.api.Assertions.assertTrue(out().contains("  damaged 0001 "), out());
        // whole, with trailing blank lines: done (63 of them leave only the brace in a 64-byte window: a review)
        for (int blanks : new int[] {63, 80}) {
            Files.writeString(stats, whole.stripTrailing() + "\n".repeat(blanks));
            assertEquals(0, exec("status", out.toString()));
            org.junit.jupiter.api.Assertions.assertTrue(!out().contains("damaged"), blanks + ": " + out());
        }
        // whole but compact (rewritten by a script): done, as --resume takes it; cut short after an inner brace: damaged
        String compact = whole.replaceAll("\\s*\n\\s*", "");
        Files.writeString(stats, compact);
        assertEquals(0, exec("status", out.toString()));
        org.junit.jupiter.api.Assertions.assertTrue(!out().contains("damaged"), out());
        Files.writeString(stats, compact.substring(0, compact.indexOf('}') + 1));
        assertEquals(0, exec("status", out.toString()));
        org.junit.jupiter.api.Assertions.assertTrue(out().contains("  damaged 0001 "), out());
        Files.writeString(stats, whole.substring(0, whole.length() / 2));
        assertEquals(0, run("--resume"));
        assertEquals(0, exec("status", out.toString()));
        org.junit.jupiter.api.Assertions.assertTrue(!out().contains("damaged") && out().contains("runs.csv: assembled"), out());
    }

    @Test
    void aLongChangedValueIsShownWhereItFirstDiffers() throws Exception {
        assertEquals(0, run());
        Path machine = dir.resolve("machines/small.yaml");
        Files.writeString(machine, Fakes.MACHINE.replace("bandwidth: 40GB/s", "bandwidth: 41GB/s"));
        assertOneLineError(run("--resume"), "41GB");
    }
}
