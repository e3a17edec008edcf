package org.hmsim.bwaware.migration;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;

/**
 * The parameters of the Ch. 5 migration mechanisms (threshold, range expansion, bandwidth balancing),
 * shared by the three providers, which differ only in their defaults. Every point the thesis leaves open
 * (summary §7 items 2, 3, 5) is a parameter here.
 */
record MigrationSettings(int threshold, int range, String rangeShape, boolean rangeCountsSkipped, int maxInFlight,
                         int ringEntries, int pollCycles, boolean hostData,
                         boolean balance, int periodCycles, double target, double band, String bandKind, String halfRate, String share, int window) {

    static List<ParamSpec> specs(int threshold, int range, boolean balance) {
        return List.of(
                ParamSpec.integer("threshold", threshold, 1, 1 << 20,
                        "N: a page becomes a migration candidate after N GPU touches (§2.5; 1 = first touch, no counters). A touch is a "
                                + "last-level GPU TLB miss on the page (summary §7.2: the ring-buffer input, first touch = first translation)"),
                ParamSpec.integer("range", range, 0, 4096,
                        "range expansion (§2.6): neighbouring virtual pages of the same allocation enqueued with each candidate, furthest first; 0 = off"),
                ParamSpec.choice("range_shape", "symmetric", List.of("symmetric", "forward"),
                        "which neighbours (§7.3): symmetric = range/2 below and range - range/2 above the trigger; forward = range pages above it"),
                ParamSpec.bool("range_counts_skipped", true,
                        "§7.3: true = the neighbourhood is the fixed window of 'range' pages, so pages already in GPU memory or already queued use up "
                                + "a place; false = the window widens until 'range' new pages are enqueued (or the allocation ends)"),
                ParamSpec.integer("max_in_flight", 4, 1, 1024, "page migrations in flight at once (§2.5: at most 4, a software rate limit)"),
                ParamSpec.integer("ring_entries", 4096, 16, 1 << 24,
                        "entries of the GPU's TLB-miss ring buffer; a miss arriving when it is full is dropped (the thesis gives no size)"),
                ParamSpec.integer("poll_cycles", 1000, 0, 10_000_000,
                        "GPU cycles between the runtime's polls of the ring buffer after a miss arrives (the thesis gives no period; 0 = at once)"),
                ParamSpec.bool("host_data", true,
                        "map every page in CPU memory before the first kernel, as the host's initialisation does (§2.5: all pages start in DDR); "
                                + "false = pages are first-touched through the placement slot (use ddr-only) and untouched neighbours cannot be prefetched"),
                ParamSpec.bool("balance", balance, "bandwidth balancing (§2.7): throttle migration by the measured GPU-memory traffic share"),
                ParamSpec.integer("balance_period", 10_000, 100, 100_000_000,
                        "GPU cycles between samples of the per-pool byte counters (§2.7: 10,000 beat shorter and longer windows)"),
                ParamSpec.real("balance_target", -1, -1, 1,
                        "target GPU-memory share of DRAM traffic r*; -1 = b_GDDR/(b_GDDR+b_DDR) from the machine (71.4 % for 200/80 GB/s)"),
                ParamSpec.real("balance_band", 0.05, 0, 1,
                        "§2.7 '5%': m < r* - band: full rate; r* - band <= m <= r*: half rate; m > r*: pause (band in the unit of balance_band_kind)"),
                ParamSpec.choice("balance_band_kind", "absolute", List.of("absolute", "relative"),
                        "§7.5 whether '5%' is absolute or relative: absolute = share points (71.4 % -> half rate from 66.4 %); relative = a "
                                + "fraction of r* (71.4 % -> half rate from 67.8 %)"),
                ParamSpec.choice("balance_half", "concurrency", List.of("concurrency", "dequeue"),
                        "§7.5 'reduce the rate by 1/2': concurrency = half the migrations in flight (4 -> 2); dequeue = each finished migration's "
                                + "slot rests as long as its copy took, halving the start rate"),
                ParamSpec.choice("balance_share", "demand", List.of("demand", "all"),
                        "§7.5 whether the measured share includes the migration copies: demand = this policy's page copies completed in the "
                                + "period (4 KB read from CPU memory + 4 KB written to GPU memory each) are subtracted from the channel byte "
                                + "counters first, as balancing works on 'a sampled moving average of the application's bandwidth needs to each "
                                + "memory type' (Ch. 5.4); all = every byte the pools served, copies included (the raw channel accumulators: the "
                                + "symmetric copy traffic pulls the measured share toward 50 %, so migration runs on at full rate past the target)"),
                ParamSpec.integer("balance_window", 1, 1, 1000,
                        "§7.5 moving average: the share is measured over the last this-many sampling periods"));
    }

    /** Bandwidth balancing's settings given with balance false act on nothing (range-expansion's balance_target; review of silent inputs). */
    /**
     * Seed 000's migrations move pages towards the machine's one fastest pool: on a machine of several GPUs that is one
     * GPU's memory, and the others would read every moved page over a link, whatever the interleave slot says (a trial's
     * copy-first filled g0 and left g1 empty on two GPUs, its runs labelled fine and coarse laid out alike).
     */
    static void refuseSeveralGpus(org.hmsim.api.policy.RunFacts run, String policy) {
        if (run.gpus() > 1 && !run.mix()) // a mix is refused for its own reason
            throw new IllegalArgumentException(policy + " moves pages towards the machine's one fastest pool, and this machine has " + run.gpus()
                    + " GPUs: the others would read every page it moves over a link (seed 000's migration is for one GPU;"
                    + " coda's migrate-on-touch moves a page to the GPU that touches it)");
    }

    static void refuseUnusedBalancing(Params p) {
        for (String name : p.asMap().keySet())
            if (name.startsWith("balance_")) p.refuseUnless(name, p.getBoolean("balance"), "sets bandwidth balancing (§2.7), and balance is false");
    }

    static MigrationSettings of(Params p) {
        return new MigrationSettings(p.getInt("threshold"), p.getInt("range"), p.getString("range_shape"), p.getBoolean("range_counts_skipped"),
                p.getInt("max_in_flight"), p.getInt("ring_entries"), p.getInt("poll_cycles"), p.getBoolean("host_data"),
                p.getBoolean("balance"), p.getInt("balance_period"), p.getDouble("balance_target"), p.getDouble("balance_band"), p.getString("balance_band_kind"),
                p.getString("balance_half"), p.getString("balance_share"), p.getInt("balance_window"));
    }
}
