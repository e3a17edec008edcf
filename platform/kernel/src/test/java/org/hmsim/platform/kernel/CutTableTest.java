package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A runs.csv cut exactly at a line break leaves every row whole, so it passed as complete: report and compare left the
 * lost runs out (compare called them moved), status said "assembled" (a bad-input audit). Each now compares the rows
 * with the runs study.json lists.
 */
class CutTableTest extends ResultsCli {
    /** runs.csv up to and including its {@code lines}-th line break. */
    private static String cut(String whole, int lines) {
        int end = -1;
        for (int i = 0; i < lines; i++) end = whole.indexOf('\n', end + 1);
        return whole.substring(0, end + 1);
    }

    @Test
    void aFinishedStudysTableCutAtALineBreakIsRefusedAndNamed() throws Exception {
        assertEquals(0, run());
        Path table = out.resolve("runs.csv"), other = dir.resolve("other");
        assertEquals(0, exec("run", study.toString(), "--out", other.toString(), "--no-report"), err());
        String whole = Files.readString(table);
        for (int rows : new int[] {1, 0}) {
            String cut = cut(whole, 1 + rows);
            Files.writeString(table, cut);
            String lacks = rows == 1 ? "0002" : "0001, 0002";
            assertOneLineError(exec("report", out.toString()), "report: " + table + ": no row for run(s) " + lacks
                    + " of the 2 runs study.json lists (the study finished): the file is cut short or out of date (hmsim collect " + out);
            assertOneLineError(exec("compare", other.toString(), out.toString()), "compare: " + table + ": no row for run(s) " + lacks);
            assertEquals(0, exec("status", out.toString()));
            assertTrue(out().contains("runs.csv: cut short or out of date: no row for run(s) " + lacks + ", which ended: hmsim collect " + out)
                    && !out().contains("runs.csv: assembled"), out());
            assertEquals(cut, Files.readString(table), "nothing rewritten");
            assertTrue(!Files.exists(out.resolve("report.html")) && !Files.exists(out.resolve("compare")), "nothing written");
        }
        // what the messages say rebuilds it does, byte for byte
        assertEquals(0, exec("collect", out.toString()), err());
        assertEquals(whole, Files.readString(table));
        Files.writeString(table, cut(whole, 2));
        assertEquals(0, run("--resume"), err());
        assertEquals(whole, Files.readString(table));
        assertEquals(0, exec("report", out.toString()), err());
        assertEquals(0, exec("status", out.toString()));
        assertTrue(out().contains("runs.csv: assembled"), out());
        // cut inside a row, status no longer calls it assembled either
        Files.writeString(table, whole.substring(0, whole.length() - 1));
        assertEquals(0, exec("status", out.toString()));
        assertTrue(out().contains("runs.csv: damaged: " + table + ": it does not end with a line break"), out());
    }

    /** A study stopped before a run ended lacks that run's row rightly: the report says so, and refuses only rows of runs that ended. */
    @Test
    void aStoppedStudysTableIsReportedWithWhatItLacks() throws Exception {
        assertEquals(0, run());
        Path table = out.resolve("runs.csv"), provenance = out.resolve("study.json");
        String whole = Files.readString(table);
        Files.writeString(provenance, Files.readString(provenance).replace("\"status\" : \"finished\"", "\"status\" : \"stopped\""));
        Files.writeString(table, cut(whole, 2));
        for (String f : new String[] {"config.json", "stats.json", "timeseries.csv"}) Files.delete(out.resolve("runs/0002").resolve(f));
        assertEquals(0, exec("report", out.toString()), err());
        String note = "runs.csv has rows for 1 of the 2 runs study.json lists (the study's status: stopped); not in it: 0002";
        assertEquals("warning: " + note, err().strip());
        assertTrue(Files.readString(out.resolve("report.html")).contains(note));
        assertEquals(0, exec("status", out.toString()));
        assertTrue(!out().contains("cut short"), out());
        byte[] before = bytes(provenance);
        // cut once more, the row of a run that ended (its stats.json is there) is missing: refused as cut short
        Files.writeString(table, cut(whole, 1));
        assertOneLineError(exec("report", out.toString()), "report: " + table + ": no row for run(s) 0001 of the 2 runs study.json lists, which ended");
        assertEquals(0, exec("status", out.toString()));
        assertTrue(out().contains("runs.csv: cut short or out of date: no row for run(s) 0001, which ended"), out());
        assertArrayEquals(before, bytes(provenance));
    }
}
