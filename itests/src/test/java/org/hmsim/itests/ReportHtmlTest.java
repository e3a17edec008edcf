package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reports (issue "Reports and plots"): {@code hmsim run} ends with report.html and figures/; the study's
 * {@code report:} figures are drawn; a bad figure is refused with a located error; {@code compare} exits
 * 0 or 1; and the page renders in headless Chromium with every figure present and no script error.
 */
class ReportHtmlTest extends ContainerPerClass {
    @TempDir static Path dir;
    static Path results;
    static Hmsim.Result run;

    @BeforeAll
    static void runAStudy() throws Exception {
        Path study = study(dir, "figures", "");
        results = dir.resolve("results");
        run = Hmsim.run(container, "run", study.toString(), "--out", results.toString(), "--jobs", "2");
    }

    /** A small ratio sweep that names one figure of each kind. */
    static Path study(Path where, String name, String overrides) throws IOException {
        return Hmsim.write(where.resolve(name + ".yaml"),
                "study: " + name,
                "seed: 3",
                "machine: " + Hmsim.smallMachine(),
                overrides,
                "workloads:",
                "  - { name: stream, elements: 8192, ctas: 8, threads: 128 }",
                "policies:",
                "  placement: ratio",
                "sweep:",
                "  policies.placement.fast_percent: [100, 50, 0]",
                "epoch: 1us",
                "report:",
                "  - {metric: sim_time_ns, normalise_to: {fast_percent: 100}, by: workload}",
                "  - {metric: pool.*.bandwidth_gbps, x: policies.placement.fast_percent}",
                "  - {kind: stacked, metrics: [pool.gddr.bytes, pool.ddr.bytes], by: workload}",
                "  - {kind: timeseries, runs: ['0001']}");
    }

    @Test
    void runWritesTheReportWithTheStudysFigures() throws Exception {
        assertEquals(0, run.code(), () -> Studies.errors(run, results));
        assertTrue(run.out().contains("report: " + results.resolve("report.html")), run.toString());
        List<String> ids = figureIds(Files.readString(results.resolve("report.html"), StandardCharsets.UTF_8));
        // 1 bar + 2 lines (one per pool) + 1 stack + 1 time series
        assertEquals(5, ids.size(), ids.toString());
        for (String id : ids)
            for (String ext : new String[] {".svg", ".png"})
                assertTrue(Files.size(results.resolve("figures").resolve(id + ext)) > 1000, id + ext);

        Path elsewhere = dir.resolve("again");
        Hmsim.Result r = Hmsim.run(container, "report", results.toString(), "--out", elsewhere.toString());
        assertEquals(0, r.code(), r.toString());
        assertEquals(ids, figureIds(Files.readString(elsewhere.resolve("report.html"), StandardCharsets.UTF_8)), "hmsim report draws the same figures");
        assertEquals(2, Hmsim.run(container, "report", dir.resolve("nothing").toString()).code(), "not a results folder");
    }

    @Test
    void aBadFigureIsRefusedWithItsLine() throws Exception {
        Path bad = Hmsim.write(dir.resolve("bad.yaml"),
                "study: bad",
                "machine: " + Hmsim.smallMachine(),
                "workloads: [stream]",
                "report:",
                "  - {metric: ipc, x: pools.ddr.bandwidth}");
        Hmsim.Result r = Hmsim.run(container, "validate", bad.toString());
        assertEquals(2, r.code(), r.toString());
        assertTrue(r.err().contains(bad + ":5:") && r.err().contains("report[0].x:"), r.toString());
    }

    @Test
    void compareExitsZeroWhenNothingMovedAndOneWhenSomethingDid() throws Exception {
        assertEquals(0, run.code(), () -> Studies.errors(run, results));
        Path same = dir.resolve("same"), slower = dir.resolve("slower");
        Hmsim.Result r1 = Hmsim.run(container, "run", study(dir, "figures", "").toString(), "--out", same.toString(), "--no-report");
        assertEquals(0, r1.code(), r1.toString());
        assertFalse(Files.exists(same.resolve("report.html")), "--no-report");
        Hmsim.Result c0 = Hmsim.run(container, "compare", results.toString(), same.toString());
        assertEquals(0, c0.code(), c0.toString());
        assertTrue(Files.isRegularFile(same.resolve("compare/report.html")));

        Path s2 = study(dir.resolve("b"), "figures", "overrides: { pools.ddr.bandwidth: 10GB/s }");
        Hmsim.Result r2 = Hmsim.run(container, "run", s2.toString(), "--out", slower.toString(), "--no-report");
        assertEquals(0, r2.code(), r2.toString());
        Hmsim.Result c1 = Hmsim.run(container, "compare", results.toString(), slower.toString(), "--tolerance", "0.02");
        assertEquals(1, c1.code(), c1.toString());
        assertTrue(c1.out().contains("moved: run 0003") && c1.out().contains("sim_time_ns"), "the run all in DDR moved\n" + c1);
    }

    @Test
    void chromiumRendersEveryFigureWithoutAScriptError() throws Exception {
        assertEquals(0, run.code(), () -> Studies.errors(run, results));
        String chromium = chromium();
        Assumptions.assumeTrue(chromium != null, "no chromium on PATH (nor -Dhmsim.chromium): skipping the browser check; .ci/run installs it");
        Path html = results.resolve("report.html");
        List<String> ids = figureIds(Files.readString(html, StandardCharsets.UTF_8));

        Path shot = Path.of("target", "report-screenshot.png").toAbsolutePath();
        Files.deleteIfExists(shot);
        Browser b1 = browse(chromium, "--screenshot=" + shot, "--window-size=1400,3000", html.toUri().toString());
        assertTrue(Files.isRegularFile(shot) && Files.size(shot) > 10_000, "screenshot " + shot + "\n" + b1.err);

        Browser b2 = browse(chromium, "--enable-logging=stderr", "--v=0", "--dump-dom", html.toUri().toString());
        for (String id : ids) {
            Matcher m = Pattern.compile("<figure class=\"figure\" id=\"" + Pattern.quote(id) + "\"[^>]*>\\s*<svg").matcher(b2.out);
            assertTrue(m.find(), "figure " + id + " with its SVG in the rendered page");
        }
        assertTrue(b2.out.contains("title=\"click to sort\""), "the table script ran");
        List<String> problems = new ArrayList<>();
        for (String line : b2.err.split("\\R"))
            if (line.contains("Uncaught") || line.contains("CONSOLE") && line.toLowerCase().contains("error")) problems.add(line);
        assertEquals(List.of(), problems, "the page logged errors");
    }

    static List<String> figureIds(String html) {
        List<String> ids = new ArrayList<>();
        Matcher m = Pattern.compile("<figure class=\"figure\" id=\"([^\"]+)\"").matcher(html);
        while (m.find()) ids.add(m.group(1));
        return ids;
    }

    record Browser(String out, String err) {}

    /** Runs headless Chromium offline (no network features, its own profile folder), up to 2 minutes. */
    static Browser browse(String chromium, String... args) throws Exception {
        Path profile = Files.createTempDirectory(dir, "chromium");
        List<String> cmd = new ArrayList<>(List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir=" + profile));
        cmd.addAll(List.of(args));
        Path out = dir.resolve("chromium.out"), err = dir.resolve("chromium.err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish in 2 minutes: " + cmd);
        }
        return new Browser(Files.readString(out), Files.readString(err));
    }

    /** -Dhmsim.chromium, else chromium, chromium-browser or google-chrome on PATH; null if none. */
    static String chromium() {
        String given = System.getProperty("hmsim.chromium");
        if (given != null && !given.isBlank()) return given;
        for (String dirName : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
            for (String name : new String[] {"chromium", "chromium-browser", "google-chrome"}) {
                Path p = Path.of(dirName, name);
                if (Files.isExecutable(p)) return p.toString();
            }
        return null;
    }
}
