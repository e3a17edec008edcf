package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hmsim trace record|convert|info|import} in a real container, and their bad inputs. */
class TraceCliTest extends ContainerPerClass {

    @Test
    void aRecordedWorkloadConvertsToTextAndBackToTheSameKernels(@TempDir Path dir) throws Exception {
        Path binary = dir.resolve("stream.hmt"), text = dir.resolve("stream.hmtt"), again = dir.resolve("again.hmt");
        Hmsim.Result rec = Hmsim.run(container, "trace", "record", "stream", "--param", "elements=4096", "--param", "ctas=4",
                "--out", binary.toString());
        assertEquals(0, rec.code(), rec.toString());
        assertTrue(rec.out().contains("warp instructions"), rec.out());
        Hmsim.Result info = Hmsim.run(container, "trace", "info", binary.toString());
        assertEquals(0, info.code(), info.toString());
        assertTrue(info.out().contains("kernel "), info.out());

        assertEquals(0, Hmsim.run(container, "trace", "convert", binary.toString(), "--out", text.toString()).code());
        assertTrue(Files.readString(text).startsWith("hmsim-trace 2"), "the text twin");
        assertEquals(0, Hmsim.run(container, "trace", "convert", text.toString(), "--out", again.toString()).code());
        Hmsim.Result info2 = Hmsim.run(container, "trace", "info", again.toString());
        assertEquals(kernels(info.out()), kernels(info2.out()), "binary -> text -> binary keeps every kernel");
    }

    @Test
    void aParameterWithoutAValueIsRefusedAndWritesNothing(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("x.hmt");
        Hmsim.Result r = Hmsim.run(container, "trace", "record", "stream", "--param", "elements", "--out", out.toString());
        assertEquals(2, r.code(), r.toString());
        assertTrue(r.err().contains("--param expects KEY=VALUE"), r.err());
        assertFalse(Files.exists(out), "no trace written");
    }

    @Test
    void aBadTextTraceIsLocatedByLineAndAnExistingOutputSurvives(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("bad.hmtt"), out = dir.resolve("kept.hmt");
        Files.writeString(bad, "hmsim-trace 1\nworkload w\nalloc x 4096 base=0x1000\nkernel k grid=1 block=32\ncta 0\nwarp 0\nld four 0x1000\n");
        Files.writeString(out, "earlier results");
        Hmsim.Result r = Hmsim.run(container, "trace", "convert", bad.toString(), "--out", out.toString());
        assertEquals(2, r.code(), r.toString());
        assertTrue(r.err().contains("bad.hmtt:7"), "file and line named: " + r.err());
        assertEquals("earlier results", Files.readString(out), "the existing file is not overwritten by a failed convert");
    }

    @Test
    void theRealAccelSimTraceImports(@TempDir Path dir) throws Exception {
        Path real = Hmsim.home().resolve("../../../../shared/data/traces/accel-sim-my_app").normalize();
        Assumptions.assumeTrue(Files.isRegularFile(real.resolve("kernelslist.g")),
                "skipped: the real Accel-Sim trace is not present (expected ../shared/data/traces/accel-sim-my_app beside the repository)");
        Path out = dir.resolve("my_app.hmt");
        Hmsim.Result r = Hmsim.run(container, "trace", "import", "accel-sim", real.toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.toString());
        Hmsim.Result info = Hmsim.run(container, "trace", "info", out.toString());
        assertTrue(info.out().contains("grid 55x1x1"), info.out());
        // checked against an independent parse of the trace (a review): 7260 SASS instructions, 880 of them memory,
        // runs of compute merged into one instruction each
        assertTrue(info.out().contains(": 1760 warp instructions, 880 memory, 55 of 55 blocks traced"), info.out());
    }

    private static String kernels(String info) {
        return info.lines().filter(l -> l.startsWith("  kernel") || l.startsWith("  alloc")).reduce("", (a, b) -> a + b + "\n");
    }
}
