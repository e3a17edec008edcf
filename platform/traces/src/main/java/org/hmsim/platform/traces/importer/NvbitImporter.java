package org.hmsim.platform.traces.importer;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.platform.traces.KernelShape;
import org.hmsim.platform.traces.LineSource;
import org.hmsim.platform.traces.TraceSink;

/**
 * Imports the text output of NVBit's {@code mem_trace} tool: one line per warp memory instruction.
 * Accepted lines (docs/traces.md, "NVBit"):
 * <pre>
 * [MEMTRACE: ][CTX 0xHEX - ]LAUNCH - ... - Kernel name NAME - grid launch id N - grid size X,Y,Z - block size X,Y,Z - ... [- shmem N] ...
 * [MEMTRACE: ][CTX 0xHEX - ]grid_launch_id N - CTA X,Y,Z - warp W - OPCODE - A0 A1 ... A31
 * </pre>
 * with 32 hexadecimal addresses, 0 for an inactive lane. Fields are separated by {@code " - "}. Lines that
 * start with neither {@code MEMTRACE:}, {@code CTX } nor {@code grid_launch_id} (the tool's banner, the
 * program's own output) are skipped; a line that starts like a record but does not parse is an error
 * naming the file and line. NVBit's warp id is the hardware warp slot, so warps of a CTA are numbered
 * in the order they first appear. The format has no compute instructions, barriers or dependencies:
 * every memory instruction is independent. Shared-memory and constant accesses are skipped.
 */
public final class NvbitImporter {
    private final LineSource src;
    private final TraceSink sink;
    private final Footprint footprint = new Footprint();
    private final WarpInstruction in = new WarpInstruction();
    private KernelShape shape;
    private long launchId = -1;
    private final Map<Integer, int[]> warpIds = new HashMap<>(); // per CTA: hardware warp ids in first-seen order
    private String raw; // the current line as read (its trailing space tells a whole last address, see requireWholeLastAddress)

    private NvbitImporter(LineSource src, TraceSink sink) {
        this.src = src;
        this.sink = sink;
    }

    /** Returns the number of memory instructions imported. */
    public static long importTrace(Path file, TraceSink sink) {
        try (LineSource src = new LineSource(file, file.toString())) {
            sink.workload(file.getFileName().toString());
            NvbitImporter imp = new NvbitImporter(src, sink);
            long n = imp.run();
            imp.footprint.emit(sink, "region");
            return n;
        }
    }

    private long run() {
        long n = 0;
        for (String l; (l = src.next()) != null; ) {
            raw = l;
            String t = l.trim();
            if (t.startsWith("MEMTRACE:")) t = t.substring(9).trim();
            // a bare "LAUNCH - ..." is a record too, as the documented syntax (CTX optional) says; it was skipped as the
            // program's output, and the file failed later with "no LAUNCH line" (a bad-input trial)
            else if (!t.startsWith("CTX ") && !t.startsWith("grid_launch_id") && !t.startsWith("LAUNCH - ")) {
                if (!src.terminated() && startsARecord(t)) throw src.cutShort("'" + t + "' is the start of a record");
                continue;
            }
            String[] f = t.split(" - ");
            int i = 0;
            if (f[0].startsWith("CTX ")) i++;
            if (i >= f.length) throw src.fail("record without fields");
            if (f[i].trim().equals("LAUNCH")) launch(f, i + 1);
            else if (f[i].startsWith("grid_launch_id")) {
                record(f, i);
                n++;
            } else throw src.fail("expected LAUNCH or grid_launch_id, found '" + f[i] + "'");
        }
        if (shape != null) sink.endKernel();
        return n;
    }

    /** A line cut inside the word that starts a record would be skipped as the program's output. */
    private static boolean startsARecord(String t) {
        return !t.isEmpty() && ("MEMTRACE:".startsWith(t) || "CTX ".startsWith(t) || "grid_launch_id".startsWith(t) || "LAUNCH - ".startsWith(t));
    }

    private static final long UNKNOWN = Long.MIN_VALUE;
    /** What the file's records add to the LAUNCH line's id (-1 for NVBit 1.5's mem_trace), once seen. */
    private long idOffset = UNKNOWN;

    private void launch(String[] f, int i) {
        String name = null;
        int[] grid = null, block = null;
        int shmem = 0;
        long id = -1;
        for (; i < f.length; i++) {
            String x = f[i].trim();
            if (x.startsWith("Kernel name ")) name = x.substring(12).trim();
            else if (x.startsWith("grid launch id ")) id = src.dec(x.substring(15).trim(), "grid launch id");
            else if (x.startsWith("grid size ")) grid = dims(x.substring(10));
            else if (x.startsWith("block size ")) block = dims(x.substring(11));
            else if (x.startsWith("shmem ")) shmem = src.decInt(x.substring(6).trim(), "shmem", 0, Integer.MAX_VALUE);
        }
        if (name == null || grid == null || block == null || id < 0)
            throw src.fail("LAUNCH line needs 'Kernel name', 'grid launch id', 'grid size' and 'block size'");
        if (!src.terminated()) requireWholeLastField(f[f.length - 1].trim());
        if (shape != null) sink.endKernel();
        try {
            shape = new KernelShape(name, grid[0], grid[1], grid[2], block[0], block[1], block[2], shmem);
        } catch (IllegalArgumentException e) {
            throw src.fail(e.getMessage());
        }
        launchId = id;
        warpIds.clear();
        sink.beginKernel(shape);
    }

    /**
     * mem_trace ends a LAUNCH line with 'cuda stream id', which the importer does not read: on a last line without newline,
     * a last field the importer reads (a name or number) may have been cut inside and taken as it is.
     */
    private void requireWholeLastField(String last) {
        for (String read : new String[] {"Kernel name ", "grid launch id ", "grid size ", "block size ", "shmem "})
            if (last.startsWith(read))
                throw src.cutShort("its last field '" + last + "' may be cut (mem_trace ends a LAUNCH line with 'cuda stream id', a field the importer does not read)");
    }

    private int[] dims(String s) {
        String[] p = s.trim().split(",");
        if (p.length != 3) throw src.fail("expected X,Y,Z, found '" + s.trim() + "'");
        int[] d = new int[3];
        for (int k = 0; k < 3; k++) d[k] = src.decInt(p[k].trim(), "dimension", 1, Integer.MAX_VALUE);
        return d;
    }

    private void record(String[] f, int i) {
        if (f.length != i + 5) throw src.fail("expected grid_launch_id N - CTA X,Y,Z - warp W - OPCODE - 32 addresses (" + (f.length - i) + " fields)");
        long id = src.dec(f[i].substring(14).trim(), "grid_launch_id");
        // NVBit 1.5's mem_trace counts the launch before it prints its LAUNCH line, so its records carry the id one
        // below (1.7 prints first): the first record after a LAUNCH tells which convention the file follows
        if (idOffset == UNKNOWN && shape != null) idOffset = id == launchId - 1 ? -1 : 0;
        if (shape == null || id != launchId + idOffset) throw src.fail("no LAUNCH line for grid_launch_id " + id + " before its accesses");
        if (!f[i + 1].startsWith("CTA ")) throw src.fail("expected 'CTA X,Y,Z', found '" + f[i + 1] + "'");
        String[] c = f[i + 1].substring(4).trim().split(",");
        if (c.length != 3) throw src.fail("expected 'CTA X,Y,Z', found '" + f[i + 1] + "'");
        int cta = shape.ctaIndex(src.decInt(c[0].trim(), "CTA x", 0, shape.gridX() - 1), src.decInt(c[1].trim(), "CTA y", 0, shape.gridY() - 1),
                src.decInt(c[2].trim(), "CTA z", 0, shape.gridZ() - 1));
        if (!f[i + 2].startsWith("warp ")) throw src.fail("expected 'warp W', found '" + f[i + 2] + "'");
        int hw = src.decInt(f[i + 2].substring(5).trim(), "warp", 0, Integer.MAX_VALUE);
        String opcode = f[i + 3].trim();
        String[] addrs = f[i + 4].trim().split("\\s+");
        if (addrs.length != 32) throw src.fail("expected 32 addresses, found " + addrs.length);
        if (!src.terminated()) requireWholeLastAddress(addrs[31]);
        WarpInstruction.Kind kind = Sass.memoryKind(opcode);
        if (kind == null && !Sass.staysInSm(opcode)) throw src.fail(Sass.unknownMemoryOpcode(opcode));
        long[] a = in.addresses;
        int mask = 0;
        for (int l = 0; l < 32; l++) {
            a[l] = src.hex(addrs[l], "address");
            if (a[l] != 0) mask |= 1 << l;
        }
        if (kind == null || mask == 0) return;
        int threads = shape.threadsPerCta();
        if (threads < 32 && (mask >>> threads) != 0) // lane l is thread (warp x 32 + l) of its block, at least l
            throw src.fail("lane " + (31 - Integer.numberOfLeadingZeros(mask)) + " is active but the block has " + threads + " threads (block size "
                    + shape.blockX() + "," + shape.blockY() + "," + shape.blockZ() + ")");
        int warp = localWarp(cta, hw);
        int size = Sass.width(opcode);
        for (int m = mask; m != 0; m &= m - 1) footprint.touch(a[Integer.numberOfTrailingZeros(m)], size);
        in.memory(kind, size, mask, false);
        sink.instruction(cta, warp, in);
    }

    /**
     * mem_trace prints every address as 0x and 16 digits, each followed by a space: on a last line without newline, an
     * address without its space must have its 16 digits, or the file was cut inside it (read as a smaller address, or as 0,
     * an inactive lane). A hand-written last record with shorter addresses needs its newline.
     */
    private void requireWholeLastAddress(String last) {
        if (Character.isWhitespace(raw.charAt(raw.length() - 1))) return;
        String digits = last.startsWith("0x") || last.startsWith("0X") ? last.substring(2) : last;
        if (digits.length() != 16) throw src.cutShort("its last address '" + last + "' is not complete (0x and 16 digits)");
    }

    private int localWarp(int cta, int hw) {
        int[] ids = warpIds.computeIfAbsent(cta, k -> new int[] {0});
        for (int k = 1; k <= ids[0]; k++) if (ids[k] == hw) return k - 1;
        if (ids[0] == shape.warpsPerCta()) throw src.fail("CTA " + cta + " has more than " + shape.warpsPerCta() + " warps (hardware warp " + hw + ")");
        if (ids.length == ids[0] + 1) warpIds.put(cta, ids = java.util.Arrays.copyOf(ids, shape.warpsPerCta() + 1));
        ids[++ids[0]] = hw;
        return ids[0] - 1;
    }
}
