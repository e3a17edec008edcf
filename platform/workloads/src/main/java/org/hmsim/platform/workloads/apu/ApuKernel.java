package org.hmsim.platform.workloads.apu;

import java.util.List;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpInstruction.Kind;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.platform.workloads.Lanes;
import org.hmsim.platform.workloads.SimpleKernel;

/**
 * A data-parallel kernel of the APU application models (seed 001's Rodinia/APP SDK programs on one shared
 * buffer): a grid-stride loop over {@code count} elements starting at {@code first}; per element each
 * input is loaded (4 B words), then {@code compute} cycles, then the output is stored. An access's word
 * index follows its pattern: sequential (coalesced), a seeded hash (irregular gathers such as graph
 * neighbours) or the bitonic partner {@code i ^ distance}.
 */
final class ApuKernel {
    enum Pattern { SEQ, RANDOM, PARTNER }

    /** One array access per element: base address, length in words, pattern, partner distance / salt. */
    record Access(long base, long words, Pattern pattern, long param) {
        long address(long i) {
            long w = switch (pattern) {
                case SEQ -> i % words;
                case RANDOM -> Math.floorMod(mix(i + param * 0x632BE59BD9B4E019L), words);
                case PARTNER -> (i ^ param) % words;
            };
            return base + 4 * w;
        }

        private static long mix(long x) {
            x = (x ^ (x >>> 33)) * 0xFF51AFD7ED558CCDL;
            x = (x ^ (x >>> 33)) * 0xC4CEB9FE1A85EC53L;
            return x ^ (x >>> 33);
        }
    }

    private ApuKernel() {}

    static Kernel of(String name, int ctas, int threads, long first, long count, List<Access> loads, Access store, int compute) {
        Access[] in = loads.toArray(new Access[0]);
        return new SimpleKernel(name, ctas, threads, 0, (cta, warp) -> new Program(in, store, first, count, ctas, threads, cta, warp, compute));
    }

    static final class Program implements WarpProgram {
        private final Access[] in;
        private final Access out;
        private final long first, count, gridThreads;
        private final int existing, compute;
        private long e;
        private int step;

        Program(Access[] in, Access out, long first, long count, int ctas, int threads, int cta, int warp, int compute) {
            this.in = in;
            this.out = out;
            this.first = first;
            this.count = count;
            this.gridThreads = (long) ctas * threads;
            this.e = (long) cta * threads + (long) warp * Lanes.W;
            this.existing = Lanes.existing(warp, threads);
            this.compute = compute;
        }

        @Override
        public boolean next(WarpInstruction w) {
            while (e < count) {
                int mask = existing & Lanes.first(count - e);
                if (step < in.length) {
                    emit(w, Kind.LOAD, in[step++], mask, false);
                    return true;
                }
                if (step == in.length) {
                    step++;
                    w.compute(Math.max(1, compute), true);
                    return true;
                }
                if (step == in.length + 1 && out != null) {
                    step++;
                    emit(w, Kind.STORE, out, mask, true);
                    return true;
                }
                step = 0;
                e += gridThreads;
            }
            return false;
        }

        private void emit(WarpInstruction w, Kind kind, Access a, int mask, boolean wait) {
            w.memory(kind, 4, mask, wait);
            for (int l = 0; l < Lanes.W; l++) w.addresses[l] = a.address(first + e + l);
        }
    }
}
