package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A binary trace with a damaged byte in a segment passed {@code validate}: opening a trace reads its header and
 * directory only, so the damage showed when a run reached it, after {@code run} had moved the folder's earlier results to
 * previous/ (a bad-input review). validate and run read the trace whole first and refuse it, naming the file and byte.
 */
class CorruptTraceTest extends ResultsCli {
    @Test
    void aDamagedSegmentIsFoundByValidateAndRunBeforeAnythingMoves() throws Exception {
        Path trace = dir.resolve("traces/t.hmt");
        Files.createDirectories(trace.getParent());
        write(trace);
        Fakes.write(dir, "studies/s.yaml", "study: s\nmachine: ../machines/small.yaml\nworkloads: [{trace: ../traces/t.hmt}, stream]\n");
        assertEquals(0, run(), err());
        byte[] table = bytes(out.resolve("runs.csv"));

        long at = middleOfASegment(trace);
        try (RandomAccessFile f = new RandomAccessFile(trace.toFile(), "rw")) {
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ 0x5A);
        }
        assertEquals(0, exec("trace", "info", trace.toString()), "trace info reads the header, directory and footers only: " + err());
        assertOneLineError(exec("validate", study.toString()), dir.resolve("studies/s.yaml") + ":3:21: workloads[0].trace: trace " + trace + ": byte ");
        assertTrue(err().matches("(?s).*: byte [0-9]+: kernel 0 \\(k0\\) CTA [0-9]+ warp [0-9]+, segment 0: .*corrupt.*\n"), err());
        assertOneLineError(run(), "segment 0: ");
        assertArrayEquals(table, bytes(out.resolve("runs.csv")), "the earlier results are where they were");
        assertFalse(Files.exists(out.resolve("previous")), "nothing was set aside");
    }

    /** A stream-like trace: 8 CTAs of two warps that load an array in strides, a few hundred bytes of deflated segments each. */
    static void write(Path trace) throws Exception {
        try (org.hmsim.platform.traces.TraceWriter w = new org.hmsim.platform.traces.TraceWriter(trace)) {
            w.workload("stream");
            w.allocation(new org.hmsim.platform.traces.TraceAllocation("a", 1 << 20, org.hmsim.api.os.AllocationHint.NONE, false, 0x1_0000_0000L, 0));
            w.beginKernel(org.hmsim.platform.traces.KernelShape.linear("k0", 8, 64, 0));
            org.hmsim.api.workload.WarpInstruction in = new org.hmsim.api.workload.WarpInstruction();
            for (int c = 0; c < 8; c++) {
                for (int warp = 0; warp < 2; warp++)
                    for (int i = 0; i < 200; i++) {
                        in.memory(org.hmsim.api.workload.WarpInstruction.Kind.LOAD, 4, -1, false);
                        for (int l = 0; l < 32; l++) in.addresses[l] = 0x1_0000_0000L + ((c * 2 + warp) * 200 + i) * 128L % (1 << 20) + 4 * l;
                        w.instruction(c, warp, in);
                        in.compute(1 + i % 5, true);
                        w.instruction(c, warp, in);
                    }
                w.endCta(c);
            }
            w.endKernel();
        }
    }

    /** The middle byte of the first warp segment of kernel 0 (docs/traces.md: CTA table, footers, segment descriptors). */
    private static long middleOfASegment(Path trace) throws Exception {
        long table;
        try (org.hmsim.platform.traces.TraceFile f = org.hmsim.platform.traces.TraceFile.open(trace)) {
            table = f.kernels().get(0).ctaTable();
        }
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(Files.readAllBytes(trace)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int cta = 0; ; cta++) {
            long footer = b.getLong((int) table + 8 * cta);
            int warps = b.getInt((int) footer + 8);
            for (int w = 0; w < warps; w++) {
                int segments = b.getInt((int) footer + 12 + 12 * w);
                long descriptors = b.getLong((int) footer + 16 + 12 * w);
                if (segments == 0) continue;
                long offset = b.getLong((int) descriptors);
                int compressed = b.getInt((int) descriptors + 8);
                return offset + compressed / 2;
            }
        }
    }
}
