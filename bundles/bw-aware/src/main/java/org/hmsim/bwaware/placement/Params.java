package org.hmsim.bwaware.placement;

import org.hmsim.api.policy.ParamSpec;

/** Parameters several placement policies of this bundle share, documented once. */
final class Params {
    private Params() {}

    static final ParamSpec BANDWIDTHS = ParamSpec.string("bandwidths", "",
            "per-pool bandwidths to balance, 'gddr=190GB/s,ddr=72GB/s' (names or indices; e.g. a STREAM probe's "
                    + "results, seed 000 §2.7); empty = the machine description's peak bandwidths (the thesis's SBIT, §2.2)");

    static final ParamSpec TOUCH_ORDER = ParamSpec.choice("touch_order", "gpu", java.util.List.of("gpu", "host"),
            "order in which pages get frames (matters once a pool is full, e.g. Ch. 4.3's 10 % capacity): gpu = when a kernel first "
                    + "touches them; host = in allocation and address order, as the host's cudaMemcpy of the inputs before the first "
                    + "kernel allocates them (then the pages a kernel reaches first, often the hottest, get no preference)");

    static final ParamSpec PERCENT_STEP = ParamSpec.integer("percent_step", 1, 0, 50,
            "rounding of the bandwidth shares: 0 = exact shares (uniform real draw); k = shares rounded to multiples of "
                    + "k % and r drawn uniform in [0, 99] as in §2.2 (1: 200/80 GB/s gives 29C-71B; 10: the thesis's 30C-70B)");
}
