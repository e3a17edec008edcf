package org.hmsim.platform.traces;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import org.hmsim.api.workload.WarpInstruction;

/**
 * Writes hmsim's binary trace format as a stream (docs/traces.md). Each warp's instructions are encoded
 * into a small buffer that is deflated into a segment when it grows past {@link TraceFormat#WARP_SEGMENT_RAW}
 * or when its CTA ends, so sources that emit warp by warp (the recorder, Accel-Sim, text) keep at most one
 * CTA's buffers, and interleaved sources (NVBit) are bounded by {@link TraceFormat#WRITER_BUDGET} plus
 * 20 bytes per segment of the current kernel. The file is written to a temporary name and renamed on
 * {@link #close}, so an interrupted writer never leaves a file that looks complete.
 */
public final class TraceWriter implements TraceSink {
    private final Path target, tmp;
    private final FileChannel ch;
    private final ByteBuffer wbuf = ByteBuffer.allocate(64 << 10).order(ByteOrder.LITTLE_ENDIAN);
    private long pos;
    private final Deflater deflater = new Deflater(6, true);
    private final byte[] dbuf = new byte[64 << 10];
    private final CRC32 crc = new CRC32();

    private String workload = "trace";
    private final List<TraceAllocation> allocations = new ArrayList<>();
    private final ByteArrayOutputStream items = new ByteArrayOutputStream();
    private final DataOutputStream itemsOut = new DataOutputStream(items);
    private int itemCount;

    // current kernel
    private KernelShape kernel;
    private long[] footerOffset;
    private final Map<Long, Warp> open = new HashMap<>();
    private long buffered;
    private long instructions, memInstructions;
    private Warp last;
    private long lastKey = -1;

    // current CPU phase
    private String phase;
    private Warp cpu;
    private final long[] prevCpu = new long[4];
    private long cpuAccesses;
    private boolean closed;

    /** One open warp: its encoder state, raw buffer and segments so far. */
    private static final class Warp {
        final WarpCodec.State state = new WarpCodec.State();
        final ByteBuf raw = new ByteBuf(256);
        long[] seg = new long[0]; // triples: offset, compressed length, (raw length << 32 | crc)
        int segs;
    }

    public TraceWriter(Path out) {
        this.target = out;
        this.tmp = TraceException.prepareOutput(out);
        try {
            ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
            tmp.toFile().deleteOnExit(); // Ctrl-C or SIGTERM mid-import leaves no .part (after the rename there is none to delete)
            // The magic and version now, the directory's place at close: a file cut short reads as unfinished.
            wbuf.put(TraceFormat.MAGIC).putShort((short) TraceFormat.VERSION).put(new byte[TraceFormat.HEADER_BYTES - 10]);
            pos = TraceFormat.HEADER_BYTES;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + out + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void workload(String name) { this.workload = name; }

    @Override
    public void allocation(TraceAllocation a) { allocations.add(a); }

    @Override
    public void beginKernel(KernelShape k) {
        if (kernel != null || phase != null) throw new IllegalStateException("beginKernel inside another kernel or CPU phase");
        kernel = k;
        footerOffset = new long[k.ctas()];
        instructions = memInstructions = 0;
    }

    @Override
    public void instruction(int cta, int warp, WarpInstruction in) {
        if (kernel == null) throw new IllegalStateException("instruction outside a kernel");
        long key = (long) cta * 32 + warp;
        Warp w = key == lastKey ? last : warp(cta, warp, key);
        int before = w.raw.len;
        WarpCodec.encode(in, w.state, w.raw);
        buffered += w.raw.len - before;
        instructions++;
        if (in.kind != WarpInstruction.Kind.COMPUTE && in.kind != WarpInstruction.Kind.BARRIER) memInstructions++;
        if (w.raw.len >= TraceFormat.WARP_SEGMENT_RAW) flush(w);
        if (buffered > TraceFormat.WRITER_BUDGET) for (Warp o : open.values()) flush(o);
    }

    private Warp warp(int cta, int warp, long key) {
        if (cta < 0 || cta >= kernel.ctas()) throw new IllegalArgumentException("kernel " + kernel.name() + ": no CTA " + cta + " (grid of " + kernel.ctas() + ")");
        if (warp < 0 || warp >= kernel.warpsPerCta()) throw new IllegalArgumentException("kernel " + kernel.name() + ": no warp " + warp + " in a CTA of " + kernel.threadsPerCta() + " threads");
        if (footerOffset[cta] != 0) throw new IllegalArgumentException("kernel " + kernel.name() + ": CTA " + cta + " was already ended");
        Warp w = open.computeIfAbsent(key, k -> new Warp());
        last = w;
        lastKey = key;
        return w;
    }

    @Override
    public void endCta(int cta) {
        if (kernel == null || cta < 0 || cta >= kernel.ctas() || footerOffset[cta] != 0) return;
        writeFooter(cta);
    }

    @Override
    public void endKernel() {
        if (kernel == null) throw new IllegalStateException("endKernel without beginKernel");
        for (int c = 0; c < footerOffset.length; c++) if (footerOffset[c] == 0) writeFooter(c);
        long table = pos;
        for (long off : footerOffset) putLong(off);
        try {
            itemsOut.writeByte(TraceFormat.ITEM_KERNEL);
            itemsOut.writeUTF(kernel.name());
            for (int v : new int[] {kernel.gridX(), kernel.gridY(), kernel.gridZ(), kernel.blockX(), kernel.blockY(), kernel.blockZ(), kernel.sharedBytes()})
                itemsOut.writeInt(v);
            itemsOut.writeLong(table);
            itemsOut.writeLong(instructions);
            itemsOut.writeLong(memInstructions);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        itemCount++;
        kernel = null;
        footerOffset = null;
        open.clear();
        last = null;
        lastKey = -1;
        buffered = 0;
    }

    /** CTA footer: magic, cta, warps, per warp (u32 segment count, u64 table offset), then the tables. */
    private void writeFooter(int cta) {
        int warps = kernel.warpsPerCta();
        Warp[] ws = new Warp[warps];
        for (int w = 0; w < warps; w++) {
            Warp x = open.remove((long) cta * 32 + w);
            if (x != null) flush(x);
            ws[w] = x;
        }
        if (last != null && lastKey / 32 == cta) {
            last = null;
            lastKey = -1;
        }
        long start = pos;
        long tables = start + 12 + 12L * warps;
        putInt(TraceFormat.FOOTER_MAGIC);
        putInt(cta);
        putInt(warps);
        long t = tables;
        for (Warp x : ws) {
            int n = x == null ? 0 : x.segs;
            putInt(n);
            putLong(t);
            t += (long) n * SegmentStream.DESCRIPTOR;
        }
        for (Warp x : ws) if (x != null) putDescriptors(x);
        footerOffset[cta] = start;
    }

    private void putDescriptors(Warp x) {
        for (int s = 0; s < x.segs; s++) {
            putLong(x.seg[3 * s]);
            putInt((int) x.seg[3 * s + 1]);
            putInt((int) (x.seg[3 * s + 2] >>> 32));
            putInt((int) x.seg[3 * s + 2]);
        }
    }

    private void flush(Warp w) {
        if (w.raw.len == 0) return;
        long off = pos;
        long comp = deflate(w.raw);
        if (w.segs * 3 == w.seg.length) w.seg = java.util.Arrays.copyOf(w.seg, Math.max(3, w.seg.length * 2));
        w.seg[3 * w.segs] = off;
        w.seg[3 * w.segs + 1] = comp;
        w.seg[3 * w.segs + 2] = (long) w.raw.len << 32 | (crc.getValue() & 0xFFFFFFFFL);
        w.segs++;
        buffered -= w.raw.len;
        w.raw.shrink(256);
    }

    /** Deflates {@code raw} at the current position; returns the compressed length and leaves its CRC in {@link #crc}. */
    private long deflate(ByteBuf raw) {
        crc.reset();
        crc.update(raw.a, 0, raw.len);
        deflater.reset();
        deflater.setInput(raw.a, 0, raw.len);
        deflater.finish();
        long start = pos;
        while (!deflater.finished()) {
            int n = deflater.deflate(dbuf);
            putBytes(dbuf, n);
        }
        return pos - start;
    }

    @Override
    public void beginCpuPhase(String name) {
        if (kernel != null || phase != null) throw new IllegalStateException("beginCpuPhase inside another kernel or CPU phase");
        phase = name;
        cpu = new Warp();
        java.util.Arrays.fill(prevCpu, 0);
        cpuAccesses = 0;
    }

    @Override
    public void cpuAccess(CpuKind kind, long address, int size) {
        if (phase == null) throw new IllegalStateException("CPU access outside a CPU phase");
        WarpCodec.encodeCpu(kind, address, size, prevCpu, cpu.raw);
        cpuAccesses++;
        if (cpu.raw.len >= TraceFormat.CPU_SEGMENT_RAW) flush(cpu);
    }

    @Override
    public void endCpuPhase() {
        if (phase == null) throw new IllegalStateException("endCpuPhase without beginCpuPhase");
        flush(cpu);
        long table = pos;
        putDescriptors(cpu);
        try {
            itemsOut.writeByte(TraceFormat.ITEM_CPU);
            itemsOut.writeUTF(phase);
            itemsOut.writeLong(table);
            itemsOut.writeInt(cpu.segs);
            itemsOut.writeLong(cpuAccesses);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        itemCount++;
        phase = null;
        cpu = null;
    }

    @Override
    public void close() throws IOException {
        if (closed) return;
        closed = true;
        try {
            if (kernel != null) endKernel();
            if (phase != null) endCpuPhase();
            ByteArrayOutputStream dir = new ByteArrayOutputStream();
            DataOutputStream d = new DataOutputStream(dir);
            d.writeInt(TraceFormat.DIRECTORY_MAGIC);
            d.writeUTF(workload);
            d.writeInt(allocations.size());
            for (TraceAllocation a : allocations) {
                d.writeUTF(a.name());
                d.writeLong(a.bytes());
                d.writeByte(a.hint().ordinal());
                d.writeBoolean(a.readOnly());
                d.writeLong(a.base());
            }
            d.writeInt(itemCount);
            items.writeTo(d);
            if (allocations.stream().anyMatch(a -> a.compressionRatio() != 0)) {
                d.writeInt(TraceFormat.RATIOS_MAGIC);
                for (TraceAllocation a : allocations) d.writeDouble(a.compressionRatio());
            }
            d.flush();
            byte[] bytes = dir.toByteArray();
            long dirOffset = pos;
            putBytes(bytes, bytes.length);
            drain();
            crc.reset();
            crc.update(bytes);
            ByteBuffer h = ByteBuffer.allocate(TraceFormat.HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            h.put(TraceFormat.MAGIC).putShort((short) TraceFormat.VERSION).putShort((short) 0).putInt(bytes.length)
                    .putLong(dirOffset).putInt((int) crc.getValue()).putInt(0).flip();
            while (h.hasRemaining()) ch.write(h, h.position());
            ch.force(false);
        } finally {
            ch.close();
            deflater.end();
        }
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Abandons the file (after an error in the source): closes and deletes the temporary file. */
    public void abort() {
        closed = true;
        try {
            ch.close();
        } catch (IOException ignored) {
            // deleting it next
        }
        deflater.end();
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
            // best effort
        }
    }

    // ---- little-endian output with a position ----

    private void putInt(int v) {
        ensure(4);
        wbuf.putInt(v);
        pos += 4;
    }

    private void putLong(long v) {
        ensure(8);
        wbuf.putLong(v);
        pos += 8;
    }

    private void putBytes(byte[] b, int n) {
        int o = 0;
        while (o < n) {
            if (!wbuf.hasRemaining()) drain();
            int k = Math.min(n - o, wbuf.remaining());
            wbuf.put(b, o, k);
            o += k;
        }
        pos += n;
    }

    private void ensure(int n) {
        if (wbuf.remaining() < n) drain();
    }

    private void drain() {
        wbuf.flip();
        try {
            while (wbuf.hasRemaining()) ch.write(wbuf);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
        wbuf.clear();
    }
}
