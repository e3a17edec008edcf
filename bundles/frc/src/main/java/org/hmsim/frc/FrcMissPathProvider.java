package org.hmsim.frc;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code frc} L2 miss path: a Fetch and Replacement Cache per L2 bank (seed 003, Ch. 5-6). */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=l2-miss-path", PolicyProvider.NAME + "=frc", PolicyProvider.VERSION + "=1.0.0"})
public final class FrcMissPathProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.L2_MISS_PATH; }

    @Override public String name() { return "frc"; }

    @Override public String description() {
        return "Fetch and Replacement Cache (seed 003 §M7): on an L2 miss with a free FRC entry the fetch starts at once while the victim "
                + "stays valid and hittable; on arrival entry and victim swap, and the victim's invalidation and write-back run from the entry. "
                + "No free entry in the FRC set: the conventional path.";
    }

    @Override public List<ParamSpec> parameters() {
        return List.of(
                ParamSpec.integer("entries", 64, 4, 65_536, "FRC entries per L2 bank (thesis: 4..512; larger values model the 'unbounded' FRC)"),
                ParamSpec.integer("ways", 8, 0, 65_536, "FRC associativity (thesis: 8; 0 or >= entries = fully associative)"),
                ParamSpec.integer("swap_cycles", 3, 0, 1_000, "cycles to swap an FRC entry with its L2 victim (thesis: 3)"),
                ParamSpec.bool("mshr", false, "an entry also holds an L2 MSHR while its fetch is in flight (thesis open, §8 q1; "
                        + "false: the entry keeps its own miss state, 'tags and control bits of blocks in transient state are stored in the FRC')"),
                ParamSpec.choice("index", "line", List.of("line", "bank"), "FRC set index: 'line' = as the L2 bank indexes "
                        + "(with a plain bank interleave line number / banks mod sets, Multi2Sim's caches and the thesis group's extra "
                        + "directory entries; the bank bits alias); 'bank' = the line number within the bank (bank bits removed), so every "
                        + "FRC set is used (thesis open, §8 q6)"));
    }

    @Override public Policy create(PolicyContext context, Params params) {
        int entries = params.getInt("entries"), ways = params.getInt("ways");
        int w = ways == 0 || ways >= entries ? entries : ways;
        if (entries % w != 0) throw new IllegalArgumentException("frc: entries (" + entries + ") must be a multiple of ways (" + ways + ")");
        return new FrcMissPath(entries, ways, params.getInt("swap_cycles"), params.getBoolean("mshr"), "bank".equals(params.getString("index")));
    }
}
