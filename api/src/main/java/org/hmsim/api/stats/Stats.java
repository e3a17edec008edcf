package org.hmsim.api.stats;

import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Where a component publishes its statistics. Names are hierarchical, dot-separated, and documented:
 * {@code gpu0.sm3.l1.hits}. A component keeps its counters in its own primitive fields and registers
 * a reader; the registry reads them only when it samples (end of an epoch, end of the run), so counting
 * costs the hot path nothing more than an increment.
 */
@org.osgi.annotation.versioning.ProviderType
public interface Stats {

    /** A monotonically increasing count. */
    void counter(String name, String doc, LongSupplier reader);

    /** A value that may go up and down, or a derived ratio (hit rate, utilisation). */
    void gauge(String name, String doc, DoubleSupplier reader);

    /** A distribution (latencies, queue occupancies) the caller records into. */
    Histogram histogram(String name, String doc, long maxValue);

    /** The same registry with {@code prefix + "."} put before every name. */
    Stats scope(String prefix);

    /** Marks a statistic to be sampled into the per-epoch time series. */
    void sampleEachEpoch(String name);

    /**
     * The simulated time, ps, that a rate or utilisation gauge divides by: the end of the run once it has ended
     * (the engine's clock may have gone on, to the next epoch boundary), before that the current time; -1 where
     * the registry does not know (a component then divides by its own engine's clock).
     *
     * @since 1.1
     */
    default long elapsedPs() { return -1; }
}
