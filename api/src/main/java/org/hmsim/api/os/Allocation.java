package org.hmsim.api.os;

/**
 * A named region of the virtual address space ({@code cudaMalloc}/{@code malloc}): base address, size,
 * the hint it was allocated with, and whether the program only reads it on the GPU.
 */
public record Allocation(int id, String name, long baseVa, long bytes, AllocationHint hint, boolean readOnly) {

    public boolean contains(long va) { return va >= baseVa && va < baseVa + bytes; }

    public long endVa() { return baseVa + bytes; }
}
