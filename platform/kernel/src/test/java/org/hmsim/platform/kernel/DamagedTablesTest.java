package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** report and compare on a runs.csv that is not one: exit code 2 and one line naming the file. */
class DamagedTablesTest extends ResultsCli {
    @Test
    void damagedTablesAreBadInputForReportAndCompare() throws Exception {
        assertEquals(0, run());
        Path other = dir.resolve("other");
        assertEquals(0, exec("run", study.toString(), "--out", other.toString(), "--no-report"));
        Path table = other.resolve("runs.csv");
        for (String damaged : List.of("run,status,workload\n\"0001,ok,stream\n", "", "garbage\n")) {
            Files.writeString(table, damaged);
            assertOneLineError(exec("report", other.toString()), "report: " + table);
            assertOneLineError(exec("compare", out.toString(), other.toString()), "compare: " + table);
        }
        // a row cut short (an interrupted copy) and a stray line: refused too, not reported with shifted cells
        String whole = Files.readString(out.resolve("runs.csv"));
        for (String damaged : List.of(whole.substring(0, whole.stripTrailing().lastIndexOf(',')) + "\n", whole + "garbage\"\n")) {
            Files.writeString(table, damaged);
            assertOneLineError(exec("report", other.toString()), "report: " + table + ": row ");
            assertOneLineError(exec("compare", out.toString(), other.toString()), "compare: " + table + ": row ");
        }
        // a metric that is not a number (an edit, a stray byte): refused at its row and column, not left out of every figure
        List<String> lines = whole.lines().toList();
        String header = lines.get(0), row = lines.get(1);
        int column = List.of(header.split(",")).indexOf("sim_time_ns");
        String[] cells = row.split(",", -1);
        assertEquals(header.split(",").length, cells.length, "the study's labels hold no quoted comma: " + row);
        cells[column] = "abc";
        Files.writeString(table, header + "\n" + String.join(",", cells) + "\n");
        assertOneLineError(exec("report", other.toString()), "report: " + table + ": row 1 (after the header), column sim_time_ns: 'abc' is not a number");
        // a damaged study.json: refused as collect and status refuse it (the report left its provenance out, exit 0)
        Files.writeString(table, whole);
        Files.writeString(other.resolve("study.json"), "garbage");
        assertOneLineError(exec("report", other.toString()), "report: " + other.resolve("study.json") + " is damaged");
        Files.writeString(other.resolve("study.json"), "[1]");
        assertOneLineError(exec("report", other.toString()), "is damaged (not a JSON object)");
        // cut inside the header (no rows to show it: an empty report, exit 0, before) or anywhere without its last line break
        for (String damaged : List.of(whole.substring(0, whole.indexOf('\n') / 2), whole.substring(0, whole.length() - 1))) {
            Files.writeString(table, damaged);
            assertOneLineError(exec("report", other.toString()), "report: " + table + ": it does not end with a line break");
        }
    }

    @Test
    void aReportGoesNeitherIntoAFileNorIntoTheRunsOfAResultsFolder() throws Exception {
        assertEquals(0, run());
        Path file = Files.writeString(dir.resolve("afile"), "x");
        assertOneLineError(exec("report", out.toString(), "--out", file.toString()), "is a file, not a folder");
        assertOneLineError(exec("compare", out.toString(), out.toString(), "--out", file.resolve("sub").toString()), "is a file, not a folder");
        Path inRuns = out.resolve("runs").resolve("0001");
        assertOneLineError(exec("report", out.toString(), "--out", inRuns.toString()), "lies within runs/");
        // nor into another results folder, whose report it would replace and whose figures it would mix in
        Path other = dir.resolve("other");
        assertEquals(0, exec("run", study.toString(), "--out", other.toString(), "--no-report"));
        assertOneLineError(exec("report", out.toString(), "--out", other.toString()), "is another results folder (it has runs.csv)");
        assertOneLineError(exec("compare", out.toString(), out.toString(), "--out", other.toString()), "is another results folder");
        assertEquals(List.of("config.json", "stats.json", "timeseries.csv"), names(inRuns), "nothing written into the run");
        assertEquals(0, run("--resume"), err());
    }

    @Test
    void aReportReplacesNoPageOrFigureOfTheUsers() throws Exception {
        assertEquals(0, run());
        Path mine = Files.createDirectories(dir.resolve("paper"));
        Files.writeString(mine.resolve("report.html"), "<html>my own notes</html>");
        assertOneLineError(exec("report", out.toString(), "--out", mine.toString()), "report.html is not a report hmsim wrote");
        assertOneLineError(exec("compare", out.toString(), out.toString(), "--out", mine.toString()), "report.html is not a report hmsim wrote");
        assertEquals("<html>my own notes</html>", Files.readString(mine.resolve("report.html")));
        // figure-named files of the user's (no report of hmsim's beside them) would have been deleted
        Files.delete(mine.resolve("report.html"));
        Path figure = Files.createDirectories(mine.resolve("figures")).resolve("fig-1.png");
        Files.writeString(figure, "my figure");
        assertOneLineError(exec("report", out.toString(), "--out", mine.toString()), "fig-1.png was not written by an hmsim report");
        assertEquals("my figure", Files.readString(figure));
        // a folder hmsim reported into before is replaced as ever, and another page beside it stays
        Path fresh = dir.resolve("fresh");
        Files.createDirectories(fresh);
        Files.writeString(fresh.resolve("notes.txt"), "keep");
        assertEquals(0, exec("report", out.toString(), "--out", fresh.toString()), err());
        assertEquals(0, exec("report", out.toString(), "--out", fresh.toString()), err());
        assertEquals(0, exec("compare", out.toString(), out.toString(), "--out", fresh.toString()), err());
        assertEquals("keep", Files.readString(fresh.resolve("notes.txt")));
        // a page an hmsim from before the generator mark wrote is known by its title, and replaced as ever
        Path older = Files.createDirectories(dir.resolve("older"));
        Files.writeString(older.resolve("report.html"), "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>hmsim report: s</title>");
        Files.createDirectories(older.resolve("figures"));
        Files.writeString(older.resolve("figures").resolve("fig-1.png"), "old figure");
        assertEquals(0, exec("report", out.toString(), "--out", older.toString()), err());
    }

    private static List<String> names(Path d) throws Exception {
        try (var s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
