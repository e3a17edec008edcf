package org.hmsim.platform.traces.text;

import java.nio.file.Path;
import java.util.Locale;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.platform.traces.CpuKind;
import org.hmsim.platform.traces.KernelShape;
import org.hmsim.platform.traces.LineSource;
import org.hmsim.platform.traces.TraceAllocation;
import org.hmsim.platform.traces.TraceFormat;
import org.hmsim.platform.traces.TraceSink;

/**
 * Reads a text trace (docs/traces.md, "Text traces") line by line into a {@link TraceSink}; every error
 * names the file and line. Memory does not grow with the file.
 */
public final class TextTraceReader {
    private final LineSource src;
    private final TraceSink sink;
    private final WarpInstruction in = new WarpInstruction();
    private KernelShape kernel;
    private boolean cpu;
    private String cpuName;
    private int cta = -1, warp = -1;

    private TextTraceReader(LineSource src, TraceSink sink) {
        this.src = src;
        this.sink = sink;
    }

    public static void read(Path file, String display, TraceSink sink) {
        try (LineSource src = new LineSource(file, display)) {
            new TextTraceReader(src, sink).run();
        }
    }

    private void run() {
        String first = next();
        String header = TraceFormat.TEXT_MAGIC + " " + TraceFormat.TEXT_VERSION;
        if (first == null) throw src.fail("empty file: a text trace starts with '" + header + "'");
        String[] h = first.trim().split("\\s+");
        // an editor's UTF-8 byte-order mark, read as one character or as its three bytes (a trace trial)
        if (h.length == 2 && (h[0].equals("\uFEFF" + TraceFormat.TEXT_MAGIC) || h[0].equals("\u00EF\u00BB\u00BF" + TraceFormat.TEXT_MAGIC)))
            throw src.fail("the file starts with a byte-order mark (U+FEFF) before '" + header + "': save it as UTF-8 without a BOM");
        if (h.length != 2 || !h[0].equals(TraceFormat.TEXT_MAGIC))
            throw src.fail("not an hmsim text trace: the first line must be '" + header + "'");
        if (!h[1].equals("1") && !h[1].equals("2"))
            throw src.fail("unsupported text trace version " + h[1] + " (this hmsim reads 1 and 2)");
        boolean endsWithEof = h[1].equals("2");
        for (String l; (l = next()) != null; ) {
            if (eof) throw src.fail("a line after '" + TraceFormat.TEXT_EOF + "', which ends the trace");
            try {
                line(l);
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw src.fail(e.getMessage());
            }
        }
        requireClosed();
        if (endsWithEof && !eof)
            throw src.fail("cut short: no '" + TraceFormat.TEXT_EOF + "' line (a version-2 text trace ends with one; the file was cut, or"
                    + " its writer did not finish)");
        checkStrays();
    }

    /** The {@code eof} line was read (version 2's last line; version 1 may have it too). */
    private boolean eof;

    /**
     * A trace cut at a line boundary inside its last kernel or CPU phase would otherwise read as a shorter trace (a
     * bad-input review): the writer closes each with 'end', so the last one must be closed. ('kernel' and 'cpu' lines
     * still close the item before them.)
     */
    private void requireClosed() {
        if (kernel == null && !cpu) return;
        String item = kernel != null ? "kernel " + kernel.name() : "CPU phase " + cpuName;
        throw src.fail("cut short: " + item + " has no closing 'end' line (a text trace closes its last kernel or CPU phase with 'end')");
    }

    // Addresses outside every allocation cannot be relocated and would stop a run as a segmentation fault;
    // alloc lines may come anywhere, so candidates are kept (the first few) and checked at the end.
    private static final int STRAYS = 1024;
    private final org.hmsim.platform.traces.AllocationRanges allocRanges = new org.hmsim.platform.traces.AllocationRanges();
    private final long[] strayAddress = new long[STRAYS], strayLine = new long[STRAYS];
    private int strays;

    private boolean inAllocation(long address) { return allocRanges.contains(address); }

    private void noteIfStray(long address) {
        if (strays < STRAYS && !inAllocation(address)) {
            strayAddress[strays] = address;
            strayLine[strays++] = src.number();
        }
    }

    private void checkStrays() {
        for (int i = 0; i < strays; i++)
            if (!inAllocation(strayAddress[i]))
                throw org.hmsim.platform.traces.TraceException.atLine(src.display(), strayLine[i], "address 0x" + Long.toHexString(strayAddress[i])
                        + " lies in no allocation of the trace (every GPU access must fall in an 'alloc NAME BYTES base=0x...' range)");
    }

    /** The next line without comments; blank lines are skipped. */
    private String next() {
        for (String l; (l = src.next()) != null; ) {
            // every line the writer writes ends with a newline: a last line without one was cut inside (a bad-input review)
            if (!src.terminated())
                throw org.hmsim.platform.traces.TraceException.atLine(src.display(), src.number(),
                        "cut short: the last line has no newline (every line of a text trace ends with one)");
            int hash = l.indexOf('#');
            if (hash >= 0) l = l.substring(0, hash);
            l = l.trim();
            if (!l.isEmpty()) return l;
        }
        return null;
    }

    private void line(String l) {
        String[] t = l.split("\\s+");
        switch (t[0]) {
            case "workload" -> sink.workload(l.substring("workload".length()).trim());
            case "alloc" -> alloc(t);
            case "kernel" -> kernel(t);
            case "cta" -> {
                requireKernel(t[0]);
                arity(t, 2);
                cta = src.decInt(t[1], "CTA index", 0, kernel.ctas() - 1);
                warp = -1;
            }
            case "warp" -> {
                requireKernel(t[0]);
                if (cta < 0) throw src.fail("'warp' before any 'cta' line");
                arity(t, 2);
                warp = src.decInt(t[1], "warp index", 0, kernel.warpsPerCta() - 1);
            }
            case "compute" -> compute(t);
            case "barrier" -> {
                arity(t, 1);
                requireWarp(t[0]);
                in.barrier();
                sink.instruction(cta, warp, in);
            }
            case "ld", "st", "atom" -> memory(t);
            case "cpu" -> {
                arity(t, 2);
                closeItem();
                sink.beginCpuPhase(t[1]);
                cpu = true;
                cpuName = t[1];
            }
            case TraceFormat.TEXT_EOF -> {
                arity(t, 1);
                requireClosed();
                eof = true;
            }
            case "end" -> {
                arity(t, 1);
                if (kernel == null && !cpu) throw src.fail("'end' outside a kernel or CPU phase");
                closeItem();
            }
            case "I", "L", "S", "M" -> cpuAccess(t);
            default -> throw src.fail("unknown line '" + t[0] + "' (expected workload, alloc, kernel, cta, warp, ld, st, atom, compute, barrier, cpu, I, L, S, M, end or eof)");
        }
    }

    /** ratio=R: how well the allocation's data compress, 1 (incompressible) to 64. */
    private double compressionRatio(String v) {
        double r;
        try {
            r = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw src.fail("ratio=" + v + ": not a number");
        }
        if (!(r >= 1 && r <= 64)) throw src.fail("ratio=" + v + " is out of range [1, 64] (1 = incompressible)");
        return r;
    }

    private void alloc(String[] t) {
        if (t.length < 3) throw src.fail("alloc needs a name and a size: alloc NAME BYTES base=0x... [hint=BO] [ro]");
        long bytes = src.dec(t[2], "allocation size");
        if (bytes <= 0) throw src.fail("allocation size must be > 0");
        long base = -1;
        AllocationHint hint = AllocationHint.NONE;
        boolean ro = false;
        double ratio = 0;
        for (int i = 3; i < t.length; i++) {
            if (t[i].startsWith("base=")) base = src.hex(t[i].substring(5), "base address");
            else if (t[i].startsWith("ratio=")) ratio = compressionRatio(t[i].substring(6));
            else if (t[i].startsWith("hint=")) {
                try {
                    hint = AllocationHint.valueOf(t[i].substring(5).toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw src.fail("unknown hint '" + t[i].substring(5) + "' (BO, CO, BW or NONE)");
                }
            } else if (t[i].equals("ro")) ro = true;
            else throw src.fail("unknown alloc field '" + t[i] + "' (base=, hint=, ro, ratio=)");
        }
        if (base < 0) throw src.fail("alloc " + t[1] + ": missing base=0x... (the address its accesses were recorded at)");
        TraceAllocation a = new TraceAllocation(t[1], bytes, hint, ro, base, ratio);
        String conflict = allocRanges.add(a);
        if (conflict != null) throw src.fail(conflict);
        sink.allocation(a);
    }

    private void kernel(String[] t) {
        if (t.length < 4) throw src.fail("kernel needs a name, grid= and block=: kernel NAME grid=X[,Y,Z] block=X[,Y,Z] [shared=N]");
        closeItem();
        int[] grid = null, block = null;
        int shared = 0;
        for (int i = 2; i < t.length; i++) {
            if (t[i].startsWith("grid=")) grid = dims(t[i].substring(5), "grid");
            else if (t[i].startsWith("block=")) block = dims(t[i].substring(6), "block");
            else if (t[i].startsWith("shared=")) shared = src.decInt(t[i].substring(7), "shared memory", 0, Integer.MAX_VALUE);
            else throw src.fail("unknown kernel field '" + t[i] + "' (grid=, block=, shared=)");
        }
        if (grid == null || block == null) throw src.fail("kernel " + t[1] + ": needs grid= and block=");
        try {
            kernel = new KernelShape(t[1], grid[0], grid[1], grid[2], block[0], block[1], block[2], shared);
        } catch (IllegalArgumentException e) {
            throw src.fail(e.getMessage());
        }
        sink.beginKernel(kernel);
        cta = warp = -1;
    }

    private int[] dims(String s, String what) {
        String[] p = s.split(",");
        if (p.length > 3) throw src.fail(what + " has at most 3 dimensions: " + s);
        int[] d = {1, 1, 1};
        for (int i = 0; i < p.length; i++) d[i] = src.decInt(p[i], what + " dimension", 1, Integer.MAX_VALUE);
        return d;
    }

    private void compute(String[] t) {
        requireWarp(t[0]);
        if (t.length < 2 || t.length > 3 || (t.length == 3 && !t[2].equals("wait"))) throw src.fail("syntax: compute CYCLES [wait]");
        in.compute(src.decInt(t[1], "cycles", 0, Integer.MAX_VALUE), t.length == 3);
        sink.instruction(cta, warp, in);
    }

    private void memory(String[] t) {
        requireWarp(t[0]);
        if (t.length < 2) throw src.fail("syntax: " + t[0] + " SIZE [mask=HEX] [wait] (0xBASE stride=S | ADDRESS...)");
        WarpInstruction.Kind kind = t[0].equals("ld") ? WarpInstruction.Kind.LOAD : t[0].equals("st") ? WarpInstruction.Kind.STORE : WarpInstruction.Kind.ATOMIC;
        int size = src.decInt(t[1], "access size", 1, 16);
        int i = 2, mask = -1;
        boolean wait = false;
        if (i < t.length && t[i].startsWith("mask=")) mask = src.mask(t[i++].substring(5), "active mask");
        if (i < t.length && t[i].equals("wait")) {
            wait = true;
            i++;
        }
        in.memory(kind, size, mask, wait);
        int lanes = Integer.bitCount(mask);
        long[] a = in.addresses;
        if (i + 2 == t.length && t[i + 1].startsWith("stride=")) {
            long base = src.hex(t[i], "address");
            long stride = src.dec(t[i + 1].substring(7), "stride");
            int first = Integer.numberOfTrailingZeros(mask);
            for (int m = mask; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                a[l] = base + (l - first) * stride;
            }
        } else {
            if (t.length - i != lanes)
                throw src.fail(lanes + " active lanes but " + (t.length - i) + " addresses (give one per active lane, or 0xBASE stride=S)");
            for (int m = mask; m != 0; m &= m - 1) a[Integer.numberOfTrailingZeros(m)] = src.hex(t[i++], "address");
        }
        for (int m = mask; m != 0; m &= m - 1) noteIfStray(a[Integer.numberOfTrailingZeros(m)]);
        sink.instruction(cta, warp, in);
    }

    private void cpuAccess(String[] t) {
        if (!cpu) throw src.fail("CPU access outside a 'cpu NAME' phase");
        arity(t, 3);
        long addr = src.hex(t[1], "address");
        int size = src.decInt(t[2], "access size", 1, Integer.MAX_VALUE);
        sink.cpuAccess(CpuKind.ofLetter(t[0].charAt(0)), addr, size);
    }

    private void requireKernel(String what) {
        if (kernel == null) throw src.fail("'" + what + "' outside a kernel");
    }

    private void requireWarp(String what) {
        requireKernel(what);
        if (warp < 0) throw src.fail("'" + what + "' before 'cta N' and 'warp N' lines");
    }

    private void arity(String[] t, int n) {
        if (t.length != n) throw src.fail("'" + t[0] + "' takes " + (n - 1) + " argument" + (n == 2 ? "" : "s") + ", found " + (t.length - 1));
    }

    private void closeItem() {
        if (kernel != null) sink.endKernel();
        if (cpu) sink.endCpuPhase();
        kernel = null;
        cpu = false;
        cta = warp = -1;
    }
}
