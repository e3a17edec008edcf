package org.hmsim.platform.traces;

import org.hmsim.api.workload.WarpInstruction;

/**
 * The encoding of one warp's instruction stream (docs/traces.md, "Warp streams"). One opcode byte per
 * instruction:
 * <pre>
 *   bits 0-2  kind: 1 compute, 2 load, 3 store, 4 atomic, 5 barrier
 *   bit 3     waits for the warp's earlier loads
 *   bit 4     memory: the active mask is not full (a 4-byte little-endian mask follows)
 *   bit 5     memory: the access size differs from the previous memory instruction (1 byte follows)
 *   bit 6     memory: addresses as per-lane deltas instead of base + stride
 * </pre>
 * then: compute: varint cycles. Memory: [mask] [size] zigzag(base - previous base), where base is the
 * first active lane's address; then either zigzag(stride) (active lane l has base + (l - first) * stride)
 * or, for each further active lane in lane order, zigzag(address - previous active lane's address).
 * A memory instruction with no active lane has no address fields.
 */
final class WarpCodec {
    static final int COMPUTE = 1, LOAD = 2, STORE = 3, ATOMIC = 4, BARRIER = 5;
    static final int WAIT = 1 << 3, PARTIAL_MASK = 1 << 4, NEW_SIZE = 1 << 5, DELTAS = 1 << 6;

    private WarpCodec() {}

    /** Per-warp state of the encoder and decoder: the previous base and access size. */
    static final class State {
        long prevBase;
        int prevSize = 4;
    }

    static void encode(WarpInstruction in, State s, ByteBuf out) {
        int wait = in.waitsForLoads ? WAIT : 0;
        switch (in.kind) {
            case COMPUTE -> {
                out.put(COMPUTE | wait);
                out.varint(in.cycles & 0xFFFFFFFFL);
            }
            case BARRIER -> out.put(BARRIER);
            default -> encodeMemory(in, s, out, wait);
        }
    }

    private static void encodeMemory(WarpInstruction in, State s, ByteBuf out, int wait) {
        int kind = in.kind == WarpInstruction.Kind.LOAD ? LOAD : in.kind == WarpInstruction.Kind.STORE ? STORE : ATOMIC;
        int mask = in.activeMask;
        long[] a = in.addresses;
        int op = kind | wait;
        if (mask != -1) op |= PARTIAL_MASK;
        if (in.bytesPerThread != s.prevSize) op |= NEW_SIZE;
        long stride = 0;
        int first = mask == 0 ? -1 : Integer.numberOfTrailingZeros(mask);
        boolean strided = true;
        if (first >= 0) {
            int second = Integer.numberOfTrailingZeros(mask & ~(1 << first));
            if (second < 32) {
                long d = a[second] - a[first];
                if (d % (second - first) != 0) strided = false;
                else stride = d / (second - first);
            }
            for (int m = mask & ~(1 << first); strided && m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                if (a[l] != a[first] + (l - first) * stride) strided = false;
            }
        }
        if (!strided) op |= DELTAS;
        out.put(op);
        if (mask != -1) out.putInt(mask);
        if (in.bytesPerThread != s.prevSize) {
            out.put(in.bytesPerThread);
            s.prevSize = in.bytesPerThread;
        }
        if (first < 0) return;
        out.zigzag(a[first] - s.prevBase);
        s.prevBase = a[first];
        if (strided) {
            out.zigzag(stride);
            return;
        }
        long prev = a[first];
        for (int m = mask & ~(1 << first); m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            out.zigzag(a[l] - prev);
            prev = a[l];
        }
    }

    /**
     * Decodes the next instruction into {@code out}; false at the end of the stream (which must fall on
     * an instruction boundary).
     */
    static boolean decode(ByteSource src, State s, WarpInstruction out) {
        int op = src.read();
        if (op < 0) return false;
        boolean wait = (op & WAIT) != 0;
        switch (op & 7) {
            case COMPUTE -> {
                long c = src.varint("a compute instruction");
                if (c > Integer.MAX_VALUE || (op & ~(7 | WAIT)) != 0) throw src.error("corrupt compute instruction");
                out.compute((int) c, wait);
            }
            case BARRIER -> {
                if (op != BARRIER) throw src.error("corrupt barrier instruction (opcode " + op + ")");
                out.barrier();
            }
            case LOAD, STORE, ATOMIC -> decodeMemory(src, s, out, op, wait);
            default -> throw src.error("unknown instruction opcode " + op + " (corrupt stream)");
        }
        return true;
    }

    private static void decodeMemory(ByteSource src, State s, WarpInstruction out, int op, boolean wait) {
        if ((op & 0x80) != 0) throw src.error("unknown instruction opcode " + op + " (corrupt stream)");
        WarpInstruction.Kind kind = switch (op & 7) {
            case LOAD -> WarpInstruction.Kind.LOAD;
            case STORE -> WarpInstruction.Kind.STORE;
            default -> WarpInstruction.Kind.ATOMIC;
        };
        int mask = (op & PARTIAL_MASK) != 0 ? src.int32("an active mask") : -1;
        if ((op & NEW_SIZE) != 0) {
            int size = src.need("an access size");
            if (size < 1 || size > 16) throw src.error("access size " + size + " out of range 1..16 (corrupt stream)");
            s.prevSize = size;
        }
        out.memory(kind, s.prevSize, mask, wait);
        if (mask == 0) return;
        long[] a = out.addresses;
        int first = Integer.numberOfTrailingZeros(mask);
        long base = s.prevBase + src.zigzag("a base address");
        s.prevBase = base;
        a[first] = base;
        if ((op & DELTAS) == 0) {
            long stride = src.zigzag("a stride");
            for (int m = mask & ~(1 << first); m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                a[l] = base + (l - first) * stride;
            }
            return;
        }
        long prev = base;
        for (int m = mask & ~(1 << first); m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            prev += src.zigzag("a lane address");
            a[l] = prev;
        }
    }

    /** CPU access records: one byte (bits 0-1 kind, bits 2-7 size 1..63, 0 = a varint size follows) and zigzag(address - previous address of the same kind). */
    static void encodeCpu(CpuKind kind, long address, int size, long[] prevByKind, ByteBuf out) {
        int k = kind.ordinal();
        if (size >= 1 && size <= 63) out.put(k | size << 2);
        else {
            out.put(k);
            out.varint(size & 0xFFFFFFFFL);
        }
        out.zigzag(address - prevByKind[k]);
        prevByKind[k] = address;
    }
}
