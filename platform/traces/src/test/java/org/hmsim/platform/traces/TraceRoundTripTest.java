package org.hmsim.platform.traces;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.platform.traces.text.TextTraceReader;
import org.hmsim.platform.traces.text.TextTraceWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Binary and text traces: round trips both ways, and truncated or corrupt files. */
class TraceRoundTripTest {
    @TempDir
    Path dir;

    /** A trace with every instruction form: strided, scattered, partial masks, sizes, waits, barriers, CPU phases. */
    static void generate(TraceSink s, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        s.workload("mixed");
        s.allocation(new TraceAllocation("a", 1 << 20, AllocationHint.BO, true, 0x1_0000_0000L));
        s.allocation(new TraceAllocation("b", 3 << 20, AllocationHint.NONE, false, 0x1_0020_0000L, 1.5)); // a declared compression ratio: the directory's optional tail
        s.beginCpuPhase("init");
        for (int i = 0; i < 500; i++) s.cpuAccess(CpuKind.ofCode(r.nextInt(4)), 0x7ff000000L + r.nextInt(1 << 16), 1 + r.nextInt(70));
        s.endCpuPhase();
        WarpInstruction in = new WarpInstruction();
        s.beginKernel(new KernelShape("k0", 3, 2, 1, 48, 2, 1, 1024));
        for (int c = 0; c < 6; c++) {
            for (int w = 0; w < 3; w++) {
                for (int i = 0; i < 40; i++) {
                    switch (r.nextInt(6)) {
                        case 0 -> in.compute(r.nextInt(20), r.nextBoolean());
                        case 1 -> in.barrier();
                        case 2 -> {
                            in.memory(WarpInstruction.Kind.LOAD, 4, -1, false);
                            for (int l = 0; l < 32; l++) in.addresses[l] = 0x1_0000_0000L + c * 4096 + i * 128 + l * 4;
                        }
                        case 3 -> {
                            in.memory(WarpInstruction.Kind.STORE, 8, r.nextInt() | 1, r.nextBoolean());
                            for (int l = 0; l < 32; l++) in.addresses[l] = 0x1_0020_0000L + r.nextInt(3 << 20) / 8 * 8;
                        }
                        case 4 -> {
                            in.memory(WarpInstruction.Kind.ATOMIC, 16, 0xF0F0, false);
                            for (int l = 0; l < 32; l++) in.addresses[l] = 0x1_0020_0000L - 64L * l + (1 << 20);
                        }
                        default -> in.memory(WarpInstruction.Kind.LOAD, 2, 0, false);
                    }
                    s.instruction(c, w, in);
                }
            }
            s.endCta(c);
        }
        s.endKernel();
        s.beginKernel(KernelShape.linear("k1", 2, 32, 0));
        in.compute(5, false);
        s.instruction(1, 0, in); // CTA 0 has no instructions at all
        s.endKernel();
    }

    static CollectingSink expected(long seed) {
        CollectingSink c = new CollectingSink();
        generate(c, seed);
        return c;
    }

    private Path writeBinary(String name, long seed) throws IOException {
        Path p = dir.resolve(name);
        try (TraceWriter w = new TraceWriter(p)) {
            generate(w, seed);
        }
        return p;
    }

    @Test
    void binaryToTextToBinaryKeepsEveryInstruction() throws IOException {
        Path bin = writeBinary("t.hmt", 7);
        CollectingSink fromBin = new CollectingSink();
        try (TraceFile f = TraceFile.open(bin)) {
            f.readInto(fromBin, false);
            try (TextTraceWriter tw = new TextTraceWriter(dir.resolve("t.hmtt"))) {
                f.readInto(tw, false);
            }
        }
        assertEquals(expected(7).events, fromBin.events);

        CollectingSink fromText = new CollectingSink();
        TextTraceReader.read(dir.resolve("t.hmtt"), "t.hmtt", fromText);
        assertEquals(expected(7).events, fromText.events);

        try (TraceWriter w = new TraceWriter(dir.resolve("t2.hmt"))) {
            TextTraceReader.read(dir.resolve("t.hmtt"), "t.hmtt", w);
        }
        CollectingSink again = new CollectingSink();
        try (TraceFile f = TraceFile.open(dir.resolve("t2.hmt"))) {
            f.readInto(again, false);
        }
        assertEquals(expected(7).events, again.events);
        assertTrue(Files.size(bin) < Files.size(dir.resolve("t.hmtt")), "binary is smaller than text");
    }

    @Test
    void interleavedWritersGiveTheSameWarpStreams() throws IOException {
        // Write the same instructions with warps interleaved and no endCta: each warp's stream must be intact.
        Path p = dir.resolve("i.hmt");
        WarpInstruction in = new WarpInstruction();
        try (TraceWriter w = new TraceWriter(p)) {
            w.allocation(new TraceAllocation("x", 1 << 20, null, false, 0x1000_0000L));
            w.beginKernel(KernelShape.linear("k", 4, 128, 0));
            for (int i = 0; i < 1000; i++)
                for (int c = 3; c >= 0; c--)
                    for (int wp = 0; wp < 4; wp++) {
                        in.memory(WarpInstruction.Kind.LOAD, 4, -1, false);
                        for (int l = 0; l < 32; l++) in.addresses[l] = 0x1000_0000L + ((c * 4 + wp) * 1000 + i) * 128 + l * 4;
                        w.instruction(c, wp, in);
                    }
        }
        try (TraceFile f = TraceFile.open(p)) {
            TraceFile.KernelItem k = f.kernels().get(0);
            for (int c = 0; c < 4; c++)
                for (int wp = 0; wp < 4; wp++) {
                    TraceFile.WarpReader r = f.warp(k, c, wp);
                    for (int i = 0; i < 1000; i++) {
                        assertTrue(r.next(in));
                        assertEquals(0x1000_0000L + ((c * 4 + wp) * 1000 + i) * 128 + 31 * 4, in.addresses[31]);
                    }
                    assertTrue(!r.next(in));
                }
        }
    }

    @Test
    void truncatedFileNamesFileAndPosition() throws IOException {
        Path bin = writeBinary("t.hmt", 3);
        long size = Files.size(bin);
        for (long cut : new long[] {10, size / 2, size - 5}) {
            Path t = dir.resolve("cut" + cut + ".hmt");
            Files.write(t, java.util.Arrays.copyOf(Files.readAllBytes(bin), (int) cut));
            TraceException e = assertThrows(TraceException.class, () -> {
                try (TraceFile f = TraceFile.open(t)) {
                    f.readInto(new CollectingSink(), false);
                }
            });
            assertTrue(e.getMessage().startsWith(t.toString() + ": byte "), e.getMessage());
            assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        }
    }

    @Test
    void unfinishedWriterIsReportedAsTruncated() throws IOException {
        Path p = dir.resolve("u.hmt");
        TraceWriter w = new TraceWriter(p);
        generate(w, 1);
        for (int i = 0; i < 30; i++) generate(w, i); // more than the writer's buffer, so bytes reach the file
        // never closed: only the .part file exists, with a zero directory offset
        Path part = dir.resolve("u.hmt.part");
        assertTrue(Files.exists(part) && !Files.exists(p));
        TraceException e = assertThrows(TraceException.class, () -> TraceFile.open(part).close());
        assertTrue(e.getMessage().contains("did not finish"), e.getMessage());
        w.abort();
        assertTrue(!Files.exists(part));
    }

    @Test
    void corruptBytesAreDetected() throws IOException {
        Path bin = writeBinary("t.hmt", 5);
        long size = Files.size(bin);
        SplittableRandom r = new SplittableRandom(11);
        int detected = 0;
        for (int trial = 0; trial < 12; trial++) {
            Path t = dir.resolve("c" + trial + ".hmt");
            Files.copy(bin, t);
            long at = TraceFormat.HEADER_BYTES + r.nextLong(size - TraceFormat.HEADER_BYTES);
            try (RandomAccessFile raf = new RandomAccessFile(t.toFile(), "rw")) {
                raf.seek(at);
                int b = raf.read();
                raf.seek(at);
                raf.write(b ^ 0x5A);
            }
            try (TraceFile f = TraceFile.open(t)) {
                CollectingSink c = new CollectingSink();
                f.readInto(c, false);
                // A flipped byte in an unused place (deflate padding) may go unnoticed only if the content is intact.
                assertEquals(expected(5).events, c.events, "undetected corruption at byte " + at);
            } catch (TraceException e) {
                assertTrue(e.getMessage().startsWith(t + ": byte "), e.getMessage());
                detected++;
            }
        }
        assertTrue(detected >= 10, "most corruptions detected: " + detected);
    }

    /**
     * Wherever a byte is damaged, the error names a place inside the file: a damaged pointer is reported where it was read,
     * not at the offset it holds (found by an audit: "byte 10836645" of a 15 KB file).
     */
    @Test
    void everyReportedOffsetLiesInsideTheFile() throws IOException {
        Path bin = writeBinary("p.hmt", 5);
        byte[] good = Files.readAllBytes(bin);
        Path t = dir.resolve("p2.hmt");
        int reported = 0;
        for (int at = 0; at < good.length; at += 3) {
            byte[] bad = good.clone();
            bad[at] ^= (byte) 0xA5;
            Files.write(t, bad);
            try (TraceFile f = TraceFile.open(t)) {
                f.readInto(new CollectingSink(), false);
            } catch (TraceException e) {
                reported++;
                assertTrue(e.byteOffset() < good.length, "byte " + at + " damaged: " + e.getMessage());
            }
        }
        assertTrue(reported > good.length / 6, "few damaged bytes were reported: " + reported);
    }

    /**
     * A warp's segment table that starts inside the file but runs past its end is reported at the CTA footer that gives it,
     * not at the table's own offset (which only the damaged pointer named).
     */
    @Test
    void aSegmentTableRunningPastTheEndIsReportedAtItsFooter() throws IOException {
        Path t = writeBinary("s.hmt", 5);
        long size = Files.size(t), footer;
        try (TraceFile f = TraceFile.open(t)) {
            byte[] entry = new byte[8];
            f.file.readFully(f.kernels().get(0).ctaTable(), entry, 8, "test");
            footer = SegmentStream.le64(entry, 0);
        }
        try (RandomAccessFile raf = new RandomAccessFile(t.toFile(), "rw")) {
            raf.seek(footer + 16); // warp 0's table offset: 10 bytes before the end, room for half a descriptor
            raf.write(java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(size - 10).array());
        }
        try (TraceFile f = TraceFile.open(t)) {
            TraceException e = assertThrows(TraceException.class, () -> f.readInto(new CollectingSink(), false));
            assertEquals(footer + 12, e.byteOffset(), e.getMessage());
            assertTrue(e.getMessage().endsWith("segments at byte " + (size - 10) + ", not all inside the file (" + size + " bytes): corrupt"), e.getMessage());
        }
    }

    @Test
    void textErrorsNameFileAndLine() throws IOException {
        Path t = dir.resolve("bad.hmtt");
        Files.writeString(t, "hmsim-trace 1\nalloc a 4096 base=0x1000\nkernel k grid=1 block=32\ncta 0\nwarp 0\nld 4 0x1000 stride=4\nld 4 0x1000 0x1004\ncompute 3\n");
        TraceException e = assertThrows(TraceException.class, () -> TextTraceReader.read(t, "bad.hmtt", new CollectingSink()));
        assertEquals("bad.hmtt:7: 32 active lanes but 2 addresses (give one per active lane, or 0xBASE stride=S)", e.getMessage());
        Files.writeString(t, "hmsim-trace 1\nkernel k grid=1 block=32\ncta 3\n");
        e = assertThrows(TraceException.class, () -> TextTraceReader.read(t, "bad.hmtt", new CollectingSink()));
        assertEquals("bad.hmtt:3: CTA index 3 out of range [0, 0]", e.getMessage());
        // an editor's byte-order mark: said, not "the first line must be 'hmsim-trace 2'" beside a line that is (a trace trial)
        Files.writeString(t, "\uFEFFhmsim-trace 2\neof\n");
        e = assertThrows(TraceException.class, () -> TextTraceReader.read(t, "bad.hmtt", new CollectingSink()));
        assertEquals("bad.hmtt:1: the file starts with a byte-order mark (U+FEFF) before 'hmsim-trace 2': save it as UTF-8 without a BOM", e.getMessage());
    }

    /**
     * A text trace cut short (a copy interrupted, a full disk) was read as a shorter trace, exit 0 (a bad-input review): the
     * last kernel or CPU phase must be closed by 'end' and the last line must end with a newline.
     */
    @Test
    void aTextTraceCutShortIsRefusedAtItsLastLine() throws IOException {
        Path full = dir.resolve("full.hmtt");
        try (TextTraceWriter w = new TextTraceWriter(full)) {
            generate(w, 3);
        }
        String text = Files.readString(full);
        long lines = text.lines().count();
        TextTraceReader.read(full, "full.hmtt", new CollectingSink()); // as written: whole
        Path t = dir.resolve("cut.hmtt");
        Files.writeString(t, text.substring(0, text.lastIndexOf("end\n"))); // cut at a line boundary: the closing line is missing
        TraceException e = assertThrows(TraceException.class, () -> TextTraceReader.read(t, "cut.hmtt", new CollectingSink()));
        assertEquals("cut.hmtt:" + (lines - 2) + ": cut short: kernel k1 has no closing 'end' line (a text trace closes its last kernel or CPU phase with 'end')",
                e.getMessage());
        // cut right after the last item's 'end' (before 2026-11-29 a well-formed shorter trace, read without a word)
        assertTrue(text.startsWith("hmsim-trace 2\n") && text.endsWith("end\neof\n"), "the writer writes version 2 and ends with eof");
        Files.writeString(t, text.substring(0, text.length() - "eof\n".length()));
        e = assertThrows(TraceException.class, () -> TextTraceReader.read(t, "cut.hmtt", new CollectingSink()));
        assertEquals("cut.hmtt:" + (lines - 1) + ": cut short: no 'eof' line (a version-2 text trace ends with one; the file was cut, or its writer did not finish)",
                e.getMessage());
        Files.writeString(t, text + "alloc late 4096 base=0x900000000\n");
        e = assertThrows(TraceException.class, () -> TextTraceReader.read(t, "cut.hmtt", new CollectingSink()));
        assertEquals("cut.hmtt:" + (lines + 1) + ": a line after 'eof', which ends the trace", e.getMessage());
        Files.writeString(t, "hmsim-trace 2\nkernel a grid=1 block=32\neof\n");
        e = assertThrows(TraceException.class, () -> TextTraceReader.read(t, "cut.hmtt", new CollectingSink()));
        assertEquals("cut.hmtt:3: cut short: kernel a has no closing 'end' line (a text trace closes its last kernel or CPU phase with 'end')", e.getMessage());
        Files.writeString(t, "hmsim-trace 3\n");
        e = assertThrows(TraceException.class, () -> TextTraceReader.read(t, "cut.hmtt", new CollectingSink()));
        assertEquals("cut.hmtt:1: unsupported text trace version 3 (this hmsim reads 1 and 2)", e.getMessage());
        Files.writeString(t, text.substring(0, text.length() - 1)); // only the final newline missing
        e = assertThrows(TraceException.class, () -> TextTraceReader.read(t, "cut.hmtt", new CollectingSink()));
        assertEquals("cut.hmtt:" + lines + ": cut short: the last line has no newline (every line of a text trace ends with one)", e.getMessage());
        String mid = text.substring(0, text.indexOf("\nL 0x") + 4); // in the middle of a line of the CPU phase
        Files.writeString(t, mid);
        e = assertThrows(TraceException.class, () -> TextTraceReader.read(t, "cut.hmtt", new CollectingSink()));
        assertEquals("cut.hmtt:" + mid.lines().count() + ": cut short: the last line has no newline (every line of a text trace ends with one)", e.getMessage());
        Files.writeString(t, "hmsim-trace 1\ncpu init\nI 0x400000 4\nL 0x7ff000010 8\n");
        e = assertThrows(TraceException.class, () -> TextTraceReader.read(t, "cut.hmtt", new CollectingSink()));
        assertEquals("cut.hmtt:4: cut short: CPU phase init has no closing 'end' line (a text trace closes its last kernel or CPU phase with 'end')",
                e.getMessage());
        // allocations after the last 'end' (importers write them last) and a kernel closed by the next one are fine
        Files.writeString(t, "hmsim-trace 1\nkernel a grid=1 block=32\nkernel b grid=1 block=32\nend\nalloc x 4096 base=0x1000\n");
        TextTraceReader.read(t, "cut.hmtt", new CollectingSink());
    }

    @Test
    void anAccessOutsideEveryAllocationIsReportedAtItsLine() throws IOException {
        Path t = dir.resolve("stray.hmtt");
        // the alloc line may come after the accesses (importers write them last): 0x1000 is fine, 0x9000 is not
        Files.writeString(t, "hmsim-trace 1\nkernel k grid=1 block=32\ncta 0\nwarp 0\nld 4 0x1000 stride=4\nld 4 mask=1 0x9000\nend\nalloc a 4096 base=0x1000\n");
        TraceException e = assertThrows(TraceException.class, () -> TextTraceReader.read(t, "stray.hmtt", new CollectingSink()));
        assertEquals("stray.hmtt:6: address 0x9000 lies in no allocation of the trace (every GPU access must fall in an 'alloc NAME BYTES base=0x...' range)", e.getMessage());
    }

    /** Overlapping allocations would make an address's relocation ambiguous; a name twice would label two allocations alike. */
    @Test
    void overlappingOrTwiceDeclaredAllocationsAreRefusedAtTheirLine() throws IOException {
        Path t = dir.resolve("overlap.hmtt");
        Files.writeString(t, "hmsim-trace 1\nalloc a 8192 base=0x1000\nalloc b 4096 base=0x2000\n");
        TraceException e = assertThrows(TraceException.class, () -> TextTraceReader.read(t, "overlap.hmtt", new CollectingSink()));
        assertEquals("overlap.hmtt:3: alloc b [0x2000, 0x3000) overlaps alloc a [0x1000, 0x3000): an address must belong to one allocation to be relocated",
                e.getMessage());
        Files.writeString(t, "hmsim-trace 1\nalloc a 4096 base=0x1000\nalloc a 4096 base=0x8000\n");
        e = assertThrows(TraceException.class, () -> TextTraceReader.read(t, "overlap.hmtt", new CollectingSink()));
        assertEquals("overlap.hmtt:3: alloc a is declared twice", e.getMessage());
        Files.writeString(t, "hmsim-trace 1\nalloc a 4096 base=0x1000\nalloc b 4096 base=0x2000\n"); // adjacent is fine
        TextTraceReader.read(t, "overlap.hmtt", new CollectingSink());
        // a binary trace with overlapping allocations (written by hand, not by an importer) is refused when opened
        Path b = dir.resolve("overlap.hmt");
        try (TraceWriter w = new TraceWriter(b)) {
            w.allocation(new TraceAllocation("a", 8192, null, false, 0x1000));
            w.allocation(new TraceAllocation("b", 4096, null, false, 0x0800));
            w.beginKernel(KernelShape.linear("k", 1, 32, 0));
            w.endKernel();
        }
        e = assertThrows(TraceException.class, () -> TraceFile.open(b).close());
        assertTrue(e.getMessage().contains("alloc b [0x800, 0x1800) overlaps alloc a [0x1000, 0x3000)"), e.getMessage());
    }
}
