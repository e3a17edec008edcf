package org.hmsim.platform.machine.uvm;

/**
 * Unified memory (demand paging) of a discrete GPU, the machine file's {@code uvm:} section (seed 002
 * §2.1 and Table 1). Absent section = no demand paging (every page is mapped on first touch).
 *
 * @param oversubscription GPU memory as a fraction of the workload's footprint (the paper's 0.75 and 0.5;
 *                         1.0 = the footprint fits, the "unlimited memory" ideal after cold faults)
 * @param faultLatencyPs   the fault handler's service time per batch (Table 1: 20 us)
 * @param faultBuffer      entries of the GPU's fault buffer; faults beyond it wait to be replayed
 * @param batchSize        faults the driver takes from the buffer per batch (ours; the paper has no batching)
 * @param faultHandlers    batches served at once (ours; 1 = one handler, batch after batch, as CUDA's driver;
 *                         the paper does not say how many faults are in service at once)
 * @param h2dBytesPerSecond host-to-device copy bandwidth (Table 1: 16 GB/s PCIe)
 * @param d2hBytesPerSecond device-to-host copy bandwidth (the paper: "significantly faster", no number)
 * @param dmaLatencyPs     one-way latency of a copy over the link
 * @param prefetcher       {@code tree} (the locality prefetcher of {@link TreePrefetcher}) or {@code none}
 * @param prefetchRegionPages pages under one root of the prefetch tree (2 MB / 64 KB = 32)
 * @param prefetchEvicts   whether a batch's prefetches may evict as its faults do (the driver makes room for the
 *                         pages it chose to bring, as CUDA's does: Ganguly et al. ISCA'19), or only fill free frames
 * @param preload          whether the pages GPU memory can hold are resident when the first kernel launches (copied
 *                         before the timed region, as a cudaMemPrefetchAsync of every allocation would), in address
 *                         order; the rest fault as usual. With oversubscription 1 the run has no far faults at all
 * @param copyThroughMemory whether the copy engine writes the pages it brings in, and reads the pages it evicts,
 *                         through GPU memory's controllers (contending with the kernels' traffic, counted in the pool's
 *                         bytes and energy), or the link alone is modelled (the driver's model before 2026-11-29)
 */
public record UvmConfig(double oversubscription, long faultLatencyPs, int faultBuffer, int batchSize, int faultHandlers,
                        double h2dBytesPerSecond, double d2hBytesPerSecond, long dmaLatencyPs,
                        String prefetcher, int prefetchRegionPages, boolean prefetchEvicts, boolean preload,
                        boolean copyThroughMemory) {}
