package org.hmsim.platform.traces;

import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * One logical raw stream (a warp's instructions or a CPU phase's accesses) stored as a chain of
 * independently deflated segments. The segment table (20-byte descriptors: u64 offset, u32 compressed
 * length, u32 raw length, u32 CRC-32 of the raw bytes) is itself read from the file one descriptor at a
 * time, so memory is a fixed few kilobytes plus one {@link Inflater} however long the stream is. The
 * inflater is created on the first read and released at the end, so programs that have not started or
 * have finished hold no native memory.
 */
final class SegmentStream implements ByteSource {
    static final int DESCRIPTOR = 20;
    private static final int IN = 4096, OUT = 8192;

    private final SharedFile file;
    private final long tableOffset;
    private final int segments;
    private final String what;
    private int seg = -1;
    private long segOffset, segEnd;
    private int segRaw, segCrc;
    private long inPos;
    private long rawSeen;
    private Inflater inf;
    private byte[] in, out, desc;
    private int outPos, outLen;
    private final CRC32 crc = new CRC32();
    private boolean ended;

    SegmentStream(SharedFile file, long tableOffset, int segments, String what) {
        this.file = file;
        this.tableOffset = tableOffset;
        this.segments = segments;
        this.what = what;
    }

    @Override
    public int read() {
        if (outPos < outLen) return out[outPos++] & 0xFF;
        return fill() ? out[outPos++] & 0xFF : -1;
    }

    private boolean fill() {
        if (ended) return false;
        if (inf == null) {
            if (segments == 0) return end();
            inf = new Inflater(true);
            in = new byte[IN];
            out = new byte[OUT];
            desc = new byte[DESCRIPTOR];
            nextSegment();
        }
        while (true) {
            if (inf.finished()) {
                checkSegment();
                if (seg + 1 >= segments) return end();
                nextSegment();
                continue;
            }
            if (inf.needsInput()) {
                if (inPos >= segEnd) throw error("compressed data ends early (truncated or corrupt)");
                int n = (int) Math.min(IN, segEnd - inPos);
                file.readFully(inPos, in, n, what);
                inf.setInput(in, 0, n);
                inPos += n;
            }
            try {
                int n = inf.inflate(out, 0, OUT);
                if (n > 0) {
                    crc.update(out, 0, n);
                    rawSeen += n;
                    if (rawSeen > segRaw) throw error("segment inflates to more than its recorded " + segRaw + " bytes (corrupt)");
                    outPos = 0;
                    outLen = n;
                    return true;
                }
                if (inf.needsDictionary()) throw error("corrupt compressed data");
            } catch (DataFormatException e) {
                throw error("corrupt compressed data (" + e.getMessage() + ")");
            }
        }
    }

    private void nextSegment() {
        seg++;
        long d = tableOffset + (long) seg * DESCRIPTOR;
        file.readFully(d, desc, DESCRIPTOR, "the segment table of " + what);
        segOffset = le64(desc, 0);
        int comp = le32(desc, 8);
        segRaw = le32(desc, 12);
        segCrc = le32(desc, 16);
        if (segOffset < TraceFormat.HEADER_BYTES || comp < 0 || segRaw < 0 || segOffset + comp > file.size())
            throw TraceException.atByte(file.display, d, "corrupt segment descriptor of " + what + " (offset " + segOffset + ", length " + comp + ")");
        segEnd = segOffset + comp;
        inPos = segOffset;
        rawSeen = 0;
        crc.reset();
        inf.reset();
    }

    private void checkSegment() {
        if (rawSeen != segRaw || (int) crc.getValue() != segCrc)
            throw error("segment checksum mismatch (" + rawSeen + " of " + segRaw + " bytes): corrupt");
    }

    private boolean end() {
        ended = true;
        release();
        return false;
    }

    /** Frees the inflater (native memory) and buffers. */
    void release() {
        if (inf != null) inf.end();
        inf = null;
        in = out = desc = null;
        outPos = outLen = 0;
    }

    @Override
    public TraceException error(String message) {
        long at = seg < 0 ? tableOffset : inPos;
        return TraceException.atByte(file.display, at, what + (seg >= 0 ? ", segment " + seg : "") + ": " + message);
    }

    static long le64(byte[] b, int o) { return (le32(b, o) & 0xFFFFFFFFL) | (long) le32(b, o + 4) << 32; }

    static int le32(byte[] b, int o) { return (b[o] & 0xFF) | (b[o + 1] & 0xFF) << 8 | (b[o + 2] & 0xFF) << 16 | (b[o + 3] & 0xFF) << 24; }
}
