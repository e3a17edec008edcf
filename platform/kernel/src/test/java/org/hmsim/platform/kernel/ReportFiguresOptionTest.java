package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A figure added after the runs: editing report: and running report again drew the recorded figures (exit 0), and
 * --resume refused the edited file, so only a new simulation drew it (a paper-figures trial). report --figures STUDY draws
 * that file's report: list, validated as run validates it.
 */
class ReportFiguresOptionTest extends ResultsCli {
    private static final String STUDY = "study: s\nmachine: ../machines/small.yaml\nworkloads: [stream, {name: bfs, nodes: 4096}]\n";

    @Test
    void aReportListEditedAfterTheRunsIsDrawnWithoutRunningThemAgain() throws Exception {
        study = Fakes.write(dir, "studies/s.yaml", STUDY + "report: [{metric: sim_time_ns, by: workload}]\n");
        assertEquals(0, run(), err());
        Path edited = Fakes.write(dir, "studies/s2.yaml", STUDY + "report: [{metric: sim_time_ns, by: workload}, {metric: l2_hit_rate, by: workload}]\n");
        assertEquals(0, exec("report", out.toString(), "--figures", edited.toString()), err());
        assertTrue(out().contains("(2 figures"), out());
        assertTrue(!err().contains("now plans"), "the same runs: no note");
        try (var files = Files.list(out.resolve("figures"))) {
            assertTrue(files.anyMatch(f -> f.getFileName().toString().contains("l2_hit_rate")), "the added figure is drawn");
        }
        // a study that now plans other runs draws the folder's runs, and says so (a newcomer's trial)
        Path more = Fakes.write(dir, "studies/s4.yaml", STUDY.replace("[stream, {name: bfs, nodes: 4096}]", "[stream, {name: bfs, nodes: 4096}, {name: bfs, nodes: 8192}]")
                + "report: [{metric: sim_time_ns, by: workload}]\n");
        assertEquals(0, exec("report", out.toString(), "--figures", more.toString()), err());
        assertTrue(err().contains("now plans 1 machine x 3 workloads") && err().contains("holds 1 machine x 2 workloads"), err());

        Path bad = Fakes.write(dir, "studies/s3.yaml", STUDY + "report: [{metric: sim_time_ns, by: wokload}]\n");
        assertEquals(2, exec("report", out.toString(), "--figures", bad.toString()));
        assertTrue(err().contains("s3.yaml:4:") && err().contains("report[0].by"), "located as validate locates it: " + err());
        Path other = Fakes.write(dir, "studies/o.yaml", STUDY.replace("study: s", "study: other") + "report: [{metric: ipc, by: workload}]\n");
        assertEquals(2, exec("report", out.toString(), "--figures", other.toString()));
        assertTrue(err().contains("it is study other, the results are study s's"), err());
    }
}
