package org.hmsim.platform.traces.importer;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.platform.traces.KernelShape;
import org.hmsim.platform.traces.LineSource;
import org.hmsim.platform.traces.TraceException;
import org.hmsim.platform.traces.TraceSink;

/**
 * Imports an Accel-Sim SASS trace (NVBit tracer, trace versions 3-5): {@code kernelslist.g} lists
 * {@code MemcpyHtoD,addr,bytes} copies and {@code kernel-N.traceg} files in launch order; each kernel file
 * has a {@code -key = value} header (grid dim, block dim, shmem, ...) and thread blocks
 * ({@code #BEGIN_TB}, {@code thread block = x,y,z}, {@code warp = w}, {@code insts = n}, instruction
 * lines, {@code #END_TB}). An instruction line is
 * {@code [line] PC mask dest_num [Rd...] opcode src_num [Rs...] mem_width [mode addresses...] [immediate]}
 * with the address compression modes of Accel-Sim's tracer: 0 list_all (one hex address per active lane),
 * 1 base_stride ({@code 0xbase stride}: consecutive active lanes from the first, as Accel-Sim's decompressor),
 * 2 base_delta ({@code 0xbase} then one decimal delta per further active lane, each from the previous lane).
 *
 * <p>Mapping: a global/local load, store or atomic becomes a memory instruction (size from the opcode);
 * {@code BAR} a barrier; {@code EXIT} ends a run of compute (the threads in its mask leave; the tracer writes
 * {@code active & predicate}, so a guarded {@code @P0 EXIT} of threads beyond the data shows with mask 0 and the warp
 * goes on: as Accel-Sim, the warp issues its traced instructions to the end of its trace); every other instruction one issue cycle, runs of them
 * merged into one compute instruction. A register dependency becomes {@code waitsForLoads}: an instruction
 * that reads a register written by a load issued since the warp last waited waits for its loads. Files are
 * read line by line; every error names the file and line.
 */
public final class AccelSimImporter {
    private final TraceSink sink;
    private final Footprint footprint = new Footprint();
    private final WarpInstruction in = new WarpInstruction();
    private final long[] pending = new long[4]; // registers written by outstanding loads

    private AccelSimImporter(TraceSink sink) { this.sink = sink; }

    /** {@code input}: the trace folder or its kernelslist.g. Returns the number of kernels imported. */
    public static int importTrace(Path input, TraceSink sink) {
        Path list = Files.isDirectory(input) ? input.resolve("kernelslist.g") : input;
        TraceException.requireRegularInput(list, list.toString()); // a FIFO was reported "not found" (an audit)
        if (!Files.isRegularFile(list)) throw TraceException.inFile(list.toString(), "not found (an Accel-Sim trace folder has kernelslist.g)", null);
        AccelSimImporter imp = new AccelSimImporter(sink);
        sink.workload(list.toAbsolutePath().getParent().getFileName().toString());
        int kernels = 0;
        try (LineSource src = new LineSource(list, list.toString())) {
            for (String l; (l = src.next()) != null; ) {
                l = l.trim();
                if (l.isEmpty() || l.startsWith("#")) continue;
                if (l.startsWith("Memcpy")) {
                    String[] p = l.split(",");
                    if (p.length != 3) throw src.fail("expected MemcpyHtoD,0xADDRESS,BYTES");
                    long bytes = src.dec(p[2].trim(), "size");
                    if (bytes < 0) throw src.fail("size " + bytes + ": a copy moves no fewer than zero bytes"); // was dropped without a word (an audit)
                    if (bytes == 0) continue; // cudaMemcpy of 0 bytes: a legal no-op a tracer may record
                    long address = src.hex(p[1].trim(), "address");
                    // a range past 2^64 wrapped into an allocation at the other end of the address space (an audit)
                    if (Long.compareUnsigned(address + bytes - 1, address) < 0)
                        throw src.fail("size " + bytes + ": the copy at 0x" + Long.toHexString(address) + " passes the end of the 64-bit address space");
                    imp.footprint.range(address, bytes);
                } else if (l.endsWith(".traceg") || l.endsWith(".trace")) {
                    Path k = list.resolveSibling(l);
                    if (Files.exists(k) && !Files.isRegularFile(k)) throw src.fail("kernel trace '" + l + "' is not a regular file (a folder, FIFO or device)");
                    if (!Files.isRegularFile(k)) throw src.fail("kernel trace '" + l + "' not found");
                    imp.kernel(k);
                    kernels++;
                } else if (l.endsWith(".traceg.xz") || l.endsWith(".trace.xz")) {
                    // Accel-Sim's tracer compresses its kernels; the importer reads them plain (a trace trial was told "unknown command")
                    throw src.fail("kernel trace '" + l + "' is xz-compressed: decompress the folder's kernels first (xz -d *.xz), then name"
                            + " them without .xz in kernelslist.g");
                } else throw src.fail("unknown command '" + l + "' (expected MemcpyHtoD,... or a kernel-*.traceg file)");
            }
        }
        imp.footprint.emit(sink, "region");
        return kernels;
    }

    private void kernel(Path file) {
        try (LineSource src = new LineSource(file, file.toString())) {
            new KernelParser(src).run();
        }
    }

    private final class KernelParser {
        final LineSource src;
        int[] grid, block;
        int shmem, version = 4;
        boolean lineinfo, immediate;
        String name;
        KernelShape shape;
        int cta = -1, warp = -1;
        long expected = -1, seen;
        int compute;
        long headerLine;
        final java.util.BitSet blocksSeen = new java.util.BitSet();
        final java.util.Map<String, Long> headerKeys = new java.util.HashMap<>(); // key -> its line

        KernelParser(LineSource src) { this.src = src; }

        void run() {
            for (String l; (l = src.next()) != null; ) {
                String t = l.trim();
                if (t.isEmpty()) continue;
                if (shape == null && t.startsWith("-")) header(t);
                else if (t.startsWith("#traces format")) immediate = t.contains("immediate");
                else if (t.equals("#BEGIN_TB")) beginTb();
                else if (t.equals("#END_TB")) endTb();
                else if (t.startsWith("#")) continue;
                else if (t.startsWith("thread block")) threadBlock(t);
                else if (t.startsWith("warp")) warpLine(t);
                else if (t.startsWith("insts")) insts(t);
                else instruction(t);
            }
            if (shape == null) throw src.fail("no thread blocks (an empty or truncated kernel trace)");
            if (cta >= 0) throw src.fail("file ends inside thread block " + cta + " (no #END_TB): truncated");
            // Fewer blocks than the grid is no error: Accel-Sim's post-processor leaves out blocks with no traced
            // instruction (tracing limited to an instruction window). A file cut at a block boundary looks the same.
            sink.endKernel();
        }

        void header(String t) {
            int eq = t.indexOf('=');
            if (eq < 0) throw src.fail("header line without '=': " + t);
            String key = t.substring(1, eq).trim(), v = t.substring(eq + 1).trim();
            // the later value silently won (a bad-input review): two kernel files run together, or an edit gone wrong
            Long first = headerKeys.putIfAbsent(key, src.number());
            if (first != null) throw src.fail("header key '-" + key + "' given twice (lines " + first + " and " + src.number() + ")");
            switch (key) {
                case "kernel name" -> name = v;
                case "grid dim" -> grid = dim(v);
                case "block dim" -> block = dim(v);
                case "shmem" -> shmem = src.decInt(v, "shmem", 0, Integer.MAX_VALUE); // -5 was read as 0 (a bad-input trial)
                case "accelsim tracer version" -> version = tracerVersion(v);
                case "enable lineinfo" -> lineinfo = src.dec(v, "enable lineinfo") != 0;
                default -> { }
            }
            headerLine = src.number();
        }

        /**
         * Versions 3 to 5 share the instruction line this parser reads (5 adds the immediate); 1 and 2 start each line with the
         * block and warp, and a later one may change the line again: read as version 4, it was silently misread (a bad-input review).
         */
        int tracerVersion(String v) {
            int n = src.decInt(v, "tracer version", 0, Integer.MAX_VALUE);
            if (n < 3 || n > 5) throw src.fail("accelsim tracer version " + n + " is not one this importer knows (3, 4, 5)");
            return n;
        }

        int[] dim(String v) {
            if (!v.startsWith("(") || !v.endsWith(")")) throw src.fail("expected (x,y,z), found '" + v + "'");
            String[] p = v.substring(1, v.length() - 1).split(",");
            if (p.length != 3) throw src.fail("expected (x,y,z), found '" + v + "'");
            int[] d = new int[3];
            for (int i = 0; i < 3; i++) d[i] = src.decInt(p[i].trim(), "dimension", 1, Integer.MAX_VALUE);
            return d;
        }

        void beginTb() {
            if (shape == null) {
                if (grid == null || block == null) throw src.fail("thread block before the '-grid dim' and '-block dim' header lines");
                try {
                    shape = new KernelShape(name == null ? src.display() : name, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                            shmem);
                } catch (IllegalArgumentException e) {
                    throw src.fail(e.getMessage());
                }
                sink.beginKernel(shape);
            }
            if (cta >= 0) throw src.fail("#BEGIN_TB inside thread block " + cta + " (missing #END_TB)");
            cta = -2; // until 'thread block ='
        }

        void threadBlock(String t) {
            if (cta != -2) throw src.fail("'thread block' outside #BEGIN_TB");
            String[] p = value(t).split(",");
            if (p.length != 3) throw src.fail("expected thread block = x,y,z");
            int x = src.decInt(p[0].trim(), "block x", 0, shape.gridX() - 1);
            int y = src.decInt(p[1].trim(), "block y", 0, shape.gridY() - 1);
            int z = src.decInt(p[2].trim(), "block z", 0, shape.gridZ() - 1);
            cta = shape.ctaIndex(x, y, z);
            if (blocksSeen.get(cta)) throw src.fail("thread block " + x + "," + y + "," + z + " appears twice");
            blocksSeen.set(cta);
            warp = -1;
        }

        void warpLine(String t) {
            if (cta < 0) throw src.fail("'warp' outside a thread block");
            finishWarp();
            warp = src.decInt(value(t), "warp", 0, shape.warpsPerCta() - 1);
            expected = -1;
            seen = 0;
            java.util.Arrays.fill(pending, 0);
        }

        void insts(String t) {
            if (warp < 0) throw src.fail("'insts' before 'warp'");
            expected = src.dec(value(t), "instruction count");
        }

        String value(String t) {
            int eq = t.indexOf('=');
            if (eq < 0) throw src.fail("expected 'key = value', found '" + t + "'");
            return t.substring(eq + 1).trim();
        }

        void endTb() {
            if (cta < 0) throw src.fail("#END_TB without #BEGIN_TB");
            finishWarp();
            sink.endCta(cta);
            cta = -1;
            warp = -1;
        }

        void finishWarp() {
            if (warp < 0) return;
            flushCompute();
            if (expected >= 0 && seen != expected)
                throw src.fail("warp " + warp + " of thread block " + cta + " has " + seen + " instructions, its header says " + expected + " (truncated or corrupt)");
            warp = -1;
        }

        void instruction(String t) {
            if (warp < 0) throw src.fail("instruction outside a warp");
            seen++;
            String[] p = t.split("\\s+");
            int i = lineinfo ? 1 : 0;
            try {
                i++; // PC
                int mask = src.mask(p[i++], "active mask");
                int nd = src.decInt(p[i++], "destination count", 0, 8);
                int dest = -1;
                int firstDest = i;
                i += nd;
                if (nd > 0) dest = reg(p[firstDest]);
                String opcode = p[i++];
                int ns = src.decInt(p[i++], "source count", 0, 8);
                boolean usesLoaded = false;
                for (int s = 0; s < ns; s++) usesLoaded |= isPending(reg(p[i + s]));
                for (int d = 0; d < nd; d++) usesLoaded |= isPending(reg(p[firstDest + d])); // a write-after-write also waits
                i += ns;
                int width = src.decInt(p[i++], "memory width", 0, 1 << 20);
                if (Integer.bitCount(width) > 1) throw src.fail("memory width " + width + " is not 0 or a power of two (bytes per thread)");
                if (width > 0) i = memory(p, i, mask, opcode, dest, usesLoaded);
                else other(opcode, usesLoaded);
                int rest = p.length - i;
                if (rest > 1 || (rest == 1 && !immediate && version < 5)) throw src.fail("unexpected '" + p[i] + "' after the instruction's fields");
                if (rest == 1) src.dec(p[i], "immediate");
            } catch (ArrayIndexOutOfBoundsException e) {
                throw src.fail("instruction line ends early: '" + t + "'");
            }
        }

        int memory(String[] p, int i, int mask, String opcode, int dest, boolean usesLoaded) {
            WarpInstruction.Kind kind = Sass.memoryKind(opcode);
            if (kind == null && !Sass.staysInSm(opcode)) throw src.fail(Sass.unknownMemoryOpcode(opcode));
            int mode = src.decInt(p[i++], "address compression mode", 0, 2);
            long[] a = in.addresses;
            int lanes = mask;
            if (mode == 0) {
                for (int m = mask; m != 0; m &= m - 1) a[Integer.numberOfTrailingZeros(m)] = src.hex(p[i++], "address");
            } else if (mode == 1) {
                long base = src.hex(p[i++], "base address");
                int stride = src.decInt(p[i++], "stride", Integer.MIN_VALUE, Integer.MAX_VALUE); // the tracer's is an int
                // Accel-Sim's base_stride_decompress: consecutive lanes from the first active one.
                lanes = 0;
                if (mask != 0) {
                    int first = Integer.numberOfTrailingZeros(mask);
                    for (int l = first; l < 32 && (mask & 1 << l) != 0; l++) {
                        long off = (long) (l - first) * stride;
                        if (wraps(base, off)) throw outside(l, "base address 0x" + Long.toHexString(base) + " + " + (l - first) + " x stride " + stride, off);
                        a[l] = base + off;
                        lanes |= 1 << l;
                    }
                }
            } else if (mask != 0) {
                long addr = src.hex(p[i++], "base address");
                int first = Integer.numberOfTrailingZeros(mask);
                a[first] = addr;
                for (int m = mask & ~(1 << first); m != 0; m &= m - 1) {
                    long d = src.dec(p[i++], "address delta");
                    int l = Integer.numberOfTrailingZeros(m);
                    if (wraps(addr, d)) throw outside(l, "0x" + Long.toHexString(addr) + " + address delta " + d, d);
                    addr += d;
                    a[l] = addr;
                }
            } else i++;
            if (kind == null) { // shared memory, constants, cache control: one issue cycle
                other(opcode, usesLoaded);
                return i;
            }
            if (lanes == 0) return i; // predicated off: no access
            flushCompute();
            int size = Sass.width(opcode);
            in.memory(kind, size, lanes, usesLoaded);
            for (int m = lanes; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                if (Long.compareUnsigned(a[l] + size - 1, a[l]) < 0)
                    throw src.fail("lane " + l + "'s " + size + "-byte access at address 0x" + Long.toHexString(a[l]) + " passes the end of the 64-bit address space");
                footprint.touch(a[l], size);
            }
            sink.instruction(cta, warp, in);
            if (usesLoaded) java.util.Arrays.fill(pending, 0);
            if (kind != WarpInstruction.Kind.STORE && dest >= 0) {
                for (int r = dest; r < dest + Math.max(1, size / 4) && r < 255; r++) pending[r >>> 6] |= 1L << r;
            }
            return i;
        }

        /** Whether the unsigned address {@code from} + the signed {@code delta} leaves [0, 2^64 - 1]: it would wrap (a bad-input review). */
        boolean wraps(long from, long delta) {
            long r = from + delta;
            return delta >= 0 ? Long.compareUnsigned(r, from) < 0 : Long.compareUnsigned(r, from) > 0;
        }

        TraceException outside(int lane, String sum, long delta) {
            return src.fail("address of lane " + lane + " (" + sum + ") " + (delta >= 0 ? "is past the end of the 64-bit address space" : "is below 0"));
        }

        void other(String opcode, boolean usesLoaded) {
            if (Sass.isExit(opcode)) { // not the warp's end: a guarded exit often has no thread (mask 0), see above
                flushCompute();
                return;
            }
            if (Sass.isBarrier(opcode)) {
                flushCompute();
                in.barrier();
                sink.instruction(cta, warp, in);
                return;
            }
            if (usesLoaded) {
                flushCompute();
                in.compute(1, true);
                sink.instruction(cta, warp, in);
                java.util.Arrays.fill(pending, 0);
                return;
            }
            compute++;
        }

        void flushCompute() {
            if (compute == 0) return;
            in.compute(compute, false);
            sink.instruction(cta, warp, in);
            compute = 0;
        }

        boolean isPending(int r) { return r >= 0 && (pending[r >>> 6] & 1L << r) != 0; }

        /** Register number of R0..R254; -1 for RZ (R255) and anything that is not a general register. */
        int reg(String s) {
            if (s.length() < 2 || s.charAt(0) != 'R') return -1;
            int v = 0;
            for (int k = 1; k < s.length(); k++) {
                char c = s.charAt(k);
                if (c < '0' || c > '9') return -1;
                v = v * 10 + (c - '0');
                if (v > 255) return -1;
            }
            return v == 255 ? -1 : v;
        }
    }
}
