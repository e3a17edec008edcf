package org.hmsim.platform.workloads.gen;

/**
 * Zipf-distributed ranks in [1, n] with exponent s, by rejection-inversion (Hörmann and Derflinger,
 * "Rejection-inversion to generate variates from monotone discrete distributions", 1996). Constant
 * memory whatever n is, and no allocation per sample: the uniforms come from {@link Hash} of a key
 * and an attempt number, so a sample is a pure function of its key. s = 0 is uniform.
 */
public final class ZipfSampler {
    private final long n;
    private final double s;
    private final double hIntegralX1;
    private final double hIntegralN;
    private final double threshold;

    public ZipfSampler(long n, double s) {
        if (n < 1) throw new IllegalArgumentException("zipf: number of elements must be >= 1, was " + n);
        if (s < 0) throw new IllegalArgumentException("zipf: exponent must be >= 0, was " + s);
        this.n = n;
        this.s = s;
        this.hIntegralX1 = hIntegral(1.5) - 1d;
        this.hIntegralN = hIntegral(n + 0.5);
        this.threshold = 2d - hIntegralInverse(hIntegral(2.5) - h(2));
    }

    public long elements() { return n; }

    /** A rank in [1, n]; rank 1 is the most frequent. */
    public long sample(long key) {
        if (s == 0) return 1 + Hash.below(Hash.mix(key), n);
        for (long attempt = 0; ; attempt++) {
            double u = hIntegralN + Hash.unit(Hash.of(key, attempt)) * (hIntegralX1 - hIntegralN);
            double x = hIntegralInverse(u);
            long k = (long) (x + 0.5);
            if (k < 1) k = 1;
            else if (k > n) k = n;
            if (k - x <= threshold || u >= hIntegral(k + 0.5) - h(k)) return k;
        }
    }

    private double hIntegral(double x) {
        double logX = Math.log(x);
        return helper2((1d - s) * logX) * logX;
    }

    private double h(double x) { return Math.exp(-s * Math.log(x)); }

    private double hIntegralInverse(double x) {
        double t = x * (1d - s);
        if (t < -1d) t = -1d;
        return Math.exp(helper1(t) * x);
    }

    private static double helper1(double x) {
        return Math.abs(x) > 1e-8 ? Math.log1p(x) / x : 1. - x * (0.5 - x * (1. / 3. - x * 0.25));
    }

    private static double helper2(double x) {
        return Math.abs(x) > 1e-8 ? Math.expm1(x) / x : 1. + x * 0.5 * (1. + x * (1. / 3.) * (1. + x * 0.25));
    }
}
