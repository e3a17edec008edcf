package org.hmsim.frc;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.Workload;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.machine.DefaultPolicies;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.Presets;
import org.hmsim.platform.machine.PolicySource;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.hmsim.platform.machine.Simulation;
import org.hmsim.platform.workloads.BuiltinWorkloads;
import org.yaml.snakeyaml.Yaml;

/**
 * Test harness (after platform/machine's TestMachines and BaselineProviders): machine presets with
 * overrides, built-in workloads, and a policy source of the baseline bundle's providers (found through
 * its manifest, as DS would) plus this bundle's.
 */
final class Sim implements PolicySource, org.hmsim.platform.machine.SwapHost {
    List<org.hmsim.platform.machine.SwapRecord> records = List.of();

    private static List<PolicyProvider> all;
    private final Map<Slot, String> names = new EnumMap<>(Slot.class);
    private final Map<Slot, Map<String, Object>> params = new EnumMap<>(Slot.class);

    Sim() {
        names.putAll(DefaultPolicies.all());
    }

    static Sim conventional() { return new Sim(); }

    static Sim frc(int entries) { return new Sim().with(Slot.L2_MISS_PATH, "frc", "entries", entries); }

    Sim with(Slot slot, String name, Object... p) {
        names.put(slot, name);
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < p.length; i += 2) m.put((String) p[i], p[i + 1]);
        params.put(slot, m);
        return this;
    }

    @Override
    public Policy create(Slot slot, PolicyContext context) {
        PolicyProvider p = find(slot, names.get(slot));
        return p.create(context, Params.validate(p.parameters(), params.getOrDefault(slot, Map.of())));
    }

    @Override
    public String describe(Slot slot) { return names.get(slot); }

    @Override
    public org.hmsim.platform.machine.SwapTarget resolve(Slot slot, String policy, Map<String, Object> p) {
        PolicyProvider prov = find(slot, policy);
        Params v = Params.validate(prov.parameters(), p);
        return new org.hmsim.platform.machine.SwapTarget(policy, "test", p.toString(), ctx -> prov.create(ctx, v));
    }

    @Override
    public String bundle(Slot slot) { return "test"; }

    @Override
    public void ended(org.hmsim.platform.machine.SwapControl control) { records = control.records(); }

    static PolicyProvider find(Slot slot, String name) {
        for (PolicyProvider p : providers()) if (p.slot() == slot && p.name().equals(name)) return p;
        throw new IllegalArgumentException("no provider " + slot.id() + "=" + name);
    }

    static synchronized List<PolicyProvider> providers() {
        if (all != null) return all;
        List<PolicyProvider> out = new ArrayList<>(List.of(new FrcMissPathProvider()));
        try {
            for (URL u : Collections.list(Sim.class.getClassLoader().getResources("META-INF/MANIFEST.MF"))) {
                Manifest mf;
                try (InputStream in = u.openStream()) {
                    mf = new Manifest(in);
                }
                if (!"org.hmsim.baseline".equals(mf.getMainAttributes().getValue("Bundle-SymbolicName"))) continue;
                for (String xml : mf.getMainAttributes().getValue("Service-Component").split(",")) out.add(instantiate(xml.trim()));
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot load the baseline bundle's providers", e);
        }
        all = out;
        return out;
    }

    private static PolicyProvider instantiate(String xmlPath) throws Exception {
        String xml;
        try (InputStream in = Sim.class.getClassLoader().getResourceAsStream(xmlPath)) {
            xml = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        Matcher m = Pattern.compile("<implementation class=\"([^\"]+)\"").matcher(xml);
        if (!m.find()) throw new IllegalStateException("no implementation in " + xmlPath);
        return (PolicyProvider) Class.forName(m.group(1)).getDeclaredConstructor().newInstance();
    }

    static Path examples() { return Presets.examples(); }

    /** {@code preset} with {@code overrides} ("pools.1.bandwidth", "40GB/s", ...). */
    static MachineConfig machine(String preset, Object... overrides) { return Presets.machine(preset, overrides); }

    static Workload workload(String name, Object... params) {
        WorkloadProvider p = BuiltinWorkloads.byName(name);
        Map<String, Object> given = new LinkedHashMap<>();
        for (int i = 0; i < params.length; i += 2) given.put((String) params[i], params[i + 1]);
        return p.create(Params.validate(p.parameters(), given), 1);
    }

    /** A workload file of examples/workloads ({@code name}.yaml) with integer parameters. */
    static Workload file(String name, Object... params) {
        WorkloadProvider p;
        try {
            p = org.hmsim.platform.workloads.file.WorkloadFile.load(examples().resolve("workloads").resolve(name + ".yaml"));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        Map<String, Object> given = new LinkedHashMap<>();
        for (int i = 0; i < params.length; i += 2) given.put((String) params[i], params[i + 1]);
        return p.create(Params.validate(p.parameters(), given), 1);
    }

    RunResult run(MachineConfig m, Workload w) {
        return Simulation.run(new RunSpec("test", m, w, this, 1, 10_000_000L, 0));
    }

    static double ns(RunResult r) { return r.simTimeNs(); }

    /**
     * Runs independent simulations on two threads (each run is self-contained and deterministic, so the
     * results do not depend on the order), to keep the suite fast on the shared 2-core machine.
     */
    @SafeVarargs
    static RunResult[] parallel(java.util.function.Supplier<RunResult>... runs) {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            List<java.util.concurrent.Future<RunResult>> f = new ArrayList<>();
            for (var r : runs) f.add(pool.submit(r::get));
            RunResult[] out = new RunResult[runs.length];
            for (int i = 0; i < out.length; i++) out[i] = f.get(i).get();
            return out;
        } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause() != null ? e.getCause() : e);
        } finally {
            pool.shutdownNow();
        }
    }
}
