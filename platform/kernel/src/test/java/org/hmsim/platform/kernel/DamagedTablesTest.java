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
    }
}
