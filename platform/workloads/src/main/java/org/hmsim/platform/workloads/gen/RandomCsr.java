package org.hmsim.platform.workloads.gen;

import java.util.SplittableRandom;

/**
 * A random sparse matrix: row lengths uniform in nnz·[1-spread, 1+spread]; each entry is, with
 * probability {@code locality}, within a band around the diagonal, else uniform over all columns
 * (the near-diagonal part gives x[] reuse, the rest irregular gathers). Columns within a row are not
 * sorted. Deterministic from the seed.
 */
public final class RandomCsr extends CsrMatrix {
    private final long seed;
    private final double locality;
    private final int band;

    public RandomCsr(int rows, int nnzPerRow, double spread, double locality, int band, long seed) {
        super(rows, rows, lengths(rows, nnzPerRow, spread, seed));
        this.seed = seed;
        this.locality = locality;
        this.band = Math.max(1, Math.min(band, rows));
    }

    private static long[] lengths(int rows, int nnz, double spread, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long[] ptr = new long[rows + 1];
        for (int i = 0; i < rows; i++) {
            double f = 1 + spread * (2 * r.nextDouble() - 1);
            ptr[i + 1] = ptr[i] + Math.max(1, Math.round(nnz * f));
        }
        return ptr;
    }

    @Override
    public long column(int row, int k) {
        long h = Hash.of(seed, row, k);
        if (Hash.unit(h) < locality) {
            long c = row - band / 2 + Hash.below(Hash.mix(h), band);
            return Math.max(0, Math.min(cols - 1, c));
        }
        return Hash.below(Hash.mix(h), cols);
    }
}
