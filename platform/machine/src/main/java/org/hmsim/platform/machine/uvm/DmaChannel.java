package org.hmsim.platform.machine.uvm;

/**
 * One direction of the host link's copy engine (seed 002 §2.1: "dual DMA engines" — host-to-device and
 * device-to-host copies run concurrently, each at its own bandwidth). Copies are served one at a time in
 * arrival order: a copy starts when the channel is free, occupies it for bytes / bandwidth and arrives one
 * link latency after its last byte left. Because service is FIFO and deterministic, the completion time
 * is known when the copy is queued; queueing delay emerges from {@code busyUntil}.
 */
final class DmaChannel {
    private final double psPerByte;
    private final long latencyPs;
    private long busyUntil;
    private long bytes, copies, busyPs, queuedPs;

    DmaChannel(double bytesPerSecond, long latencyPs) {
        if (bytesPerSecond <= 0) throw new IllegalArgumentException("copy bandwidth must be > 0");
        this.psPerByte = 1e12 / bytesPerSecond;
        this.latencyPs = latencyPs;
    }

    /** Queues a copy of {@code n} bytes at {@code now}; returns the time it has fully arrived. */
    long copy(long now, long n) {
        long start = Math.max(now, busyUntil);
        long occupancy = occupancyPs(n);
        busyUntil = start + occupancy;
        queuedPs += start - now;
        busyPs += occupancy;
        bytes += n;
        copies++;
        return busyUntil + latencyPs;
    }

    /** Time the channel is busy sending {@code n} bytes. */
    long occupancyPs(long n) { return Math.round(n * psPerByte); }

    /** Time the channel is busy with copies already queued, from {@code now}. */
    long backlogPs(long now) { return Math.max(0, busyUntil - now); }

    long bytes() { return bytes; }

    long copies() { return copies; }

    long busyPs() { return busyPs; }

    long queuedPs() { return queuedPs; }
}
