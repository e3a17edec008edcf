package org.hmsim.platform.traces;

import java.nio.charset.StandardCharsets;

/**
 * Constants of hmsim's binary trace format (.hmt), described in docs/traces.md.
 * <pre>
 *   header (32 B)   "HMSIMTRC", u16 version, u16 flags, u32 directory length, u64 directory offset,
 *                   u32 directory CRC-32, u32 reserved              (all little-endian)
 *   body            deflated segments, CTA footers, segment tables and CTA tables, in writing order
 *   directory       workload name, allocations, and the items (kernels and CPU phases) in program order
 * </pre>
 * The directory is written last and the header patched to point at it: a file whose writer did not
 * finish has a zero directory offset and is reported as truncated.
 */
public final class TraceFormat {
    public static final byte[] MAGIC = "HMSIMTRC".getBytes(StandardCharsets.US_ASCII);
    public static final int VERSION = 1;
    public static final int HEADER_BYTES = 32;
    static final int DIRECTORY_MAGIC = 0x31524944; // "DIR1"
    static final int FOOTER_MAGIC = 0x31415443;    // "CTA1"
    static final int ITEM_KERNEL = 1, ITEM_CPU = 2;
    /**
     * After the items, an optional section (older readers ignore the directory's tail): {@code u32 "CMP1"}, then one
     * {@code f64} declared compression ratio per allocation (0: not declared). Written only when one is declared.
     */
    static final int RATIOS_MAGIC = 0x31504d43; // "CMP1"
    /** Raw bytes buffered per warp before they are deflated into a segment. */
    static final int WARP_SEGMENT_RAW = 256 << 10;
    /** Raw bytes of a CPU phase per segment. */
    static final int CPU_SEGMENT_RAW = 4 << 20;
    /** Raw bytes buffered over all open warps before every buffer is flushed (interleaved sources). */
    static final long WRITER_BUDGET = 8L << 20;

    /** Text twin: the first line. */
    public static final String TEXT_MAGIC = "hmsim-trace";
    /**
     * The text twin's version the writer writes: 2 ends with an {@code eof} line, so a file cut after any line is told
     * from a whole one (version 1, without it, is still read: a cut after an {@code end} line passed as a shorter trace).
     */
    public static final int TEXT_VERSION = 2;
    /** The last line of a version-2 text trace. */
    public static final String TEXT_EOF = "eof";

    private TraceFormat() {}

    /** True if {@code head} (the file's first bytes) starts with the binary magic. */
    public static boolean isBinary(byte[] head, int n) {
        if (n < MAGIC.length) return false;
        for (int i = 0; i < MAGIC.length; i++) if (head[i] != MAGIC[i]) return false;
        return true;
    }
}
