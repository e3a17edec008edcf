package org.hmsim.platform.memory;

/** Energy per DRAM event, picojoules: an activate+precharge pair, and per byte read or written. */
public record DramEnergy(double activatePj, double readPjPerByte, double writePjPerByte) {}
