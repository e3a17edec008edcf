package org.hmsim.api.stats;

/** A distribution of non-negative long values. */
@org.osgi.annotation.versioning.ProviderType
public interface Histogram {
    void record(long value);

    long count();

    double mean();

    long percentile(double p);

    long max();
}
