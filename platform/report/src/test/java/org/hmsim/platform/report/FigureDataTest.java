package org.hmsim.platform.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FigureDataTest {
    @TempDir static Path dir;
    static Results r;

    @BeforeAll
    static void folder() throws Exception {
        r = Results.load(Synthetic.folder(dir, null));
    }

    private static FigureSpec spec(Map<String, Object> m) throws FigureSpecException { return FigureSpec.parse(m); }

    @Test
    void readsTheFolder() {
        assertEquals(8, r.runs().size());
        assertEquals(7, r.okRuns().size());
        assertEquals(List.of("workload", "slot.placement", "pools.ddr.bandwidth"), r.varying());
        assertEquals(List.of("pools.ddr.bandwidth"), r.sweepColumns());
        assertEquals("bfs(nodes=64,x=1)", r.runs().get(4).value("workload"), "quoted CSV cells");
        assertEquals(List.of("pool.gddr.bytes", "pool.ddr.bytes"), r.metricsMatching("pool.*.bytes"));
        assertTrue(r.errors().get("0008").contains("MSHR"));
    }

    @Test
    void timesNormalisedToAGivenPolicyAreSpeedupsWithAGeometricMean() throws Exception {
        FigureData.Computed c = FigureData.bars(r, "sim_time_ns", spec(Map.of("metric", "sim_time_ns", "normalise_to", Map.of("placement", "local"), "by", "workload")));
        Grid g = c.grid();
        assertEquals(List.of("stream", "bfs(nodes=64,x=1)", FigureData.GEOMEAN), g.categories());
        assertEquals(1.0, g.get("local bandwidth=40GB/s", "stream"), 1e-12);
        assertEquals(0.5, g.get("interleave bandwidth=40GB/s", "stream"), 1e-12, "interleave takes twice as long: speedup 0.5");
        assertEquals(0.5, g.get("interleave bandwidth=40GB/s", "bfs(nodes=64,x=1)"), 1e-12);
        assertTrue(Double.isNaN(g.get("interleave bandwidth=80GB/s", "bfs(nodes=64,x=1)")), "the failed run has no bar");
        assertEquals(0.5, g.get("interleave bandwidth=40GB/s", FigureData.GEOMEAN), 1e-12);
        assertTrue(c.valueLabel().startsWith("speedup over placement=local"), c.valueLabel());
        assertTrue(c.notes().contains("left out: 1 failed run (0008; see Failed runs)"), c.notes().toString());
    }

    @Test
    void aMetricThatIsZeroEverywhereSaysSoAndKeepsItsAxisAtZeroToOne() throws Exception {
        Grid g = new Grid();
        g.put("a", "stream", 0.0);
        g.put("a", "bfs", 0.0);
        g.put("b", "bfs", Double.NaN);
        assertTrue(Charts.allZero(g));
        g.put("b", "stream", 1e-9);
        assertFalse(Charts.allZero(g));
        assertFalse(Charts.allZero(new Grid()), "no value at all is not 'all zero'");
        FigureData.Computed zero = new FigureData.Computed(grid(0.0), "page_faults (count)", null, List.of());
        org.jfree.chart.JFreeChart chart = Charts.bars("t", "workload", zero);
        org.jfree.data.Range y = chart.getCategoryPlot().getRangeAxis().getRange();
        assertEquals(0.0, y.getLowerBound(), "no negative counts on the axis");
        assertEquals(1.0, y.getUpperBound());
    }

    private static Grid grid(double v) {
        Grid g = new Grid();
        g.put("all runs", "stream", v);
        return g;
    }

    @Test
    void theStudyBaselineIsTheFirstValueOfEveryVariedColumn() throws Exception {
        FigureData.Computed c = FigureData.bars(r, "sim_time_ns", FigureSpec.bars("sim_time_ns", true));
        Grid g = c.grid();
        assertEquals("placement=local bandwidth=40GB/s", c.baseline());
        assertEquals(1.0, g.get("local bandwidth=40GB/s", "stream"), 1e-12);
        assertEquals(2.0, g.get("local bandwidth=80GB/s", "stream"), 1e-12, "twice the DDR bandwidth, half the time");
        assertEquals(1.0, g.get("interleave bandwidth=80GB/s", "stream"), 1e-12);
        // ipc is not a time: normalised as a plain ratio, ipc = 1000/t, so the ratio equals the speedup.
        FigureData.Computed ipc = FigureData.bars(r, "ipc", FigureSpec.bars("ipc", true));
        assertEquals(2.0, ipc.grid().get("local bandwidth=80GB/s", "stream"), 1e-12);
        assertEquals(Maths.geomean(2.0, 2.0), ipc.grid().get("local bandwidth=80GB/s", FigureData.GEOMEAN), 1e-12);
    }

    @Test
    void aBaselineThatIsNotThereLeavesValuesAbsoluteWithANote() throws Exception {
        FigureData.Computed c = FigureData.bars(r, "sim_time_ns", spec(Map.of("metric", "sim_time_ns", "normalise_to", Map.of("placement", "first-fit"))));
        assertTrue(!c.normalised() && c.notes().get(0).contains("first-fit"), c.notes().toString());
        assertEquals(1000.0, c.grid().get("local bandwidth=40GB/s", "stream"), 1e-9);
    }

    @Test
    void whereKeepsOnlyTheNamedRuns() throws Exception {
        // where: {bandwidth: 40GB/s}: the bandwidth column no longer varies, so series are the placements alone.
        Planner p = new Planner();
        List<Figure> f = p.figures(r, List.of(spec(Map.of("metric", "sim_time_ns", "by", "workload",
                "normalise_to", Map.of("placement", "local"), "where", Map.of("bandwidth", "40GB/s")))));
        Grid g = f.get(0).data().grid();
        assertEquals(List.of("local", "interleave"), g.series());
        assertEquals(0.5, g.get("interleave", "stream"), 1e-12);
        assertTrue(p.warnings().isEmpty(), p.warnings().toString());
        // A list keeps several values; a policy matches by name; a value no run has is a warning.
        Planner q = new Planner();
        List<Figure> h = q.figures(r, List.of(spec(Map.of("metric", "sim_time_ns", "where",
                Map.of("placement", List.of("interleave", "first-fit"))))));
        assertEquals(List.of("bandwidth=40GB/s", "bandwidth=80GB/s"), h.get(0).data().grid().series());
        assertTrue(q.warnings().get(0).contains("first-fit"), q.warnings().toString());
    }

    /**
     * A timeseries figure with metrics overlays the runs' sampled columns: a counter as its change per microsecond over each
     * epoch, a level as sampled; a column no run has is a warning.
     */
    @Test
    void sampledSeriesOverlayTheRunsAsRatesOrLevels() throws Exception {
        Planner p = new Planner();
        List<Figure> f = p.figures(r, List.of(spec(Map.of("kind", "timeseries", "metrics", List.of("series.gpu0.l1_misses", "uvm.faults"),
                "runs", List.of("0001", "0002")))));
        assertEquals(1, f.size());
        org.jfree.data.xy.XYDataset d = f.get(0).chart().getXYPlot().getDataset();
        assertEquals(2, d.getSeriesCount(), "one line per run");
        // 30 misses more every 100 ns epoch: 300 per us, at 0.1, 0.2, ... us
        assertEquals(0.1, d.getXValue(0, 0), 1e-12);
        assertEquals(300, d.getYValue(0, 0), 1e-9);
        assertEquals(300, d.getYValue(1, 4), 1e-9);
        assertEquals(List.of("report[0]: no series uvm.faults in the runs' timeseries.csv"), p.warnings());
        List<String> csv = List.of(f.get(0).csv().split("\n"));
        assertEquals("panel,series,time_us,value", csv.get(0));
        assertEquals(1 + 2 * 5, csv.size(), "figures/<id>.csv: each run's five epochs, as drawn");
        assertTrue(csv.get(1).endsWith(",0.1,300") && csv.get(1).startsWith("series.gpu0.l1_misses per \u00b5s,run 0001 "), csv.get(1));
        Planner q = new Planner();
        org.jfree.data.xy.XYDataset levels = q.figures(r, List.of(spec(Map.of("kind", "timeseries", "metrics", List.of("series.gpu0.l1_misses"),
                "rate", false, "runs", List.of("0001"))))).get(0).chart().getXYPlot().getDataset();
        assertEquals(150, levels.getYValue(0, 4), 1e-9, "the value sampled at the fifth epoch's end");
        // A run named twice ("0001" and 1) and a column matched by two patterns are drawn once (JFreeChart refuses twins).
        Planner t = new Planner();
        List<Figure> twice = t.figures(r, List.of(spec(Map.of("kind", "timeseries", "metrics", List.of("series.gpu0.l1_misses", "series.gpu0.*"),
                "runs", List.of("0001", 1)))));
        assertEquals(4, twice.get(0).chart().getXYPlot().getDataset().getSeriesCount(), "run 0001's four gpu0 columns, once each");
        // where: that leaves no run is said so, not blamed on the columns
        Planner w = new Planner();
        assertTrue(w.figures(r, List.of(spec(Map.of("kind", "timeseries", "metrics", List.of("series.gpu0.l1_misses"),
                "where", Map.of("placement", "local", "bandwidth", "12GB/s"))))).isEmpty());
        assertTrue(w.warnings().stream().anyMatch(x -> x.contains("where: leaves none")), w.warnings().toString());
    }

    @Test
    void whereKeepsTheBaselinesRunsSoOnePolicyCanBeDrawnNormalised() throws Exception {
        // where: {placement: interleave} with normalise_to local: local's runs stay (its 1.0 bars), and the
        // interleave bars are speedups over them rather than absolute times.
        Planner p = new Planner();
        List<Figure> f = p.figures(r, List.of(spec(Map.of("metric", "sim_time_ns", "by", "workload",
                "normalise_to", Map.of("placement", "local"), "where", Map.of("placement", "interleave")))));
        FigureData.Computed c = f.get(0).data();
        assertTrue(c.normalised(), c.notes().toString());
        assertEquals(1.0, c.grid().get("local bandwidth=40GB/s", "stream"), 1e-12);
        assertEquals(0.5, c.grid().get("interleave bandwidth=40GB/s", "stream"), 1e-12);
    }

    @Test
    void sweptColumnsThatShareTheirLastPartAreToldApart() {
        List<String> dims = List.of("policies.residency.mode", "policies.throttling.mode", "pools.ddr.bandwidth");
        assertEquals("residency.mode=on", Columns.label("policies.residency.mode", "on", dims));
        assertEquals("bandwidth=40GB/s", Columns.label("pools.ddr.bandwidth", "40GB/s", dims));
        assertEquals("local", Columns.label("slot.placement", "local", dims));
    }

    @Test
    void linesOverASweptParameter() throws Exception {
        FigureData.Computed c = FigureData.lines(r, "sim_time_ns", spec(Map.of("metric", "sim_time_ns", "x", "bandwidth")));
        assertEquals(List.of("40GB/s", "80GB/s"), c.grid().categories());
        assertEquals(500.0, c.grid().get("stream local", "80GB/s"), 1e-9);
        assertEquals(8000.0, c.grid().get("bfs(nodes=64,x=1) interleave", "40GB/s"), 1e-9);
    }

    @Test
    void stackedSharesAddUpToOne() throws Exception {
        FigureData.Computed c = FigureData.stacks(r, r.metricsMatching("pool.*.bytes"), spec(Map.of("kind", "stacked", "metrics", List.of("pool.*.bytes"))));
        for (String cat : c.grid().categories())
            assertEquals(1.0, c.grid().get("pool.gddr.bytes", cat) + c.grid().get("pool.ddr.bytes", cat), 1e-12, cat);
        assertEquals(1.0, c.grid().get("pool.gddr.bytes", "stream \u00b7 local bandwidth=40GB/s"), 1e-12);
        assertEquals(0.5, c.grid().get("pool.ddr.bytes", "stream \u00b7 interleave bandwidth=40GB/s"), 1e-12);
    }

    @Test
    void aSlotColumnThatMirrorsASweptParameterIsNotASeparateDimension(@TempDir Path d) throws Exception {
        Results m = results(d, "run,status,workload,machine,slot.placement,policies.placement.fast_percent,seed,sim_time_ns",
                "0001,ok,stream,small,ratio(fast_percent=100),100,1,200",
                "0002,ok,stream,small,ratio(fast_percent=50),50,1,100",
                "0003,ok,stream,small,ratio(fast_percent=0),0,1,400");
        assertEquals(List.of("policies.placement.fast_percent"), m.varying());
        FigureData.Computed c = FigureData.bars(m, "sim_time_ns", spec(Map.of("metric", "sim_time_ns", "normalise_to", Map.of("fast_percent", 100))));
        assertEquals(2.0, c.grid().get("fast_percent=50", "stream"), 1e-12);
        assertEquals(0.5, c.grid().get("fast_percent=0", "stream"), 1e-12);
        FigureData.Computed l = FigureData.lines(m, "sim_time_ns", spec(Map.of("metric", "sim_time_ns", "x", "fast_percent")));
        assertEquals(List.of("stream"), l.grid().series(), "one line, not one point per policy label");
    }

    /**
     * A policy whose two parameters are swept: its slot column (etc(ratio=1.5,declared_ratios=true)) mirrors the pair, not
     * either alone. Counted as a dimension it split a line over ratio into one single-point "line" per run (found by a
     * reports review).
     */
    @Test
    void aSlotColumnThatMirrorsTwoSweptParametersIsNotASeparateDimension(@TempDir Path d) throws Exception {
        Results m = results(d, "run,status,workload,machine,slot.compression,policies.compression.ratio,policies.compression.declared,seed,sim_time_ns",
                "0001,ok,stencil,small,\"etc(ratio=1.0,declared=true)\",1.0,true,1,700",
                "0002,ok,stencil,small,\"etc(ratio=1.0,declared=false)\",1.0,false,1,900",
                "0003,ok,stencil,small,\"etc(ratio=2.0,declared=true)\",2.0,true,1,500",
                "0004,ok,stencil,small,\"etc(ratio=2.0,declared=false)\",2.0,false,1,400");
        assertEquals(List.of("policies.compression.ratio", "policies.compression.declared"), m.varying());
        FigureData.Computed l = FigureData.lines(m, "sim_time_ns", spec(Map.of("metric", "sim_time_ns", "x", "ratio")));
        assertEquals(List.of("declared=true", "declared=false"), l.grid().series(), "two lines of two points each");
        assertEquals(400.0, l.grid().get("declared=false", "2.0"), 1e-9);
    }

    /**
     * b's seed-2 replica failed: its bar was mean(b over seeds 1, 3) against mean(a over seeds 1, 2, 3), 1.67, outside its
     * own whisker (2.0 for both seeds), and the caption still said every bar is a mean over 3 seeds (found by a reports review).
     */
    @Test
    void aFailedReplicaIsComparedWithItsBaselineOverTheSameSeeds(@TempDir Path d) throws Exception {
        Results m = results(d, "run,status,workload,machine,slot.placement,seed,sim_time_ns",
                "0001,ok,w,small,a,1,100", "0002,ok,w,small,a,2,50", "0003,ok,w,small,a,3,100",
                "0004,ok,w,small,b,1,50", "0005,failed,w,small,b,2,", "0006,ok,w,small,b,3,50");
        FigureData.Computed c = FigureData.bars(m, "sim_time_ns", spec(Map.of("metric", "sim_time_ns", "normalise_to", Map.of("placement", "a"))));
        assertEquals(2.0, c.grid().get("b", "w"), 1e-12, "a over seeds 1 and 3, as b");
        assertArrayEquals(new double[] {2.0, 2.0}, c.grid().range("b", "w"), 1e-12);
        assertTrue(c.notes().stream().anyMatch(n -> n.startsWith("1 configuration is a mean over fewer seeds")), c.notes().toString());
    }

    /**
     * Three wrong numbers a paper-figures trial found: a whisker of a configuration whose baseline lost a replica mixed
     * seeds (seed 1 against seed 2's baseline), {@code by: seed} drew the seeds' mean as "seed 1", and the geomean over
     * the normalised column took in the baseline's own 1.0.
     */
    @Test
    void whiskersGeomeanAndBySeedUseOnlyWhatTheyShould(@TempDir Path d) throws Exception {
        Results m = results(d, "run,status,workload,machine,slot.placement,seed,sim_time_ns",
                "0001,failed,w,small,a,1,", "0002,ok,w,small,a,2,100", "0003,failed,w,small,a,3,",
                "0004,ok,w,small,b,1,20", "0005,ok,w,small,b,2,50", "0006,ok,w,small,b,3,80");
        FigureData.Computed c = FigureData.bars(m, "sim_time_ns", spec(Map.of("metric", "sim_time_ns", "normalise_to", Map.of("placement", "a"))));
        assertEquals(2.0, c.grid().get("b", "w"), 1e-12, "seed 2 only, as the bar");
        assertTrue(c.grid().range("b", "w") == null || java.util.Arrays.equals(new double[] {2.0, 2.0}, c.grid().range("b", "w")),
                "no whisker from seeds 1 and 3 against seed 2's baseline (5.0 and 1.25): " + java.util.Arrays.toString(c.grid().range("b", "w")));

        FigureData.Computed seeds = FigureData.bars(m, "sim_time_ns", spec(Map.of("metric", "sim_time_ns", "by", "seed", "where", Map.of("placement", "b"))));
        assertEquals(20.0, seeds.grid().get("b", "1"), 1e-12);
        assertEquals(80.0, seeds.grid().get("b", "3"), 1e-12, "one bar per seed, not their mean under the first seed");

        Results p = results(d, "run,status,workload,machine,slot.placement,seed,sim_time_ns",
                "0001,ok,w,small,a,1,100", "0002,ok,w,small,b,1,50", "0003,ok,w,small,c,1,25");
        FigureData.Computed byPlacement = FigureData.bars(p, "sim_time_ns", spec(Map.of("metric", "sim_time_ns", "by", "placement",
                "normalise_to", Map.of("placement", "a"))));
        assertEquals(Math.sqrt(2.0 * 4.0), byPlacement.grid().get("w", FigureData.GEOMEAN), 1e-12, "over b and c, not the baseline a's 1.0");
    }

    /** A baseline that does not vary drew every bar at 1.0 without a word; a baseline of 0 read as a failed run (a paper-figures trial). */
    @Test
    void aConstantBaselineIsNotNormalisedToAndAZeroBaselineIsSaid(@TempDir Path d) throws Exception {
        Results m = results(d, "run,status,workload,machine,slot.placement,seed,sim_time_ns,pool.x.bytes",
                "0001,ok,w1,small,local,1,100,0", "0002,ok,w2,small,local,1,50,10");
        FigureData.Computed c = FigureData.bars(m, "sim_time_ns", spec(Map.of("metric", "sim_time_ns", "normalise_to", Map.of("placement", "local"))));
        assertEquals(100.0, c.grid().get(c.grid().series().get(0), "w1"), 1e-12, "absolute values, not 1.0");
        assertTrue(c.notes().stream().anyMatch(n -> n.startsWith("normalise_to: placement is local in every run")), c.notes().toString());
        FigureData.Computed z = FigureData.bars(m, "pool.x.bytes", spec(Map.of("metric", "pool.x.bytes", "normalise_to", Map.of("workload", "w1"), "by", "workload")));
        assertTrue(z.notes().stream().anyMatch(n -> n.contains("or that run's value is 0")), z.notes().toString());
    }

    @Test
    void replicatedSeedsGiveWhiskersPairedSeedBySeedAndTheFiguresCsv(@TempDir Path d) throws Exception {
        // policy b is 2x faster than a with seed 1 and 4x with seed 2; times differ between seeds
        Results m = results(d, "run,status,workload,machine,slot.placement,seed,sim_time_ns",
                "0001,ok,stream,small,a,1,400",
                "0002,ok,stream,small,a,2,800",
                "0003,ok,stream,small,b,1,200",
                "0004,ok,stream,small,b,2,200");
        FigureData.Computed c = FigureData.bars(m, "sim_time_ns", spec(Map.of("metric", "sim_time_ns", "normalise_to", Map.of("placement", "a"))));
        assertEquals(3.0, c.grid().get("b", "stream"), 1e-12, "the bar: mean of a over mean of b");
        assertArrayEquals(new double[] {2.0, 4.0}, c.grid().range("b", "stream"), 1e-12, "each seed against the same seed's baseline");
        assertArrayEquals(new double[] {1.0, 1.0}, c.grid().range("a", "stream"), 1e-12);
        FigureData.Computed abs = FigureData.bars(m, "sim_time_ns", spec(Map.of("metric", "sim_time_ns")));
        assertArrayEquals(new double[] {400, 800}, abs.grid().range("a", "stream"), 1e-12);
        assertEquals(List.of(List.of("series", "workload", "sim_time_ns (ns)", "least over seeds", "greatest over seeds"),
                List.of("a", "stream", "600", "400", "800"), List.of("b", "stream", "200", "200", "200")),
                Csv.parse(FigureData.csv(abs, "workload")));

        FigureData.Computed one = FigureData.bars(results(d, "run,status,workload,machine,slot.placement,seed,sim_time_ns", "0001,ok,stream,small,a,1,400"), "sim_time_ns", spec(Map.of("metric", "sim_time_ns")));
        assertFalse(one.grid().hasRanges(), "one seed: no whiskers");
        assertEquals(List.of(List.of("series", "workload", "sim_time_ns (ns)"), List.of("stream", "stream", "400")), Csv.parse(FigureData.csv(one, "workload")));
    }

    /** A results folder with just a runs.csv of these lines. */
    /**
     * Policy b's run of w1 failed (found by a reports review): b kept its place and colour in the legend (it moved
     * behind c), its empty place is marked rather than left to read as 0, and the geomean group averages every
     * series over the same workloads (b's over w2 alone looked twice as good as c's over w1 and w2).
     */
    @Test
    void aFailedRunKeepsItsSeriesPlaceIsMarkedAndLeavesTheGeomeanComparable(@TempDir Path d) throws Exception {
        Results m = results(d, "run,status,workload,machine,slot.placement,seed,sim_time_ns",
                "0001,ok,w1,small,a,1,100", "0002,failed,w1,small,b,1,", "0003,ok,w1,small,c,1,50",
                "0004,ok,w2,small,a,1,100", "0005,ok,w2,small,b,1,25", "0006,ok,w2,small,c,1,25");
        FigureData.Computed c = FigureData.bars(m, "sim_time_ns", spec(Map.of("metric", "sim_time_ns", "normalise_to", Map.of("placement", "a"))));
        Grid g = c.grid();
        assertEquals(List.of("a", "b", "c"), g.series(), "the study's order, whichever run failed");
        assertTrue(g.declared("b", "w1") && Double.isNaN(g.get("b", "w1")), "the failed run's place is there, without a value");
        assertEquals(4.0, g.get("b", FigureData.GEOMEAN), 1e-12);
        assertEquals(4.0, g.get("c", FigureData.GEOMEAN), 1e-12, "over w2 alone, as b's");
        assertTrue(c.notes().stream().anyMatch(n -> n.contains("geomean over the 1 of 2 workloads") && n.contains("w1")), c.notes().toString());
        assertTrue(c.notes().stream().anyMatch(n -> n.startsWith("\u00d7: no value")), c.notes().toString());
        // the chart marks the one missing bar, once
        String svg = Render.svgElement(new Figure("f", "t", "", Charts.bars("t", "workload", c), 1000, 520, c, "workload", c.notes()));
        assertEquals(1, svg.split(">\u00d7<", -1).length - 1, "one mark, for b on w1");
        // lines keep the study's order too
        FigureData.Computed l = FigureData.lines(m, "sim_time_ns", spec(Map.of("metric", "sim_time_ns", "x", "workload")));
        assertEquals(List.of("a", "b", "c"), l.grid().series());
    }

    /** The baseline is named under the title, not on the dashed line, where it covered the geomean bars (found by a reports review). */
    @Test
    void theBaselineIsNamedOffThePlotSoItHidesNoBar() throws Exception {
        FigureData.Computed c = FigureData.bars(r, "sim_time_ns", spec(Map.of("metric", "sim_time_ns", "normalise_to", Map.of("placement", "local"))));
        org.jfree.chart.JFreeChart chart = Charts.bars("t", "workload", c);
        java.util.Collection<?> markers = chart.getCategoryPlot().getRangeMarkers(org.jfree.chart.ui.Layer.FOREGROUND);
        assertEquals(1, markers.size(), "the dashed line at 1.0");
        assertEquals(null, ((org.jfree.chart.plot.Marker) markers.iterator().next()).getLabel(), "no label over the bars");
        boolean named = false;
        for (int i = 0; i < chart.getSubtitleCount(); i++)
            if (chart.getSubtitle(i) instanceof org.jfree.chart.title.TextTitle t && t.getText().contains("baseline = 1.0 (placement=local)")) named = true;
        assertTrue(named, "the subtitle names the baseline");
    }

    /** A one-workload study's stacked bars are its configurations: the axis must not call them "workload". */
    @Test
    void aStackedAxisNamesWhatItsBarsAre(@TempDir Path d) throws Exception {
        Results one = results(d, "run,status,workload,machine,slot.placement,seed,pool.a.bytes,pool.b.bytes",
                "0001,ok,w1,small,x,1,1,3", "0002,ok,w1,small,y,1,2,2");
        assertEquals("configuration", Planner.stackAxis(one, "workload"));
        assertEquals("workload \u00b7 configuration", Planner.stackAxis(r, "workload"));
        Planner p = new Planner();
        Figure f = p.figures(one, List.of(spec(Map.of("kind", "stacked", "metrics", List.of("pool.*.bytes"))))).get(0);
        assertEquals("configuration", f.chart().getCategoryPlot().getDomainAxis().getLabel());
    }

    /** A line figure's x axis names its parameter as its title does, not by the whole runs.csv column (a reports review). */
    @Test
    void aLineFiguresAxisNamesItsParameterShortly(@TempDir Path d) throws Exception {
        Results m = results(d, "run,status,workload,machine,slot.placement,policies.placement.fast_percent,pools.ddr.bandwidth,seed,sim_time_ns",
                "0001,ok,w,small,ratio(fast_percent=10),10,40GB/s,1,100", "0002,ok,w,small,ratio(fast_percent=50),50,40GB/s,1,80",
                "0003,ok,w,small,ratio(fast_percent=10),10,80GB/s,1,90", "0004,ok,w,small,ratio(fast_percent=50),50,80GB/s,1,70");
        Figure f = new Planner().figures(m, List.of(spec(Map.of("kind", "line", "metrics", List.of("sim_time_ns"), "x", "fast_percent")))).get(0);
        assertEquals("fast_percent", f.chart().getXYPlot().getDomainAxis().getLabel());
        Figure g = new Planner().figures(m, List.of(spec(Map.of("kind", "line", "metrics", List.of("sim_time_ns"), "x", "bandwidth")))).get(0);
        assertEquals("bandwidth (GB/s)", g.chart().getXYPlot().getDomainAxis().getLabel());
    }

    /** Two lines with the same values hide one another: the caption says so (a reports review); lines that differ anywhere do not. */
    @Test
    void linesThatCoincideAreNamedInTheCaption(@TempDir Path d) throws Exception {
        Results m = results(d, "run,status,workload,machine,pools.ddr.bandwidth,seed,sim_time_ns",
                "0001,ok,a,small,40GB/s,1,100", "0002,ok,a,small,80GB/s,1,80",
                "0003,ok,b,small,40GB/s,1,100", "0004,ok,b,small,80GB/s,1,80",
                "0005,ok,c,small,40GB/s,1,100", "0006,ok,c,small,80GB/s,1,81");
        FigureData.Computed l = FigureData.lines(m, "sim_time_ns", spec(Map.of("metric", "sim_time_ns", "x", "bandwidth")));
        assertEquals(List.of("a, b: the same value at every point, drawn one over the other"),
                l.notes().stream().filter(n -> n.contains("drawn one over")).toList(), l.notes().toString());
    }

    /**
     * A failed run's point breaks its line and is marked with a cross at the axis's foot, as a bar is: left out, the line
     * ran straight from the point before to the point after, as if the study had not run it.
     */
    @Test
    void aFailedPointBreaksItsLineAndIsMarked(@TempDir Path d) throws Exception {
        Results m = results(d, "run,status,workload,machine,pools.ddr.bandwidth,seed,sim_time_ns",
                "0001,ok,a,small,40GB/s,1,100", "0002,failed,a,small,80GB/s,1,", "0003,ok,a,small,160GB/s,1,60",
                "0004,ok,b,small,40GB/s,1,90", "0005,ok,b,small,80GB/s,1,70", "0006,ok,b,small,160GB/s,1,50");
        for (Map<String, Object> extra : List.<Map<String, Object>>of(Map.of(), Map.of("normalise_to", Map.of("workload", "b")))) {
            Map<String, Object> spec = new java.util.HashMap<>(Map.of("kind", "line", "metrics", List.of("sim_time_ns"), "x", "bandwidth"));
            spec.putAll(extra);
            Figure f = new Planner().figures(m, List.of(spec(spec))).get(0);
            org.jfree.data.xy.XYDataset data = f.chart().getXYPlot().getDataset();
            assertEquals(3, data.getItemCount(0), "line a keeps its place at 80 GB/s");
            assertEquals(80, data.getXValue(0, 1), 1e-12);
            assertTrue(Double.isNaN(data.getYValue(0, 1)), "without a value, so the line breaks there");
            String svg = Render.svgElement(f);
            assertEquals(1, svg.split(">\u00d7<", -1).length - 1, "one mark, for a at 80 GB/s " + extra);
            assertTrue(f.notes().stream().anyMatch(n -> n.startsWith("\u00d7 at the axis's foot")), f.notes().toString());
            assertTrue(f.csv().contains("\na,40GB/s,") && !f.csv().contains("\na,80GB/s,"), "the figure's CSV has no row for it: " + f.csv());
        }
    }

    private static Results results(Path d, String... lines) throws Exception {
        java.nio.file.Files.writeString(d.resolve("runs.csv"), String.join("\n", lines) + "\n");
        return Results.load(d);
    }
}
