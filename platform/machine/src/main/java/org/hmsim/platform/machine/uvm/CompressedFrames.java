package org.hmsim.platform.machine.uvm;

/** What the compressed-access stage ({@link CompressedAccessDelay}) asks of GPU memory's frames: the driver answers. */
interface CompressedFrames {
    /** Whether {@code paddr} lies in a frame holding a compressed page. */
    boolean compressedFrame(long paddr);

    /** The metadata block an access to {@code paddr} must read first, or -1 if the metadata cache has it. */
    long metadataReadPa(long paddr, boolean write);

    /** Codec latency added to an access to {@code paddr}, ps (counted as a compressed access). */
    long compressedAccessPs(long paddr);
}
