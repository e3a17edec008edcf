package org.hmsim.platform.traces;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.workload.WarpInstruction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TraceVerifier}: a damaged byte anywhere in a trace's body is found before a run, or changes nothing that is read
 * (a bad-input review: a damaged segment passed validate, which opens a trace by its header and directory only).
 */
class TraceVerifierTest {
    @TempDir
    Path dir;

    /** Two kernels of strided and scattered loads, stores and compute, and a CPU phase: a few kilobytes. */
    static void write(Path p) {
        SplittableRandom r = new SplittableRandom(3);
        try (TraceWriter w = new TraceWriter(p)) {
            w.workload("verify");
            w.allocation(new TraceAllocation("a", 1 << 20, AllocationHint.NONE, false, 0x1_0000_0000L, 0));
            WarpInstruction in = new WarpInstruction();
            for (int k = 0; k < 2; k++) {
                w.beginKernel(KernelShape.linear("k" + k, 3, 64, 0));
                for (int c = 0; c < 3; c++) {
                    for (int warp = 0; warp < 2; warp++)
                        for (int i = 0; i < 30; i++) {
                            if (i % 3 == 2) in.compute(1 + r.nextInt(9), r.nextBoolean());
                            else {
                                in.memory(i % 3 == 0 ? WarpInstruction.Kind.LOAD : WarpInstruction.Kind.STORE, 4, r.nextInt(4) == 0 ? r.nextInt() | 1 : -1, false);
                                boolean strided = r.nextBoolean();
                                for (int l = 0; l < 32; l++)
                                    in.addresses[l] = 0x1_0000_0000L + (strided ? (c * 64 + i) * 128L + 4 * l : r.nextInt(1 << 18) * 4L);
                            }
                            w.instruction(c, warp, in);
                        }
                    w.endCta(c);
                }
                w.endKernel();
            }
            w.beginCpuPhase("init");
            for (int i = 0; i < 200; i++) w.cpuAccess(CpuKind.ofCode(r.nextInt(4)), 0x7ff000000L + r.nextInt(1 << 14), 1 + r.nextInt(16));
            w.endCpuPhase();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aWholeTraceIsReadAndCounted() throws Exception {
        Path p = dir.resolve("t.hmt");
        write(p);
        try (TraceFile f = TraceFile.open(p)) {
            assertEquals(new TraceVerifier.Summary(2, 6, 360, 240, 1, 200), TraceVerifier.verify(f));
        }
    }

    /** Every byte of the body flipped in turn: found, naming the file and a byte, or nothing read changes. */
    @Test
    void everyDamagedByteOfTheBodyIsFoundOrChangesNothing() throws Exception {
        Path p = dir.resolve("t.hmt");
        write(p);
        byte[] good = Files.readAllBytes(p);
        long directory = ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN).getLong(16);
        String content = content(p);
        Path t = dir.resolve("damaged.hmt");
        int found = 0, harmless = 0;
        for (int at = TraceFormat.HEADER_BYTES; at < directory; at++) {
            byte[] b = good.clone();
            b[at] ^= 0x5A;
            Files.write(t, b);
            try (TraceFile f = TraceFile.open(t)) {
                TraceVerifier.verify(f);
                assertEquals(content, content(t), "undetected damage at byte " + at);
                harmless++;
            } catch (TraceException e) {
                assertTrue(e.getMessage().startsWith(t + ": byte "), e.getMessage());
                found++;
            }
        }
        assertTrue(found > 0.95 * (found + harmless), found + " of " + (found + harmless) + " found");
    }

    /**
     * A warp's segment count set to 0 in its CTA's footer keeps every pointer plausible and every checksum right: the warp
     * just had no instructions, and a run simulated the kernel without them. The directory's counts show it.
     */
    @Test
    void aWarpDroppedFromItsFooterIsFoundByTheDirectorysCounts() throws Exception {
        Path p = dir.resolve("t.hmt");
        write(p);
        long table;
        try (TraceFile f = TraceFile.open(p)) {
            table = f.kernels().get(1).ctaTable();
        }
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(p)).order(ByteOrder.LITTLE_ENDIAN);
        long footer = b.getLong((int) table + 8); // CTA 1
        assertEquals(1, b.getInt((int) footer + 12 + 12), "warp 1 has one segment");
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
            f.seek(footer + 24);
            f.write(new byte[4]);
        }
        try (TraceFile f = TraceFile.open(p)) {
            TraceException e = assertThrows(TraceException.class, () -> TraceVerifier.verify(f));
            assertEquals(p + ": byte " + table + ": kernel 1 (k1): its warps hold 150 instructions (100 memory), the directory records 180 (120): "
                    + "corrupt or cut short", e.getMessage());
        }
    }

    /** Everything a run reads of a trace, as text. */
    private static String content(Path p) {
        StringBuilder s = new StringBuilder();
        WarpInstruction in = new WarpInstruction();
        try (TraceFile f = TraceFile.open(p)) {
            s.append(f.workloadName()).append(f.allocations());
            for (TraceFile.Item item : f.items()) {
                if (item instanceof TraceFile.KernelItem k) {
                    s.append(k.shape());
                    for (int c = 0; c < k.shape().ctas(); c++)
                        for (int w = 0; w < k.shape().warpsPerCta(); w++) {
                            TraceFile.WarpReader r = f.warp(k, c, w);
                            while (r.next(in)) {
                                s.append(in.kind).append(in.cycles).append(in.waitsForLoads).append(in.activeMask).append(in.bytesPerThread);
                                for (int l = 0; l < 32; l++) if ((in.activeMask >>> l & 1) != 0) s.append(',').append(in.addresses[l]);
                                s.append(';');
                            }
                        }
                } else {
                    TraceFile.CpuReader r = f.cpuPhase((TraceFile.CpuPhaseItem) item);
                    while (r.next()) s.append(r.kind).append(r.address).append(r.size).append(';');
                }
            }
        }
        return s.toString();
    }
}
