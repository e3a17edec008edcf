package org.hmsim.platform.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareTest {
    @TempDir Path dir;

    @Test
    void relativeDifferences() {
        assertEquals(0.05, Compare.relative(100, 105), 1e-12);
        assertEquals(-0.5, Compare.relative(-2, -3), 1e-12, "relative to |a|");
        assertEquals(0, Compare.relative(0, 0));
        assertEquals(Double.POSITIVE_INFINITY, Compare.relative(0, 1));
        assertTrue(Compare.moved(100, 103, 0.02));
        assertFalse(Compare.moved(100, 101.9, 0.02));
        assertTrue(Compare.moved(100, Double.NaN, 0.02), "a metric present on one side only moved");
    }

    @Test
    void identicalFoldersMoveNothing() throws Exception {
        Results a = Results.load(Synthetic.folder(dir.resolve("a"), null)), b = Results.load(Synthetic.folder(dir.resolve("b"), null));
        List<Compare.Diff> d = Compare.diffs(a, b, 0.0);
        assertFalse(d.isEmpty());
        assertEquals(0, d.stream().filter(Compare.Diff::moved).count());
    }

    @Test
    void aMetricThatMovedBeyondTheToleranceIsFlagged() throws Exception {
        String oneFigure = "[{\"metric\":\"sim_time_ns\",\"normalise_to\":\"baseline\"}]";
        Path a = Synthetic.folder(dir.resolve("a"), oneFigure), b = Synthetic.folder(dir.resolve("b"), oneFigure, 1.05);
        List<Compare.Diff> moved = Compare.diffs(Results.load(a), Results.load(b), 0.02).stream().filter(Compare.Diff::moved).toList();
        // stream's 4 runs: sim_time_ns, ipc and gddr bandwidth move by ~5 %, ddr bandwidth too where it is not
        // 0 (the 2 interleave runs; 0 -> 0 did not move); bytes and hit rate do not move.
        assertEquals(4 * 3 + 2, moved.size(), moved.toString());
        assertTrue(moved.stream().allMatch(x -> x.label().startsWith("stream")));
        assertEquals(0.05, moved.stream().filter(x -> x.metric().equals("sim_time_ns")).findFirst().orElseThrow().relative(), 1e-9);
        assertEquals(0, Compare.diffs(Results.load(a), Results.load(b), 0.06).stream().filter(Compare.Diff::moved).count(), "within 6 %");

        Compare.Outcome o = Compare.write(a, b, 0.02, dir.resolve("cmp"));
        assertEquals(14, o.moved());
        String html = Files.readString(o.html());
        assertTrue(html.contains("class=\"moved\"") && html.contains("only-moved"));
        assertTrue(html.contains("id=\"a-fig-01-bar-sim_time_ns\"") && html.contains("id=\"b-fig-01-bar-sim_time_ns\""), "figures side by side");
        assertTrue(Files.isRegularFile(dir.resolve("cmp/figures/b-fig-01-bar-sim_time_ns.png")));
    }

    @Test
    void aRunOnOneSideOnlyMoved() throws Exception {
        Path a = Synthetic.folder(dir.resolve("a"), null), b = Synthetic.folder(dir.resolve("b"), null);
        List<String> lines = Files.readAllLines(b.resolve("runs.csv"));
        Files.write(b.resolve("runs.csv"), lines.subList(0, lines.size() - 1));
        // a study stopped before its last run ended (a finished one without that row is a file cut short: refused)
        Path studyB = b.resolve("study.json");
        Files.writeString(studyB, Files.readString(studyB).replace("\"status\":\"finished\"", "\"status\":\"stopped\""));
        assertEquals(List.of("runs.csv has rows for 7 of the 8 runs study.json lists (the study's status: stopped); not in it: 0008"), Results.load(b).notes());
        List<Compare.Diff> moved = Compare.diffs(Results.load(a), Results.load(b), 0.02).stream().filter(Compare.Diff::moved).toList();
        assertEquals(1, moved.size());
        assertEquals("(run only in A)", moved.get(0).metric());
        assertEquals(List.of("B: " + Results.load(b).notes().get(0)), Compare.write(a, b, 0.02, dir.resolve("cmp")).notes(), "said beside the differences");
    }

    /** Two folders with no configuration in common compared nothing, and the outcome says so and why (a newcomer's trial). */
    @Test
    void foldersWithNoConfigurationInCommonSayWhatSetsThemApart() throws Exception {
        Path a = Synthetic.folder(dir.resolve("a"), null), b = Synthetic.folder(dir.resolve("b"), null);
        Files.writeString(b.resolve("runs.csv"), Files.readString(b.resolve("runs.csv")).replace(",lru,", ",random,"));
        Compare.Outcome o = Compare.write(a, b, 0.02, dir.resolve("cmp"));
        assertTrue(o.diffs().stream().allMatch(d -> d.metric().startsWith("(")), "the case: every run on one side only");
        assertTrue(o.notes().contains("no run of A has a configuration of B, so no metric was compared: they differ in slot.replacement (A: lru; B: random); "
                + "compare folders of the same runs"), o.notes().toString());
        assertTrue(Compare.write(a, a, 0.02, dir.resolve("same")).notes().isEmpty(), "not said where runs match");
    }

    /** A CSV line's cells, quotes kept ("bfs(nodes=64,x=1)" is one cell). */
    private static List<String> cells(String line) {
        List<String> out = new java.util.ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (char ch : line.toCharArray()) {
            if (ch == '"') quoted = !quoted;
            if (ch == ',' && !quoted) {
                out.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(ch);
            }
        }
        out.add(cell.toString());
        return out;
    }

    /**
     * A folder written before a slot existed has no column for it and ran its default: its runs are matched with the other
     * side's where that side ran one policy there, and the outcome says so (a trial's folder from before the
     * dram-scheduler slot matched no run of today's, and the message named no column when the older folder was A).
     */
    @Test
    void aFolderFromBeforeASlotExistedIsMatchedOnTheOthersOnePolicy() throws Exception {
        Path a = Synthetic.folder(dir.resolve("a"), null), b = Synthetic.folder(dir.resolve("b"), null);
        List<String> lines = Files.readAllLines(a.resolve("runs.csv"));
        int col = cells(lines.get(0)).indexOf("slot.replacement");
        assertTrue(col > 0, "the case: a slot column");
        List<String> older = new java.util.ArrayList<>();
        for (String l : lines) {
            List<String> cells = cells(l);
            cells.remove(col);
            older.add(String.join(",", cells));
        }
        Files.write(a.resolve("runs.csv"), older);
        Compare.Outcome o = Compare.write(a, b, 0.02, dir.resolve("cmp"));
        assertEquals(0, o.moved(), o.diffs().stream().filter(Compare.Diff::moved).toList().toString());
        assertTrue(o.notes().contains("A has no column slot.replacement (written before that slot existed, so its runs ran the slot's default): its runs"
                + " are matched with the other side's, which all ran lru"), o.notes().toString());
        // the newer side's one policy is taken whatever it is: the note names it, for the reader to judge
        Files.writeString(b.resolve("runs.csv"), Files.readString(b.resolve("runs.csv")).replace(",lru,", ",random,"));
        assertTrue(Compare.write(a, b, 0.02, dir.resolve("cmp2")).notes().stream().anyMatch(n -> n.endsWith("which all ran random")));
    }

    /**
     * A run that failed on one side is one difference, its status, as a run on one side only is; its metrics, missing on
     * the failed side, were each listed as moved too (found by a reports review).
     */
    @Test
    void aRunThatFailedOnOneSideIsOneDifference() throws Exception {
        Path a = Synthetic.folder(dir.resolve("a"), null), b = Synthetic.folder(dir.resolve("b"), null);
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(b.resolve("runs.csv")));
        assertTrue(lines.get(7).startsWith("0007,ok,"), lines.get(7));
        lines.set(7, "0007,failed,\"bfs(nodes=64,x=1)\",small,interleave,lru,40GB/s,1,,,,,,,");
        Files.write(b.resolve("runs.csv"), lines);
        List<Compare.Diff> moved = Compare.diffs(Results.load(a), Results.load(b), 0.02).stream().filter(Compare.Diff::moved).toList();
        assertEquals(1, moved.size(), moved.toString());
        assertEquals("(status: ok \u2192 failed)", moved.get(0).metric());
        assertEquals("0007", moved.get(0).runB());
        assertEquals(0, Compare.diffs(Results.load(b), Results.load(b), 0.0).stream().filter(Compare.Diff::moved).count(), "failed on both sides: nothing moved");
    }

    /**
     * A finished study's runs.csv cut at a line break leaves every row whole: it was compared as if the runs it lost
     * had moved, and reported without them (a bad-input audit). Refused, naming the file and the runs it lacks.
     */
    @Test
    void aFinishedStudysRunsCsvCutAtALineBreakIsRefused() throws Exception {
        Path a = Synthetic.folder(dir.resolve("a"), null), b = Synthetic.folder(dir.resolve("b"), null);
        List<String> lines = Files.readAllLines(b.resolve("runs.csv"));
        Files.write(b.resolve("runs.csv"), lines.subList(0, lines.size() - 2));
        BadResultsException e = assertThrows(BadResultsException.class, () -> Compare.write(a, b, 0.02, dir.resolve("cmp")));
        assertEquals(b.resolve("runs.csv") + ": no row for run(s) 0007, 0008 of the 8 runs study.json lists (the study finished): the file is cut short"
                + " or out of date (hmsim collect " + b + ", or hmsim run STUDY --out " + b + " --resume, rebuilds it from runs/)", e.getMessage());
        assertTrue(!Files.exists(dir.resolve("cmp")), "nothing written");
        // not finished, but a run it lacks has its stats.json: cut short as well
        Path studyB = b.resolve("study.json");
        Files.writeString(studyB, Files.readString(studyB).replace("\"status\":\"finished\"", "\"status\":\"stopped\""));
        e = assertThrows(BadResultsException.class, () -> Report.write(b, b));
        assertTrue(e.getMessage().contains(": no row for run(s) 0007 of the 8 runs study.json lists, which ended (their stats.json is in runs/)"), e.getMessage());
        assertTrue(!Files.exists(b.resolve(Report.HTML)), "nothing written");
    }

    /** A folder of two workloads over three seeds, each seed's sim_time_ns given. */
    private Path seeded(String name, double[] noisy, double[] steady) throws Exception {
        Path d = Files.createDirectories(dir.resolve(name));
        StringBuilder csv = new StringBuilder("run,status,workload,machine,seed,sim_time_ns\n");
        int id = 0;
        for (String w : List.of("noisy", "steady"))
            for (int seed = 1; seed <= 3; seed++) {
                String run = String.format(java.util.Locale.ROOT, "%04d", ++id);
                Files.createDirectories(d.resolve("runs").resolve(run));
                Files.writeString(d.resolve("runs").resolve(run).resolve("stats.json"), "{}");
                csv.append(run).append(",ok,").append(w).append(",small,").append(seed).append(',').append((w.equals("noisy") ? noisy : steady)[seed - 1]).append('\n');
            }
        Files.writeString(d.resolve("runs.csv"), csv);
        Files.writeString(d.resolve("study.json"), "{\"study\":\"" + name + "\",\"seeds\":[1,2,3],\"report\":[],\"status\":\"finished\"}");
        return d;
    }

    /**
     * With replicated seeds, a change within the seeds' own spread is not a move: a researcher's 2 ns DRAM jitter gave 552
     * per-seed "moved" lines. --over-seeds compares each configuration's median and moves only where the ranges part.
     */
    @Test
    void overSeedsAChangeWithinTheSeedsSpreadDoesNotMove() throws Exception {
        Path a = seeded("a", new double[] {100, 110, 120}, new double[] {100, 101, 102});
        Path b = seeded("b", new double[] {112, 104, 118}, new double[] {110, 111, 112});
        long perSeed = Compare.diffs(Results.load(a), Results.load(b), 0.02).stream().filter(Compare.Diff::moved).count();
        assertEquals(5, perSeed, "seed by seed, noise moves (all but 120 -> 118)");
        List<Compare.Diff> over = Compare.diffsOverSeeds(Results.load(a), Results.load(b), 0.02);
        assertEquals(2, over.size(), over.toString());
        Compare.Diff noisy = over.get(0), steady = over.get(1);
        assertFalse(noisy.moved(), "median 110 -> 112 inside 100-120: " + noisy);
        assertTrue(steady.moved(), "101 -> 111, ranges 100-102 and 110-112 apart: " + steady);
        assertEquals(101, steady.a(), 1e-12);
        assertEquals(111, steady.b(), 1e-12);
        assertEquals("0004\u20260006", steady.runA());
        assertTrue(steady.spread().startsWith("100") && steady.spread().contains(" | 110"), steady.spread());
        Compare.Outcome o = Compare.write(a, b, 0.02, dir.resolve("cmp"), true);
        assertEquals(1, o.moved());
        assertEquals(3, o.seeds());
        assertTrue(Files.readString(o.html()).contains("seeds' range A | B"));
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertEquals(2.5, Maths.median(4, 1, 3, 2), 1e-12);
        assertEquals(3, Maths.median(5, 3, 1), 1e-12);
        assertTrue(Double.isNaN(Maths.median()));
    }

    /** --over-seeds' chance of disjoint ranges (a paper-figures trial's 24 of 264 "moved" between two seed sets of one study). */
    @Test
    void overSeedsSaysHowManyWouldMoveByChance() {
        org.junit.jupiter.api.Assertions.assertEquals(List.of("with 3 and 3 seeds, a metric that did not move still has disjoint ranges with"
                + " probability 0.100, about 26 of the 264 compared; 24 moved"), Compare.chanceNote(3, 3, 264, 24));
        org.junit.jupiter.api.Assertions.assertEquals(List.of(), Compare.chanceNote(1, 1, 264, 24), "one seed a side: not over seeds");
        org.junit.jupiter.api.Assertions.assertEquals(List.of(), Compare.chanceNote(10, 10, 264, 0), "1e-5: no note");
    }

    /** One seed on a side (a trial's seed 2 against seed 3: 18 of 33 "moved", without a word) is said, with its chance. */
    @Test
    void overSeedsWithOneSeedOnASideSaysItHasNoSpread() {
        org.junit.jupiter.api.Assertions.assertEquals(List.of("A has 1 seed (2) and B 1 (3): one seed on a side gives --over-seeds no spread to"
                + " judge by, so a metric that did not move is still flagged with probability 1.000 wherever the seeds' noise passes the tolerance"
                + " (18 of 33 moved); run more seeds on each side for a judgement"), Compare.singleSeedNote(List.of("2"), List.of("3"), 33, 18));
        assertTrue(Compare.singleSeedNote(List.of("2"), List.of("4", "5", "6"), 33, 20).get(0).contains("probability 0.500"));
        org.junit.jupiter.api.Assertions.assertEquals(List.of(), Compare.singleSeedNote(List.of("2"), List.of("2"), 33, 0), "the same seed: paired");
        org.junit.jupiter.api.Assertions.assertEquals(List.of(), Compare.singleSeedNote(List.of("1", "2"), List.of("3", "4"), 33, 0));
    }
}
