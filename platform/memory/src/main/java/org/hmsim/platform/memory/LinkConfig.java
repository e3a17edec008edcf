package org.hmsim.platform.memory;

/**
 * A link between two nodes with two independent directions: bandwidth per direction (wire bytes, headers
 * included), latency, flit size and per-packet header bytes (payload is carried in whole flits), queue
 * depth per direction, and energy per wire byte.
 */
public record LinkConfig(String name, int nodeA, int nodeB, double bytesPerSecondPerDirection, long latencyPs,
                         int flitBytes, int headerBytes, int queueDepth, double pjPerByte) {}
