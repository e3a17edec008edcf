package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** compare of two folders with no run in common compared nothing: exit 2, not 1 ("something moved"), saying why. */
class CompareNothingInCommonTest extends ResultsCli {
    @Test
    void foldersWithNoRunInCommonAreNotSaidToHaveMoved() throws Exception {
        assertEquals(0, run(), err());
        Path other = dir.resolve("other");
        Path seven = Fakes.write(dir, "studies/s7.yaml", "study: s\nseed: 7\nmachine: ../machines/small.yaml\nworkloads: [stream, {name: bfs, nodes: 4096}]\n");
        assertEquals(0, exec("run", seven.toString(), "--out", other.toString(), "--no-report", "--jobs", "1"), err());
        assertEquals(2, exec("compare", out.toString(), other.toString()));
        assertTrue(err().contains("no run of A has a configuration of B, so no metric was compared"), err());
        assertEquals(0, exec("compare", out.toString(), out.toString()), "a folder against itself: nothing moved");
    }

    /** --tolerance takes a percentage as study files do (a trial's 5% was "not a double"); nonsense is named. */
    @Test
    void aToleranceMayBeAPercentage() throws Exception {
        assertEquals(0, run(), err());
        assertEquals(0, exec("compare", out.toString(), out.toString(), "--tolerance", "5%", "--out", dir.resolve("c1").toString()), err());
        assertEquals(2, exec("compare", out.toString(), out.toString(), "--tolerance", "five", "--out", dir.resolve("c2").toString()));
        assertTrue(err().contains("'five' is not a fraction: 0.02 or 2%"), err());
        assertEquals(2, exec("compare", out.toString(), out.toString(), "--tolerance", "Infinity%", "--out", dir.resolve("c3").toString()));
        assertTrue(err().contains("--tolerance: must be a finite number >= 0"), err());
    }
}
