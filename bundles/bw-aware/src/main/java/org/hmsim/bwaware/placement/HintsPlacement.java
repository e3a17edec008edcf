package org.hmsim.bwaware.placement;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.hmsim.api.machine.MachineView;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.os.MemoryManager;
import org.hmsim.api.policy.AccessProfile;
import org.hmsim.api.policy.PlacementPolicy;
import org.hmsim.api.policy.ProfiledPolicy;
import org.hmsim.api.stats.Stats;

/**
 * Annotation-based placement (seed 000 §2.4, Ch. 4.4): {@code cudaMalloc(ptr, size, hint)} with hint BO
 * (the fastest pool), CO (the CPU's pool) or BW (BW-AWARE draw); an allocation without a hint follows
 * BW-AWARE. A hint the workload itself gives is honoured first (a full pool falls back to the other: the
 * OS spills). For allocations without one, hints come from {@link GetAllocation} applied to per-allocation
 * hotness, which is either profiled (the platform's profiling pass; hotness = DRAM accesses of the
 * allocation) or given as a parameter (e.g. measured on another data set, Fig. 4.12).
 *
 * <p>The per-allocation hotness and hints are published as statistics
 * ({@code policy.placement.hotness.<allocation>}, {@code policy.placement.hint.<allocation>}: 0 none,
 * 1 BO, 2 CO, 3 BW) — the profiler's output, which a later study can pass back through {@code hotness}.
 */
final class HintsPlacement implements PlacementPolicy, ProfiledPolicy {
    private final MachineView machine;
    private final MemoryManager memory;
    private final String source;
    private final Map<String, Double> given;
    private final String rankBy, fit, overrides;
    private final RandomGenerator random;
    private final Stats stats;
    private Bandwidths bandwidths;
    private Map<String, AllocationHint> derived;  // by allocation name; null until computed
    private int fast = -1, capacity = -1;
    private HostTouchOrder hostOrder; // null = GPU touch order
    private final HostTouchOrder.Choice choice = this::choose;

    /** Pages get frames in the host's order (parameter touch_order = host). */
    HintsPlacement hostOrder(HostTouchOrder order) {
        this.hostOrder = order;
        return this;
    }

    HintsPlacement(MachineView machine, MemoryManager memory, String source, String hotness, String rankBy, String fit,
                   String overrides, RandomGenerator random, Stats stats) {
        this.machine = machine;
        this.memory = memory;
        this.source = source;
        this.given = parse(hotness);
        this.rankBy = rankBy;
        this.fit = fit;
        this.overrides = overrides;
        this.random = random;
        this.stats = stats;
        if (source.equals("given") && given.isEmpty())
            throw new IllegalArgumentException("parameter 'hotness' must name allocations (name=value,...) when source = given");
    }

    static Map<String, Double> parse(String spec) {
        Map<String, Double> out = new LinkedHashMap<>();
        if (spec == null || spec.isBlank()) return out;
        for (String part : spec.split(",")) {
            String kv = part.trim();
            if (kv.isEmpty()) continue;
            int eq = kv.lastIndexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("parameter 'hotness': '" + kv + "' is not allocation=value");
            try {
                out.put(kv.substring(0, eq).trim(), Double.parseDouble(kv.substring(eq + 1).trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("parameter 'hotness': '" + kv + "' has no number after '='");
            }
        }
        return out;
    }

    /** A hotness naming no allocation of the workload is a misspelling: it would silently leave that allocation at 0 (CO). */
    static void checkNames(java.util.Collection<String> named, List<String> allocations) {
        for (String n : named)
            if (!allocations.contains(n))
                throw new IllegalArgumentException("parameter 'hotness' names '" + n + "', which the workload does not allocate (its allocations: "
                        + String.join(", ", allocations) + ")");
    }

    @Override
    public boolean wantsProfile() { return source.equals("profile"); }

    @Override
    public void useProfile(AccessProfile profile) {
        List<Allocation> allocs = profile.allocations();
        double[] hot = new double[allocs.size()];
        for (int a = 0; a < hot.length; a++) for (long c : profile.pageAccesses(a)) hot[a] += c;
        derive(allocs, hot);
    }

    private void derive(List<Allocation> allocs, double[] hot) {
        resolve();
        long[] size = new long[allocs.size()];
        for (int a = 0; a < size.length; a++) size[a] = allocs.get(a).bytes();
        long bo = memory.totalFrames(fast) * memory.pageBytes();
        AllocationHint[] h = GetAllocation.hints(size, hot, bo, bandwidths.share(fast), rankBy, fit);
        derived = new LinkedHashMap<>();
        for (int a = 0; a < h.length; a++) {
            String name = allocs.get(a).name();
            derived.put(name, h[a]);
            if (stats != null) {
                double v = hot[a];
                int code = h[a].ordinal();
                stats.gauge("hotness." + name, source.equals("given") ? "hotness of allocation '" + name + "' as the hotness parameter gives it (source: given)"
                        : "profiled DRAM accesses of allocation '" + name + "' (the hint profiler's output)", () -> v);
                stats.gauge("hint." + name, "hint derived for '" + name + "' by GetAllocation: 0 none, 1 BO, 2 CO, 3 BW", () -> code);
            }
        }
    }

    private void resolve() {
        if (bandwidths != null) return;
        bandwidths = new Bandwidths(machine, overrides, 0);
        fast = bandwidths.fastest();
        capacity = Bandwidths.capacityPool(machine);
    }

    @Override
    public int choosePool(long vpn, Allocation allocation, int gpu) {
        if (hostOrder != null) hostOrder.catchUp(vpn, allocation, choice);
        return choose(vpn, allocation);
    }

    private int choose(long vpn, Allocation allocation) {
        resolve();
        AllocationHint h = allocation.hint();
        if (h == AllocationHint.NONE) {
            if (derived == null && source.equals("given")) {
                List<Allocation> allocs = memory.allocations();
                checkNames(given.keySet(), allocs.stream().map(Allocation::name).toList());
                double[] hot = new double[allocs.size()];
                for (int a = 0; a < hot.length; a++) hot[a] = given.getOrDefault(allocs.get(a).name(), 0.0);
                derive(allocs, hot);
            }
            if (derived != null) h = derived.getOrDefault(allocation.name(), AllocationHint.NONE);
        }
        return switch (h) {
            case BO -> fast;
            case CO -> capacity;
            default -> bandwidths.draw(random);
        };
    }
}
