package org.hmsim.platform.traces.text;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.platform.traces.CpuKind;
import org.hmsim.platform.traces.KernelShape;
import org.hmsim.platform.traces.TraceException;
import org.hmsim.platform.traces.TraceAllocation;
import org.hmsim.platform.traces.TraceFormat;
import org.hmsim.platform.traces.TraceSink;

/**
 * Writes the text twin of the trace format, one instruction per line (docs/traces.md, "Text traces").
 * A {@code cta} / {@code warp} line is written whenever the instruction's warp changes, so interleaved
 * sources come out correct too. Written to a temporary name and renamed on close.
 */
public final class TextTraceWriter implements TraceSink {
    private final Path target, tmp;
    private final Writer out;
    private final StringBuilder line = new StringBuilder(512);
    private int cta = -1, warp = -1;
    private boolean closed;

    public TextTraceWriter(Path file) {
        this.target = file;
        this.tmp = TraceException.prepareOutput(file);
        try {
            out = new BufferedWriter(Files.newBufferedWriter(tmp, StandardCharsets.UTF_8), 1 << 16);
            tmp.toFile().deleteOnExit(); // Ctrl-C or SIGTERM mid-import leaves no .part (after the rename there is none to delete)
            out.write(TraceFormat.TEXT_MAGIC + " " + TraceFormat.TEXT_VERSION + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void workload(String name) { emit("workload " + name); }

    @Override
    public void allocation(TraceAllocation a) {
        emit("alloc " + a.name() + " " + a.bytes() + " base=0x" + Long.toHexString(a.base())
                + (a.hint() != AllocationHint.NONE ? " hint=" + a.hint() : "") + (a.readOnly() ? " ro" : "")
                + (a.compressionRatio() != 0 ? " ratio=" + a.compressionRatio() : ""));
    }

    @Override
    public void beginKernel(KernelShape k) {
        emit("kernel " + k.name() + " grid=" + k.gridX() + "," + k.gridY() + "," + k.gridZ() + " block=" + k.blockX() + ","
                + k.blockY() + "," + k.blockZ() + (k.sharedBytes() != 0 ? " shared=" + k.sharedBytes() : ""));
        cta = warp = -1;
    }

    @Override
    public void instruction(int c, int w, WarpInstruction in) {
        if (c != cta) {
            emit("cta " + c);
            cta = c;
            warp = -1;
        }
        if (w != warp) {
            emit("warp " + w);
            warp = w;
        }
        StringBuilder b = line;
        b.setLength(0);
        switch (in.kind) {
            case COMPUTE -> b.append("compute ").append(in.cycles).append(in.waitsForLoads ? " wait" : "");
            case BARRIER -> b.append("barrier");
            default -> memory(b, in);
        }
        b.append('\n');
        write(b);
    }

    private static void memory(StringBuilder b, WarpInstruction in) {
        b.append(in.kind == WarpInstruction.Kind.LOAD ? "ld " : in.kind == WarpInstruction.Kind.STORE ? "st " : "atom ");
        b.append(in.bytesPerThread);
        int mask = in.activeMask;
        if (mask != -1) b.append(" mask=").append(String.format("%08x", mask));
        if (in.waitsForLoads) b.append(" wait");
        if (mask == 0) return;
        long[] a = in.addresses;
        int first = Integer.numberOfTrailingZeros(mask);
        int rest = mask & ~(1 << first);
        if (rest != 0) {
            int second = Integer.numberOfTrailingZeros(rest);
            long d = a[second] - a[first];
            if (d % (second - first) == 0) {
                long stride = d / (second - first);
                boolean ok = true;
                for (int m = rest; ok && m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    ok = a[l] == a[first] + (l - first) * stride;
                }
                if (ok) {
                    b.append(" 0x").append(Long.toHexString(a[first])).append(" stride=").append(stride);
                    return;
                }
            }
            for (int m = mask; m != 0; m &= m - 1) b.append(" 0x").append(Long.toHexString(a[Integer.numberOfTrailingZeros(m)]));
            return;
        }
        b.append(" 0x").append(Long.toHexString(a[first]));
    }

    @Override
    public void endKernel() {
        emit("end");
        cta = warp = -1;
    }

    @Override
    public void beginCpuPhase(String name) { emit("cpu " + name); }

    @Override
    public void cpuAccess(CpuKind kind, long address, int size) {
        line.setLength(0);
        line.append(kind.letter).append(" 0x").append(Long.toHexString(address)).append(' ').append(size).append('\n');
        write(line);
    }

    @Override
    public void endCpuPhase() { emit("end"); }

    private void emit(String s) {
        line.setLength(0);
        line.append(s).append('\n');
        write(line);
    }

    private void write(CharSequence s) {
        try {
            out.append(s);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) return;
        closed = true;
        out.write(TraceFormat.TEXT_EOF + "\n"); // the reader's proof that nothing was cut after the last item
        out.close();
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Abandons the output after an error. */
    public void abort() {
        closed = true;
        try {
            out.close();
            Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
            // best effort
        }
    }
}
