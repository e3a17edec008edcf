package org.hmsim.platform.kernel;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Function;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.Workload;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.kernel.registry.Defaults;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.hmsim.platform.kernel.registry.WorkloadRegistry;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;

/** Test doubles: providers for every slot, a few workloads, a deterministic fake simulator, a machine file. */
public final class Fakes {
    private Fakes() {}

    /** A valid machine file (the shape of examples/machines/small.yaml). */
    public static final String MACHINE = """
            name: small
            gpus: 1
            gpu:
              clock: 1400MHz
              sms: 4
            pools:
              - { name: gddr, kind: GDDR5, node: gpu0, channels: 4, bandwidth: 100GB/s, capacity: 1GB }
              - { name: ddr, kind: DDR4, node: cpu, channels: 2, bandwidth: 40GB/s, capacity: 4GB }
            links:
              - { between: [gpu0, cpu], latency_cycles: 100, bandwidth: 64GB/s }
            """;

    public static Path write(Path dir, String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    public record Provider(Slot slot, String name, String version, List<ParamSpec> parameters, boolean explode)
            implements PolicyProvider {
        public String description() { return "fake " + name; }

        /** blocks_per_gpu is shared across slots, as CODA's is. */
        @Override public java.util.Set<String> sharedParameters() {
            return parameters.stream().anyMatch(p -> p.name().equals("blocks_per_gpu")) ? java.util.Set.of("blocks_per_gpu") : java.util.Set.of();
        }

        public Policy create(PolicyContext context, Params params) {
            if (explode) throw new IllegalStateException("policy " + name + " exploded");
            InvocationHandler h = (proxy, m, args) -> {
                if (m.isDefault()) return InvocationHandler.invokeDefault(proxy, m, args);
                if (m.getName().equals("toString")) return name;
                if (m.getName().equals("hashCode")) return System.identityHashCode(proxy);
                if (m.getName().equals("equals")) return proxy == args[0];
                return null;
            };
            return (Policy) Proxy.newProxyInstance(slot.policyType().getClassLoader(), new Class<?>[] {slot.policyType()}, h);
        }

        /** A string parameter named {@code pool} must name a pool of the machine (as ddr-only's). */
        @Override
        public void check(Params params, List<org.hmsim.api.machine.PoolInfo> pools) {
            if (!params.asMap().containsKey("pool") || params.getString("pool").isEmpty()) return;
            if (pools.stream().noneMatch(p -> p.name().equals(params.getString("pool"))))
                throw new IllegalArgumentException("parameter 'pool': no pool '" + params.getString("pool") + "'");
        }

        /** A string parameter named {@code alloc} must name an allocation of the workload, where the workload is known. */
        @Override
        public void check(Params params, org.hmsim.api.policy.RunFacts run) {
            check(params, run.pools());
            if (!params.asMap().containsKey("alloc") || !run.knowsAllocations()) return;
            if (!run.allocations().contains(params.getString("alloc")))
                throw new IllegalArgumentException("parameter 'alloc': no allocation '" + params.getString("alloc") + "' (page " + run.pageBytes() + " B)");
        }

        /** A {@code tag} of "noted" remarks on a machine of several pools; "note-throws" throws from its note (a plugin's mistake). */
        @Override
        public String note(Params params, org.hmsim.api.policy.RunFacts run) {
            if (!params.asMap().containsKey("tag")) return null;
            if (params.getString("tag").equals("note-throws")) throw new IllegalStateException("a note that throws");
            return params.getString("tag").equals("noted") && run.pools().size() > 1 ? "acts as lru with several pools" : null;
        }

        /** A string parameter named {@code pairs} must be k=v,... (a provider's own check, as bw-aware's bandwidths). */
        @Override
        public void check(Params params) {
            if (!params.asMap().containsKey("pairs")) return;
            for (String kv : params.getString("pairs").split(","))
                if (!kv.contains("=")) throw new IllegalArgumentException("parameter 'pairs': '" + kv + "' is not name=value");
        }
    }

    public static PolicyRegistry policies() { return policies("classpath"); }

    /** {@link #policies()} with the placement policies local and interleave from {@code bundle} ({@code symbolic-name version}). */
    public static PolicyRegistry policies(String bundle) {
        PolicyRegistry r = new PolicyRegistry();
        for (Slot s : Slot.values()) if (s != Slot.PLACEMENT) r.add(new Provider(s, Defaults.name(s), "1.0.0", List.of(), false));
        r.add(new Provider(Slot.PLACEMENT, Defaults.name(Slot.PLACEMENT), "1.0.0", List.of(), false), bundle);
        r.add(new Provider(Slot.PLACEMENT, "interleave", "1.0.0", List.of(), false), bundle);
        r.add(new Provider(Slot.PLACEMENT, "ratio", "1.0.0",
                List.of(ParamSpec.integer("fast_percent", 50, 0, 100, "share of pages in the fast pool, %")), false));
        r.add(new Provider(Slot.PLACEMENT, "explode", "1.0.0", List.of(), true));
        r.add(new Provider(Slot.PLACEMENT, "paired", "1.0.0", List.of(ParamSpec.string("pairs", "", "name=value,...")), false));
        r.add(new Provider(Slot.PLACEMENT, "pinned", "1.0.0", List.of(ParamSpec.string("pool", "", "a pool's name")), false));
        r.add(new Provider(Slot.REPLACEMENT, "random", "1.0.0", List.of(), false));
        r.add(new Provider(Slot.DRAM_SCHEDULER, "fcfs", "1.0.0", List.of(), false));
        // a pair of one bundle that share a parameter, as CODA's interleave and block scheduler share blocks_per_gpu
        r.add(new Provider(Slot.INTERLEAVE, "split", "1.0.0", List.of(ParamSpec.integer("blocks_per_gpu", 0, 0, 1024, "0 = the machine's")), false));
        r.add(new Provider(Slot.CTA_SCHEDULER, "bound", "1.0.0", List.of(ParamSpec.integer("blocks_per_gpu", 0, 0, 1024, "0 = the machine's")), false));
        // two parameters, one with a default: a sweep entry that leaves it out is still found by its error (RunChecks.sweptSpec)
        r.add(new Provider(Slot.REPLACEMENT, "by-allocation", "1.0.0", List.of(ParamSpec.string("alloc", "", "an allocation's name"),
                ParamSpec.integer("ways", 0, 0, 64, "ways it may take; 0 = all")), false));
        r.add(new Provider(Slot.REPLACEMENT, "tagged", "1.0.0", List.of(ParamSpec.string("tag", "", "any text, numbers or words")), false));
        return r;
    }

    /** {@code bytes}: its one allocation's size (0: none). */
    public record FakeWorkload(String name, long bytes, int threads) implements Workload {
        public FakeWorkload(String name) { this(name, 0); }

        public FakeWorkload(String name, long bytes) { this(name, bytes, 32); }

        public List<AllocationSpec> allocations() { return bytes == 0 ? List.of() : List.of(new AllocationSpec("a", bytes)); }

        /** Workload "hosted" has one host (CPU) phase before its first kernel. */
        @Override
        public List<org.hmsim.api.workload.HostPhase> hostPhases(long[] baseAddresses) {
            return name.startsWith("hosted") ? List.of(new org.hmsim.api.workload.HostPhase(0, "init", List.of(), 10)) : List.of();
        }

        /** Four kernels (the simulator stand-in never runs them; validation counts them for swaps at kernel N). */
        public List<Kernel> kernels(long[] baseAddresses) {
            List<Kernel> out = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                String k = "k" + i;
                out.add(new Kernel() {
                    public String name() { return k; }
                    public int ctas() { return 1; }
                    public int threadsPerCta() { return threads; }
                    public org.hmsim.api.workload.WarpProgram program(int cta, int warp) { return out -> false; }
                });
            }
            return out;
        }
    }

    public record WProvider(String name, List<ParamSpec> parameters) implements WorkloadProvider {
        public String description() { return "fake workload " + name; }

        public Workload create(Params params, long seed) {
            // as a real model refuses a parameter only as it builds (matrix-transpose's block)
            if (params.asMap().containsKey("threads") && params.getInt("threads") % 32 != 0)
                throw new IllegalArgumentException("threads must be whole warps (a multiple of 32), not " + params.getInt("threads"));
            return new FakeWorkload(name + params.asMap(), params.asMap().containsKey("size") ? params.getLong("size") : 0,
                    params.asMap().containsKey("threads") ? params.getInt("threads") : 32);
        }
    }

    public static WorkloadRegistry workloads() {
        WorkloadRegistry r = new WorkloadRegistry();
        r.add(new WProvider("stream", List.of(ParamSpec.size("size", 1 << 20, 1024, 1L << 32, "array size"))));
        r.add(new WProvider("bfs", List.of(ParamSpec.integer("nodes", 1024, 1, 1_000_000, "graph nodes"))));
        r.add(new WProvider("boom", List.of()));
        r.add(new WProvider("hosted", List.of()));
        r.add(new WProvider("blocks", List.of(ParamSpec.integer("threads", 32, 32, 1 << 16, "threads per block"))));
        return r;
    }

    /** A registry of the classpath's built-in providers, made the live-swap hub's (reset it with useRegistry(null)). */
    public static org.hmsim.platform.kernel.registry.PolicyRegistry liveRegistry() {
        var registry = new org.hmsim.platform.kernel.registry.PolicyRegistry();
        for (org.hmsim.api.policy.PolicyProvider p : org.hmsim.platform.machine.ClasspathPolicies.providers()) registry.add(p, "org.hmsim.baseline 1.0.0");
        org.hmsim.platform.kernel.runner.LiveSwaps.useRegistry(registry);
        return registry;
    }

    /** {@link #SIMULATOR} with {@code extra} statistics, as a run whose stats.json a study-end note reads. */
    public static Function<RunSpec, RunResult> withStats(java.util.Map<String, Double> extra) {
        return spec -> {
            RunResult r = SIMULATOR.apply(spec);
            TreeMap<String, Double> stats = new TreeMap<>(r.stats());
            stats.putAll(extra);
            return new RunResult(r.simTimePs(), r.metrics(), stats, r.seriesNames(), r.seriesRows(), r.events(), r.memoryRequests());
        };
    }

    /**
     * A deterministic stand-in for Simulation.run: numbers depend only on the spec; creates every slot's
     * policy (as the real simulation does); workload "boom" throws. Sleeps a little so jobs overlap.
     */
    public static final Function<RunSpec, RunResult> SIMULATOR = spec -> {
        for (Slot s : Slot.values()) spec.policies().create(s, null);
        if (spec.workload().name().startsWith("boom")) throw new IllegalStateException("workload boom failed on purpose");
        String key = spec.machine().tree() + "|" + spec.workload().name() + "|" + spec.seed() + "|" + spec.policies().describe(Slot.PLACEMENT);
        long h = key.hashCode() & 0xffffffL;
        try {
            Thread.sleep(h % 3);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LinkedHashMap<String, Double> metrics = new LinkedHashMap<>();
        metrics.put("sim_time_ns", (double) (1000 + h % 5000));
        metrics.put("l2_hit_rate", (h % 1000) / 1000.0 + 1e-4);
        if (spec.workload().name().startsWith("bfs")) metrics.put("edges", (double) (h % 77));
        TreeMap<String, Double> stats = new TreeMap<>();
        stats.put("gpu0.l2.hits", (double) (h % 100));
        stats.put("gpu0.l2.misses", (double) (h % 37));
        List<double[]> rows = new ArrayList<>();
        for (int i = 1; i <= 3; i++) rows.add(new double[] {i * 10.0, h % (7 + i), 0.5 * i});
        return new RunResult((1000 + h % 5000) * 1000, metrics, stats, List.of("requests", "occupancy"), rows, h, h % 999);
    };
}
