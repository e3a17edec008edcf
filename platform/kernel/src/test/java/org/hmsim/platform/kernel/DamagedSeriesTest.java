package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hmsim.platform.kernel.results.Json;
import org.junit.jupiter.api.Test;

/**
 * {@code --resume} took a finished run whose timeseries.csv was damaged or gone for done (a bad-input review): the
 * report's time-series figures then lacked it or refused the folder, and nothing but a fresh run brought it back. Such a
 * run is redone, as one without its config.json or metrics is, and the resume says so.
 */
class DamagedSeriesTest extends ResultsCli {
    @Test
    void aRunWithADamagedOrMissingSeriesRunsAgainOnResume() throws Exception {
        assertEquals(0, run());
        byte[] table = bytes(out.resolve("runs.csv"));
        Path cut = out.resolve("runs/0001/timeseries.csv"), gone = out.resolve("runs/0002/timeseries.csv");
        byte[] whole = bytes(cut), other = bytes(gone);
        String series = Files.readString(cut);
        Files.writeString(cut, series.substring(0, series.length() - 3)); // cut inside its last row
        Files.delete(gone);
        assertEquals(0, run("--resume"), err());
        assertTrue(out().contains(cut + " is damaged (it does not end with a line break: cut short): run 0001 runs again (the file is kept as timeseries.csv.damaged)"), out());
        assertTrue(out().contains(gone + " is missing: run 0002 runs again (its stats.json, intact but incomplete without it, is set aside as stats.json.damaged)"), out());
        assertArrayEquals(whole, bytes(cut), "run 0001 written again");
        assertArrayEquals(other, bytes(gone), "run 0002 written again");
        assertArrayEquals(table, bytes(out.resolve("runs.csv")));
        assertEquals(series.substring(0, series.length() - 3), Files.readString(out.resolve("runs/0001/timeseries.csv.damaged")), "kept for a look");
        assertTrue(Files.isRegularFile(out.resolve("runs/0002/stats.json.damaged")));

        // nothing more to redo
        assertEquals(0, run("--resume"), err());
        assertFalse(out().contains("runs again"), out());
    }

    /** collect checks the series as --resume does: a damaged one is named and nothing is assembled (it went unread). */
    @Test
    void collectNamesADamagedSeriesAndAssemblesNothing() throws Exception {
        assertEquals(0, run());
        Path table = out.resolve("runs.csv"), cut = out.resolve("runs/0002/timeseries.csv");
        byte[] before = bytes(table);
        String series = Files.readString(cut);
        Files.writeString(cut, series.substring(0, series.length() - 3));
        assertEquals(2, exec("collect", out.toString(), "--study", study.toString()), err());
        assertTrue(err().startsWith("collect: " + cut + " is damaged (it does not end with a line break: cut short); nothing was assembled"), err());
        assertTrue(err().contains("--resume runs that run again"), err());
        assertArrayEquals(before, bytes(table), "runs.csv untouched");
        assertEquals(0, run("--resume"), err());
        assertEquals(0, exec("collect", out.toString(), "--study", study.toString()), err());
    }

    /** A series cut exactly at a line break leaves every row whole: the row count stats.json records shows it. */
    @Test
    void aSeriesCutAtALineBreakIsDamagedToo() throws Exception {
        assertEquals(0, run());
        Path cut = out.resolve("runs/0002/timeseries.csv");
        byte[] whole = bytes(cut);
        assertEquals(3, ((Number) Json.read(out.resolve("runs/0002/stats.json")).get("series_rows")).intValue(), "stats.json records the rows");
        String series = Files.readString(cut);
        Files.writeString(cut, series.substring(0, series.lastIndexOf('\n', series.length() - 2) + 1));
        assertEquals(0, run("--resume"), err());
        assertTrue(out().contains(cut + " is damaged (it has 2 rows, stats.json records 3: cut short): run 0002 runs again"), out());
        assertArrayEquals(whole, bytes(cut));
    }

    /** Other damage: a header that is not a series', a row wider than the header, a cell that is not a number, an empty file. */
    @Test
    void otherDamageIsNamed() throws Exception {
        assertEquals(0, run());
        Path s = out.resolve("runs/0001/timeseries.csv");
        String series = Files.readString(s);
        String[][] cases = {
                {"run,status\n1,2\n", "its header does not start with time_ns"},
                {series.replaceFirst("\n([^\n]*)\n", "\n$1,7,7,7\n"), "row 1 (after the header) has 6 cells, the header 3"},
                {series.replaceFirst("\n[0-9.]+,", "\nabc,"), "row 1 (after the header), column time_ns: 'abc' is not a number"},
                {"", "it is empty"},
        };
        for (String[] c : cases) {
            Files.writeString(s, c[0]);
            assertEquals(0, run("--resume"), err());
            assertTrue(out().contains(s + " is damaged (" + c[1] + "): run 0001 runs again"), c[1] + "\n" + out());
            assertEquals(series, Files.readString(s));
        }
    }

    /**
     * The files a resume keeps aside are hmsim's own: the next run into the folder moves them to previous/ with the rest
     * (a config.json.damaged made the folder refused as holding files hmsim did not write).
     */
    @Test
    void filesKeptAsideDoNotMakeTheFolderForeign() throws Exception {
        assertEquals(0, run());
        Files.delete(out.resolve("runs/0001/timeseries.csv"));
        Files.writeString(out.resolve("runs/0002/config.json"), "{x");
        assertEquals(0, run("--resume"), err());
        assertTrue(Files.isRegularFile(out.resolve("runs/0002/config.json.damaged")), out());
        Files.writeString(out.resolve("runs/0002/timeseries.csv.damaged"), "time_ns\n");
        assertEquals(0, run(), err());
        assertTrue(Files.isRegularFile(out.resolve("previous/runs/0002/config.json.damaged")));
        assertTrue(Files.isRegularFile(out.resolve("previous/runs/0002/timeseries.csv.damaged")));
    }
}
