package org.hmsim.platform.cpu;

/** A CPU cache's size, associativity and hit latency (CPU cycles). Lines are the machine's line size. */
public record CacheGeometry(long sizeBytes, int ways, int latencyCycles) {
    public CacheGeometry {
        if (sizeBytes <= 0 || ways <= 0 || latencyCycles < 0) throw new IllegalArgumentException("cache: size and ways must be > 0, latency >= 0");
    }

    /** Sets for lines of {@code lineBytes}; throws if the size is not a multiple of ways x line. */
    public int sets(int lineBytes) {
        long sets = sizeBytes / ((long) ways * lineBytes);
        if (sets < 1 || sets * ways * lineBytes != sizeBytes)
            throw new IllegalArgumentException("cache size " + sizeBytes + " is not a multiple of ways x line (" + ways + " x " + lineBytes + ")");
        return (int) sets;
    }
}
