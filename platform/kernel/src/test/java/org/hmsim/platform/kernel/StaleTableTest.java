package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A runs.csv copied from the same study with its sweep reordered has a row for every run, so only missing rows being
 * caught, status said "assembled" and report drew run 0001's series (local) under the row's label (interleave, a
 * tester's trial). Each row is now checked against its run's config.json: report and compare refuse it (exit 2, naming
 * the row, run, column and both values), status says so, collect or --resume rebuilds it from runs/.
 */
class StaleTableTest extends ResultsCli {
    private static final String SWEEP = "study: s\nmachine: ../machines/small.yaml\nworkloads: [stream]\npolicies:\n  placement: {sweep: [%s]}\n";

    @Test
    void aRunsCsvOfTheReorderedStudyIsNamedRefusedAndRebuilt() throws Exception {
        study = Fakes.write(dir, "studies/s.yaml", String.format(SWEEP, "local, interleave"));
        assertEquals(0, run(), err());
        Path table = out.resolve("runs.csv"), reordered = dir.resolve("reordered");
        String whole = Files.readString(table);
        Path other = Fakes.write(dir, "studies/o.yaml", String.format(SWEEP, "interleave, local"));
        assertEquals(0, exec("run", other.toString(), "--out", reordered.toString(), "--no-report", "--jobs", "1"), err());
        Files.copy(reordered.resolve("runs.csv"), table, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        String stale = table + ": row 1 (after the header), run 0001, column slot.placement: runs/0001/config.json records policy local,"
                + " the row holds 'interleave': the file is out of date or another folder's (hmsim collect " + out;

        assertOneLineError(exec("report", out.toString()), "report: " + stale);
        assertTrue(!Files.exists(out.resolve("report.html")), "nothing written");
        assertOneLineError(exec("compare", reordered.toString(), out.toString()), "compare: " + stale);
        assertEquals(0, exec("status", out.toString()));
        assertTrue(out().contains("runs.csv: row 1 (after the header), run 0001, column slot.placement: runs/0001/config.json records policy local")
                && !out().contains("runs.csv: assembled"), out());

        // what the messages say rebuilds it does, from the runs' own files
        assertEquals(0, exec("collect", out.toString()), err());
        assertEquals(whole, Files.readString(table));
        Files.copy(reordered.resolve("runs.csv"), table, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertEquals(0, run("--resume"), err());
        assertEquals(whole, Files.readString(table));
        assertEquals(0, exec("status", out.toString()));
        assertTrue(out().contains("runs.csv: assembled"), out());
        assertEquals(0, exec("report", out.toString()), err());
    }
}
