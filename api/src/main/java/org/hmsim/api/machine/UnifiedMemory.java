package org.hmsim.api.machine;

/**
 * Demand paging of a discrete GPU's unified memory (seed 002 §2.2, CUDA 8 unified memory) as the
 * residency, throttling and compression policies see it: GPU memory holds a fraction of the workload's
 * footprint; a GPU access to a non-resident page is a far fault that the driver services in batches and
 * answers with a page migration over the host link; when memory is full pages are evicted to the host.
 * Obtained from {@link MachineView#unifiedMemory()}; null when the machine does not demand-page.
 *
 * <p>Page counts are in pages of {@link #pageBytes()}. Since api.machine 1.1.0.
 */
@org.osgi.annotation.versioning.ProviderType
public interface UnifiedMemory {

    long pageBytes();

    /** Pages of all the workload's allocations (known once the host program has allocated). */
    long footprintPages();

    /** Physical GPU frames available to unified memory (the oversubscription fraction of the footprint). */
    long capacityFrames();

    /** Whether the footprint exceeds GPU memory (ETC's activation condition, seed 002 §4.4). */
    default boolean oversubscribed() { return footprintPages() > capacityFrames(); }

    /**
     * GPU memory in pages as pages migrated in now are stored: {@link #capacityFrames()} times the compression
     * slot's current capacity factor (a page compressed at ratio r occupies 1/r of a frame). With capacity
     * compression on, "allocation size larger than the available GPU memory" (seed 002 §4.2, PE's condition 1)
     * compares the footprint with this. The default (no compression) is {@link #capacityFrames()}.
     * Since api.machine 1.2.0.
     */
    default double effectiveCapacityPages() { return capacityFrames(); }

    /**
     * Whether the footprint exceeds GPU memory counted as {@link #effectiveCapacityPages()}: with compression
     * on and the compressed footprint fitting, demand paging only has compulsory faults left.
     * Since api.machine 1.2.0.
     */
    default boolean oversubscribedEffective() { return footprintPages() > effectiveCapacityPages(); }

    /** Pages resident in GPU memory now. */
    long residentPages();

    /** Free GPU memory in pages, counting compressed pages by their compressed size. */
    double freePages();

    /** Whether {@code vpn} is resident in GPU memory. */
    boolean isResident(long vpn);

    /** Evictions (device-to-host copies) under way. */
    int evictionsInFlight();

    /**
     * GPU memory, in pages as {@link #freePages()} counts them, that the evictions under way free when their copies are
     * done: {@link #evictionsInFlight()} weighted by each page's (compressed) size. Since api.machine 1.4.0.
     */
    default double evictingPages() { return evictionsInFlight(); }

    /**
     * GPU memory, in pages as {@link #freePages()} counts them, that fault batches done with their handler latency are
     * waiting for. They take it before anyone else: the free frames first, then the frames of evictions under way (which
     * the driver started for them). Free memory plus {@link #evictingPages()} less this is what later faults can still
     * count on. 0 when the driver serves batches as soon as their handler is done. Since api.machine 1.4.0.
     */
    default double awaitedPages() { return 0; }

    /**
     * Demand faults raised ({@link Listener#onFault}) and not yet resolved ({@link Listener#onFaultResolved}): the
     * IOMMU's view of faults in service. A policy created mid-run (a live swap) heard none of the faults raised before
     * it and cannot count them itself. -1 if the driver does not say. Since api.machine 1.4.0.
     */
    default long faultsInService() { return -1; }

    /**
     * Pages whose host-to-device copy is queued or under way (faulted and prefetched pages of batches with frames, not yet
     * resident): the copy engine's backlog, for a prefetcher that throttles itself on it. -1 if the driver does not say.
     * Since api.machine 1.8.0.
     */
    default long copiesInFlight() { return -1; }

    /**
     * Starts up to {@code pages} evictions ahead of need (ETC's proactive eviction, seed 002 §4.2): victims
     * from the residency slot, copied out on the device-to-host channel while faults keep migrating in on
     * the host-to-device channel. Returns how many evictions started.
     */
    int evictAhead(int pages);

    /** Whether a kernel of the workload is marked as sharing data with an earlier one (compile-time flag). */
    boolean workloadSharesData();

    /** Load/store warp instructions issued by every SM so far (the coalescing counters of seed 002 §4.4). */
    long memInstructions();

    /** Thread accesses of those instructions (active threads summed). */
    long threadAccesses();

    /** Cache-line requests those instructions produced after coalescing. */
    long lineRequests();

    void addListener(Listener l);

    void removeListener(Listener l);

    /** Events of the demand-paging driver, on the simulation thread. {@code sm} is the index in {@link MachineView#sms()}. */
    interface Listener {
        /** SM {@code sm} faulted on {@code vpn} (the first fault of the page; merged faults are not reported). */
        default void onFault(int sm, long vpn) {}

        /** The page {@code sm} faulted on is resident again; its warps may proceed. */
        default void onFaultResolved(int sm, long vpn) {}

        /** The driver started a batch of {@code faults} faults and allocated frames for it. */
        default void onBatchAllocated(int faults) {}

        /** An eviction of {@code vpn} started (proactive: by {@link #evictAhead}; otherwise on the fault path). */
        default void onEviction(long vpn, boolean proactive) {}

        /**
         * Kernel {@code kernel} (0-based, in launch order) of the workload is about to start: a classifier that
         * samples per kernel starts a new window here. Since api.machine 1.3.0.
         */
        default void onKernelLaunch(int kernel) {}
    }
}
