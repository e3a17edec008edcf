package org.hmsim.platform.traces;

import java.util.Arrays;

/** A growable byte array with LEB128 varint and zigzag writers: the raw (uncompressed) stream of the format. */
final class ByteBuf {
    byte[] a;
    int len;

    ByteBuf(int capacity) { a = new byte[capacity]; }

    void put(int b) {
        if (len == a.length) a = Arrays.copyOf(a, a.length * 2);
        a[len++] = (byte) b;
    }

    void putInt(int v) {
        put(v);
        put(v >>> 8);
        put(v >>> 16);
        put(v >>> 24);
    }

    /** Unsigned LEB128. */
    void varint(long v) {
        while ((v & ~0x7FL) != 0) {
            put((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        put((int) v);
    }

    /** Signed value, zigzag then LEB128 (small magnitudes take few bytes). */
    void zigzag(long v) { varint((v << 1) ^ (v >> 63)); }

    void clear() { len = 0; }

    /** Drops a large array after a flush, so idle warps hold little memory. */
    void shrink(int capacity) {
        if (a.length > capacity * 4) a = new byte[capacity];
        len = 0;
    }
}
