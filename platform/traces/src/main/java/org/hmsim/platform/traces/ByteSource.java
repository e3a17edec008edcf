package org.hmsim.platform.traces;

/** A raw stream being decoded: bytes, with the position to name in errors. */
interface ByteSource {
    /** The next byte (0..255), or -1 at the end of the stream. */
    int read();

    /** A description of where the last byte came from, for error messages. */
    TraceException error(String message);

    default int need(String what) {
        int b = read();
        if (b < 0) throw error("stream ends inside " + what + " (truncated or corrupt)");
        return b;
    }

    default long varint(String what) {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = need(what);
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) return v;
        }
        throw error("malformed varint in " + what);
    }

    default long zigzag(String what) {
        long v = varint(what);
        return (v >>> 1) ^ -(v & 1);
    }

    default int int32(String what) {
        return need(what) | need(what) << 8 | need(what) << 16 | need(what) << 24;
    }
}
