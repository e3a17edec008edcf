package org.hmsim.platform.gpu.cache;

import org.hmsim.api.engine.Engine;
import org.hmsim.api.policy.ReplacementPolicy;
import org.hmsim.platform.gpu.xbar.Crossbar;

/**
 * What every path of an L2 slice works on: the slice, its clock, crossbar, tags, sharer bits, replacement state,
 * transactions and counters. Copied into final fields once, so the hot paths read them without going through the slice.
 */
abstract class L2SlicePart {
    final L2Slice slice;
    final Engine engine;
    final Crossbar xbar;
    final ReplacementPolicy.State repl;
    final SectorTags t;
    final long[] sharers;
    final L2Stats st;
    final L2Transactions tx;

    L2SlicePart(L2Slice slice) {
        this.slice = slice;
        this.engine = slice.engine;
        this.xbar = slice.xbar;
        this.repl = slice.repl;
        this.t = slice.t;
        this.sharers = slice.sharers;
        this.st = slice.st;
        this.tx = slice.tx;
    }
}
