package org.hmsim.platform.traces;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.CRC32;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.workload.WarpInstruction;

/**
 * An open binary trace: its header and directory (workload name, allocations, kernels and CPU phases in
 * program order) are read at once; every instruction and access is read on demand from the file, so memory
 * does not grow with the trace (docs/traces.md, "Streaming"). Thread-safe: any number of simulations may
 * read one {@code TraceFile} at the same time.
 */
public final class TraceFile implements AutoCloseable {
    /** A kernel or a CPU phase. */
    public sealed interface Item permits KernelItem, CpuPhaseItem {}

    public record KernelItem(int index, KernelShape shape, long ctaTable, long instructions, long memoryInstructions) implements Item {}

    public record CpuPhaseItem(String name, long segmentTable, int segments, long accesses) implements Item {}

    final SharedFile file;
    private final String workload;
    private final List<TraceAllocation> allocations;
    private final List<Item> items;

    private TraceFile(SharedFile file, String workload, List<TraceAllocation> allocations, List<Item> items) {
        this.file = file;
        this.workload = workload;
        this.allocations = allocations;
        this.items = items;
    }

    public static TraceFile open(Path path) { return open(path, path.toString()); }

    /** Opens a binary trace; {@code display} is how errors name it. */
    public static TraceFile open(Path path, String display) {
        SharedFile f = new SharedFile(path, display);
        try {
            return read(f);
        } catch (RuntimeException e) {
            f.close();
            throw e;
        }
    }

    private static TraceFile read(SharedFile f) {
        if (f.size() < TraceFormat.HEADER_BYTES)
            throw TraceException.atByte(f.display, f.size(), "not an hmsim trace: only " + f.size() + " bytes (truncated)");
        byte[] h = new byte[TraceFormat.HEADER_BYTES];
        f.readFully(0, h, h.length, "the header");
        if (!TraceFormat.isBinary(h, h.length)) throw TraceException.atByte(f.display, 0, "not an hmsim binary trace (bad magic)");
        int version = (h[8] & 0xFF) | (h[9] & 0xFF) << 8;
        if (version != TraceFormat.VERSION) throw TraceException.atByte(f.display, 8, "unsupported trace version " + version + " (this hmsim reads " + TraceFormat.VERSION + ")");
        int dirLen = SegmentStream.le32(h, 12);
        long dirOff = SegmentStream.le64(h, 16);
        int dirCrc = SegmentStream.le32(h, 24);
        if (dirOff == 0) throw TraceException.atByte(f.display, 16, "the trace has no directory: its writer did not finish (truncated)");
        if (dirLen < 0 || dirOff < TraceFormat.HEADER_BYTES || dirOff + dirLen > f.size())
            throw TraceException.atByte(f.display, 12, "the directory (" + dirLen + " bytes at " + dirOff + ", as the header says here) lies beyond "
                    + "the end of the file (" + f.size() + " bytes): truncated");
        byte[] dir = new byte[dirLen];
        f.readFully(dirOff, dir, dirLen, "the directory");
        CRC32 crc = new CRC32();
        crc.update(dir);
        if ((int) crc.getValue() != dirCrc) throw TraceException.atByte(f.display, dirOff, "directory checksum mismatch: corrupt");
        try (DataInputStream d = new DataInputStream(new ByteArrayInputStream(dir))) {
            if (d.readInt() != TraceFormat.DIRECTORY_MAGIC) throw TraceException.atByte(f.display, dirOff, "bad directory magic: corrupt");
            String name = d.readUTF();
            int na = d.readInt();
            List<TraceAllocation> allocs = new ArrayList<>();
            AllocationRanges ranges = new AllocationRanges();
            AllocationHint[] hints = AllocationHint.values();
            for (int i = 0; i < na; i++) {
                String an = d.readUTF();
                long bytes = d.readLong();
                int hint = d.readUnsignedByte();
                boolean ro = d.readBoolean();
                long base = d.readLong();
                if (hint >= hints.length) throw TraceException.atByte(f.display, dirOff, "allocation " + an + ": unknown hint " + hint);
                if (bytes <= 0) throw TraceException.atByte(f.display, dirOff, "allocation " + an + ": size " + bytes + " must be > 0: corrupt");
                TraceAllocation a = new TraceAllocation(an, bytes, hints[hint], ro, base);
                String conflict = ranges.add(a);
                if (conflict != null) throw TraceException.atByte(f.display, dirOff, conflict);
                allocs.add(a);
            }
            int ni = d.readInt();
            List<Item> items = new ArrayList<>();
            int kernels = 0;
            for (int i = 0; i < ni; i++) {
                int type = d.readUnsignedByte();
                if (type == TraceFormat.ITEM_KERNEL) {
                    String kn = d.readUTF();
                    int[] v = new int[7];
                    for (int k = 0; k < 7; k++) v[k] = d.readInt();
                    KernelShape s = new KernelShape(kn, v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
                    long table = d.readLong();
                    if (table < TraceFormat.HEADER_BYTES || table + 8L * s.ctas() > f.size())
                        throw TraceException.atByte(f.display, dirOff, "kernel " + kn + ": CTA table beyond the end of the file: corrupt");
                    items.add(new KernelItem(kernels++, s, table, d.readLong(), d.readLong()));
                } else if (type == TraceFormat.ITEM_CPU) {
                    items.add(new CpuPhaseItem(d.readUTF(), d.readLong(), d.readInt(), d.readLong()));
                } else throw TraceException.atByte(f.display, dirOff, "unknown directory item type " + type + ": corrupt");
            }
            if (d.available() > 0) allocs = withRatios(f, dirOff, d, allocs);
            return new TraceFile(f, name, Collections.unmodifiableList(allocs), Collections.unmodifiableList(items));
        } catch (IOException | IllegalArgumentException e) {
            throw TraceException.atByte(f.display, dirOff, "corrupt directory (" + e.getMessage() + ")", e);
        }
    }

    /** The directory's optional tail: each allocation's declared compression ratio. */
    private static List<TraceAllocation> withRatios(SharedFile f, long dirOff, DataInputStream d, List<TraceAllocation> allocs) throws IOException {
        if (d.readInt() != TraceFormat.RATIOS_MAGIC) throw TraceException.atByte(f.display, dirOff, "unknown section after the directory's items: corrupt");
        List<TraceAllocation> out = new ArrayList<>();
        for (TraceAllocation a : allocs) {
            double r = d.readDouble();
            if (!(r == 0 || r >= 1 && r <= 64)) throw TraceException.atByte(f.display, dirOff, "allocation " + a.name() + ": compression ratio " + r + " out of range: corrupt");
            out.add(new TraceAllocation(a.name(), a.bytes(), a.hint(), a.readOnly(), a.base(), r));
        }
        if (d.available() > 0) throw TraceException.atByte(f.display, dirOff, d.available() + " bytes after the directory's last section: corrupt");
        return out;
    }

    public String display() { return file.display; }

    public Path path() { return file.path; }

    public String workloadName() { return workload; }

    public List<TraceAllocation> allocations() { return allocations; }

    public List<Item> items() { return items; }

    public List<KernelItem> kernels() {
        List<KernelItem> l = new ArrayList<>();
        for (Item i : items) if (i instanceof KernelItem k) l.add(k);
        return l;
    }

    /** The warp streams of one CTA: where each warp's segment table is. */
    final class CtaFooter {
        final int cta;
        final int[] segments;
        final long[] tables;

        CtaFooter(KernelItem k, int cta) {
            this.cta = cta;
            byte[] b = new byte[8];
            long entry = k.ctaTable() + 8L * cta;
            file.readFully(entry, b, 8, "the CTA table of kernel " + k.shape().name());
            long off = SegmentStream.le64(b, 0);
            int warps = k.shape().warpsPerCta();
            byte[] h = new byte[12 + 12 * warps];
            // a damaged pointer is reported where it was read, not at the place it names (an audit: "byte 10836645" of a 15 KB file)
            if (off < TraceFormat.HEADER_BYTES || off > file.size() - h.length)
                throw TraceException.atByte(file.display, entry, "the CTA table points CTA " + cta + " of kernel " + k.shape().name() + " at byte " + off
                        + ", outside the file (" + file.size() + " bytes): corrupt");
            file.readFully(off, h, h.length, "the footer of CTA " + cta + " of kernel " + k.shape().name());
            if (SegmentStream.le32(h, 0) != TraceFormat.FOOTER_MAGIC || SegmentStream.le32(h, 4) != cta || SegmentStream.le32(h, 8) != warps)
                throw TraceException.atByte(file.display, off, "corrupt footer of CTA " + cta + " of kernel " + k.shape().name());
            segments = new int[warps];
            tables = new long[warps];
            for (int w = 0; w < warps; w++) {
                segments[w] = SegmentStream.le32(h, 12 + 12 * w);
                tables[w] = SegmentStream.le64(h, 16 + 12 * w);
                if (segments[w] < 0) throw TraceException.atByte(file.display, off, "corrupt footer of CTA " + cta + " of kernel " + k.shape().name());
                // the whole table inside the file: one starting near the end was reported at its own offset, not at the footer
                if (segments[w] > 0 && (tables[w] < TraceFormat.HEADER_BYTES || tables[w] + (long) SegmentStream.DESCRIPTOR * segments[w] > file.size()))
                    throw TraceException.atByte(file.display, off + 12 + 12L * w, "the footer of CTA " + cta + " of kernel " + k.shape().name() + " gives warp "
                            + w + " " + segments[w] + " segments at byte " + tables[w] + ", not all inside the file (" + file.size() + " bytes): corrupt");
            }
        }

        SegmentStream stream(KernelItem k, int warp) {
            return new SegmentStream(file, tables[warp], segments[warp],
                    "kernel " + k.index() + " (" + k.shape().name() + ") CTA " + cta + " warp " + warp);
        }
    }

    /**
     * How many of kernel {@code k}'s thread blocks have at least one traced instruction (Accel-Sim's post-processor
     * leaves out blocks with none; a file cut at a block boundary has fewer too): reads every block's footer.
     */
    public int ctasWithInstructions(KernelItem k) {
        int n = 0;
        for (int c = 0; c < k.shape().ctas(); c++) {
            CtaFooter f = footer(k, c);
            for (int s : f.segments)
                if (s > 0) {
                    n++;
                    break;
                }
        }
        return n;
    }

    CtaFooter footer(KernelItem k, int cta) {
        if (cta < 0 || cta >= k.shape().ctas()) throw new IllegalArgumentException("kernel " + k.shape().name() + ": no CTA " + cta);
        return new CtaFooter(k, cta);
    }

    /** A reader of one warp's instructions, without relocation. */
    public WarpReader warp(KernelItem k, int cta, int warp) { return new WarpReader(footer(k, cta).stream(k, warp), null); }

    /** Reads one CPU phase: call {@link CpuReader#next()} until false. */
    public CpuReader cpuPhase(CpuPhaseItem p) {
        return new CpuReader(new SegmentStream(file, p.segmentTable(), p.segments(), "CPU phase " + p.name()));
    }

    /**
     * Sends the whole trace to {@code sink}: allocations, then items in order. Within a CTA, warps come one
     * after another ({@code interleave} false: the stored order, for conversion) or one instruction per
     * warp in turn ({@code interleave} true: closer to how resident warps issue, for cache replay).
     */
    public void readInto(TraceSink sink, boolean interleave) {
        sink.workload(workload);
        for (TraceAllocation a : allocations) sink.allocation(a);
        WarpInstruction in = new WarpInstruction();
        for (Item item : items) {
            if (item instanceof KernelItem k) {
                sink.beginKernel(k.shape());
                int warps = k.shape().warpsPerCta();
                for (int c = 0; c < k.shape().ctas(); c++) {
                    CtaFooter f = footer(k, c);
                    if (!interleave) {
                        for (int w = 0; w < warps; w++) {
                            WarpReader r = new WarpReader(f.stream(k, w), null);
                            while (r.next(in)) sink.instruction(c, w, in);
                        }
                    } else {
                        WarpReader[] rs = new WarpReader[warps];
                        for (int w = 0; w < warps; w++) rs[w] = new WarpReader(f.stream(k, w), null);
                        for (int live = warps; live > 0; ) {
                            live = 0;
                            for (int w = 0; w < warps; w++) {
                                if (rs[w] == null) continue;
                                if (rs[w].next(in)) {
                                    sink.instruction(c, w, in);
                                    live++;
                                } else rs[w] = null;
                            }
                        }
                    }
                    sink.endCta(c);
                }
                sink.endKernel();
            } else {
                CpuPhaseItem p = (CpuPhaseItem) item;
                sink.beginCpuPhase(p.name());
                CpuReader r = cpuPhase(p);
                while (r.next()) sink.cpuAccess(r.kind, r.address, r.size);
                sink.endCpuPhase();
            }
        }
    }

    @Override
    public void close() { file.close(); }

    /** Decodes a warp stream, optionally relocating addresses. */
    public static final class WarpReader implements org.hmsim.api.workload.WarpProgram {
        private final SegmentStream src;
        private final WarpCodec.State state = new WarpCodec.State();
        private final Relocation relocation;

        WarpReader(SegmentStream src, Relocation relocation) {
            this.src = src;
            this.relocation = relocation;
        }

        @Override
        public boolean next(WarpInstruction out) {
            if (!WarpCodec.decode(src, state, out)) return false;
            if (relocation != null && out.kind != WarpInstruction.Kind.COMPUTE && out.kind != WarpInstruction.Kind.BARRIER)
                relocation.apply(out.addresses, out.activeMask);
            return true;
        }
    }

    /** Decodes a CPU phase: after {@link #next()} returns true, {@link #kind}, {@link #address}, {@link #size} hold the access. */
    public static final class CpuReader {
        private final SegmentStream src;
        private final long[] prev = new long[4];
        public CpuKind kind;
        public long address;
        public int size;

        CpuReader(SegmentStream src) { this.src = src; }

        public boolean next() {
            int b = src.read();
            if (b < 0) return false;
            int k = b & 3;
            int s = b >>> 2;
            if (s == 0) {
                long v = src.varint("a CPU access size");
                if (v <= 0 || v > Integer.MAX_VALUE) throw src.error("CPU access size " + v + " out of range (corrupt)");
                s = (int) v;
            }
            kind = CpuKind.ofCode(k);
            address = prev[k] + src.zigzag("a CPU address");
            prev[k] = address;
            size = s;
            return true;
        }
    }
}
