package org.hmsim.platform.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

class ReportTest {
    @TempDir Path dir;

    @Test
    void defaultReportHasEveryFigureInlineAndAsSvgAndPng() throws Exception {
        Synthetic.folder(dir, null);
        Report.Summary s = Report.write(dir, dir);

        String html = Files.readString(s.html(), StandardCharsets.UTF_8);
        // Defaults: sim_time/ipc bars (normalised), l1 hit rate, 2 pool bandwidths, traffic shares,
        // a line per (swept bandwidth x {sim_time, 2 pool bandwidths}), 2 time series (the runs that have one).
        assertEquals(2 + 1 + 2 + 1 + 3 + 2, s.figures(), html.length() + " chars");
        int csvs = 0;
        for (Path f : s.figureFiles())
            if (f.toString().endsWith(".csv")) {
                csvs++;
                String head = f.toString().contains("-timeseries-") ? "panel,series,time_us,value\n" : "series,";
                assertTrue(Files.readString(f).startsWith(head), f + ": the figure's numbers");
            } else assertTrue(Files.size(f) > 1000, f + " written");
        assertEquals(s.figures(), csvs, "every figure has its numbers in a CSV, the time series too");
        assertTrue(Files.readString(dir.resolve("figures/fig-01-bar-sim_time_ns.csv")).contains("\ninterleave bandwidth=40GB/s,stream,0.5\n"),
                "the numbers behind the speedup bars");
        // run 0001's time series as drawn: 1000 B of gddr per 100 ns epoch = 10 GB/s; L1 10 hits of 40 accesses
        Path series;
        try (var found = Files.list(dir.resolve("figures"))) {
            series = found.filter(p -> p.getFileName().toString().matches("fig-\\d+-timeseries-run0001\\.csv")).findFirst().orElseThrow();
        }
        List<String> rows = Files.readAllLines(series);
        assertTrue(rows.contains("bandwidth (GB/s),gddr,0.1,10") && rows.contains("bandwidth (GB/s),ddr,0.5,5"), rows.toString());
        assertTrue(rows.contains("hit rate (0..1),gpu0 L1 hit rate,0.3,0.25") && rows.contains("hit rate (0..1),gpu0 L2 hit rate,0.2,0.16666666666666666"), rows.toString());
        assertEquals(1 + 5 * 4, rows.size(), "5 epochs of 2 pools and 2 hit rates (the link's wire bytes are not drawn)");
        Matcher m = Pattern.compile("<figure class=\"figure\" id=\"([^\"]+)\"").matcher(html);
        int figures = 0;
        while (m.find()) {
            figures++;
            String id = m.group(1);
            assertTrue(Files.isRegularFile(dir.resolve("figures").resolve(id + ".svg")), id);
            byte[] png = Files.readAllBytes(dir.resolve("figures").resolve(id + ".png"));
            assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4), id + ".png is a PNG");
            Document svg = parse(Files.readAllBytes(dir.resolve("figures").resolve(id + ".svg")));
            assertEquals("svg", svg.getDocumentElement().getNodeName());
            assertTrue(svg.getDocumentElement().getAttribute("viewBox").startsWith("0 0 "));
        }
        assertEquals(s.figures(), figures);
        assertEquals(figures, count(html, "<svg "), "every figure inline as SVG");

        // Self-contained: no resource from anywhere (namespace names in SVG are not fetched).
        String noNamespaces = html.replaceAll("xmlns(:\\w+)?='[^']*'", "");
        assertFalse(noNamespaces.contains("http://") || noNamespaces.contains("https://"), "no URL in the page");
        assertFalse(html.contains("<link") || html.contains("<script src") || html.contains("<img src=\"http"));
        assertTrue(html.contains("<style>") && html.contains("table.sortable"), "inline CSS and sort script");

        assertTrue(html.contains("baseline = 1.0"), "normalised charts draw the baseline");
        assertTrue(html.contains("geomean"));
        assertTrue(html.contains("relative to the same workload with placement=local bandwidth=40GB/s"), "captions say what the baseline is");
        // Failed runs with their error (escaped) and provenance.
        assertTrue(html.contains("run 0008") && html.contains("MSHR &lt;overflow&gt; &amp; co"), "failed run's error text");
        for (String p : List.of("9.9.9", "abc123", "org.hmsim.kernel", "org.hmsim.api", "study_sha256", "java_version", "seeds"))
            assertTrue(html.contains(p), "provenance shows " + p);
        assertTrue(html.contains("placement: local \u2192 interleave"), "the swap of run 0001 is marked on its time series");
    }

    /** A resumed folder's provenance is shown in full (it was in study.json only: an artifact evaluator's trial). */
    @Test
    void theProvenanceShowsHowTheFolderWasMade() throws Exception {
        Synthetic.folder(dir, "[{\"kind\":\"timeseries\",\"runs\":[1]}]");
        Path study = dir.resolve("study.json");
        Files.writeString(study, Files.readString(study).replace("\"status\":\"finished\"", "\"status\":\"finished\",\"source_commit\":\"v1-3-gabcdef0\","
                + "\"first_started\":\"2026-11-30T00:00:00Z\",\"executions\":3,\"replay_swaps_from\":\"/data/recorded\",\"finished\":null"));
        String html = Files.readString(Report.write(dir, dir, null).html());
        for (String p : List.of("v1-3-gabcdef0", "first_started", "2026-11-30T00:00:00Z", "executions", "/data/recorded"))
            assertTrue(html.contains(p), "provenance shows " + p);
        assertFalse(html.contains("<dt>finished</dt>"), "a value not recorded (null) is left out");
    }

    @Test
    void theStudysOwnFiguresReplaceTheDefaults() throws Exception {
        Synthetic.folder(dir, "[{\"metric\":\"sim_time_ns\",\"normalise_to\":{\"placement\":\"local\"},\"by\":\"workload\"},"
                + "{\"metric\":\"pool.*.bandwidth_gbps\",\"x\":\"pools.ddr.bandwidth\"},"
                + "{\"kind\":\"stacked\",\"metrics\":[\"pool.gddr.bytes\",\"pool.ddr.bytes\"]},"
                + "{\"kind\":\"timeseries\",\"runs\":[1]},{\"metric\":\"no_such_metric\"}]");
        Report.Summary s = Report.write(dir, dir.resolve("out"));
        assertEquals(1 + 2 + 1 + 1, s.figures());
        assertEquals(List.of("report[4]: no metric no_such_metric in runs.csv"), s.warnings());
        assertTrue(Files.isRegularFile(dir.resolve("out/figures/fig-04-timeseries-run0001.svg")));
        assertTrue(Files.readString(s.html()).contains("no metric no_such_metric"), "warnings are shown");
    }

    /**
     * A damaged time series or swap record is named in the warnings (file, line, column) while the rest is drawn (found by
     * an audit: the figure lost points, or the swap marker vanished, without a word).
     */
    @Test
    void damagedTimeSeriesAndSwapsAreWarnedAbout() throws Exception {
        Synthetic.folder(dir, "[{\"kind\":\"timeseries\",\"runs\":[1]}]");
        Path run = dir.resolve("runs/0001");
        List<String> series = Files.readAllLines(run.resolve("timeseries.csv"));
        series.set(2, "garbage" + series.get(2).substring(series.get(2).indexOf(',')));
        Files.write(run.resolve("timeseries.csv"), series);
        List<String> swaps = Files.readAllLines(run.resolve("swaps.csv"));
        swaps.set(1, "abc" + swaps.get(1).substring(swaps.get(1).indexOf(',')));
        Files.write(run.resolve("swaps.csv"), swaps);
        Report.Summary s = Report.write(dir, dir.resolve("out"));
        assertEquals(List.of(run.resolve("timeseries.csv") + " line 3: time_ns is 'garbage', not a number (left out of the figures)",
                run.resolve("swaps.csv") + " line 2: sim_time_ns is 'abc', not a number (left out of the figures)"), s.warnings());
        assertEquals(1, s.figures(), "the rest is still drawn");
    }

    /** The same results give the same figure bytes whatever the machine's locale ("0,1" on a German one; a determinism review). */
    @Test
    void figuresDoNotDependOnTheLocale() throws Exception {
        Synthetic.folder(dir, null);
        java.util.Locale before = java.util.Locale.getDefault();
        try {
            Report.write(dir, dir.resolve("en"));
            java.util.Locale.setDefault(java.util.Locale.GERMANY);
            Report.write(dir, dir.resolve("de"));
        } finally {
            java.util.Locale.setDefault(before);
        }
        List<String> en, de;
        try (var files = Files.list(dir.resolve("en/figures")); var other = Files.list(dir.resolve("de/figures"))) {
            en = files.map(f -> f.getFileName().toString()).sorted().toList();
            de = other.map(f -> f.getFileName().toString()).sorted().toList();
        }
        assertEquals(en, de, "the same figure files");
        // the drawings and the numbers behind them (the CSVs), every one of them
        List<String> compared = en.stream().filter(n -> n.endsWith(".svg") || n.endsWith(".csv")).toList();
        assertEquals(2 * 11, compared.size(), "an SVG and a CSV for each of the default report's 11 figures: " + en);
        for (String n : compared)
            assertEquals(Files.readString(dir.resolve("en/figures").resolve(n)), Files.readString(dir.resolve("de/figures").resolve(n)), n);
    }

    @Test
    void aRerunLeavesNoStaleFigure() throws Exception {
        Synthetic.folder(dir, "[{\"metric\":\"ipc\"}]");
        Report.write(dir, dir);
        Files.writeString(dir.resolve("figures/fig-99-bar-old.svg"), "<svg/>");
        Report.Summary s = Report.write(dir, dir);
        try (var files = Files.list(dir.resolve("figures"))) {
            assertEquals(s.figures() * 3, files.count(), "svg, png and csv of each bar figure");
        }
    }

    @Test
    void aDamagedRunsTableIsRefusedNotReported() throws Exception {
        Synthetic.folder(dir, null);
        Path table = dir.resolve("runs.csv");
        String whole = Files.readString(table);
        // cut inside the last row, as an interrupted copy would
        Files.writeString(table, whole.substring(0, whole.stripTrailing().lastIndexOf(',')) + "\n");
        BadResultsException cut = org.junit.jupiter.api.Assertions.assertThrows(BadResultsException.class, () -> Report.write(dir, dir));
        assertTrue(cut.getMessage().startsWith(table + ": row "), cut.getMessage());
        assertTrue(cut.getMessage().contains("damaged or was cut short"), cut.getMessage());
        Files.writeString(table, whole + "garbage\"\n");
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(BadResultsException.class, () -> Report.write(dir, dir)).getMessage().contains("1 cells"));
        Files.writeString(table, whole);
        Report.write(dir, dir);
    }

    @Test
    void provenanceShowsStudyValuesInTheStudyFilesOwnNotation() {
        assertEquals("[{at: 50us, slot: placement, to: ratio}]", Report.flow(List.of(new java.util.LinkedHashMap<>(
                java.util.Map.of("at", "50us")) {{ put("slot", "placement"); put("to", "ratio"); }})));
        assertEquals("[] (none)", Report.flow(List.of()));
        assertEquals("7", Report.flow(7));
    }

    static Document parse(byte[] xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
    }

    static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) n++;
        return n;
    }
}
