package org.hmsim.platform.machine;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
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

/**
 * A policy source outside OSGi: the PolicyProvider components of every mechanism bundle on the class
 * path, found as Declarative Services finds them (each bundle's Service-Component header and component
 * descriptors) and instantiated directly. Unit tests of models and mechanisms use it, so they run the
 * same providers the container runs. Slots take {@link DefaultPolicies} unless overridden. As a
 * {@link SwapHost} it resolves swap targets the same way and keeps the run's swap records.
 */
public class ClasspathPolicies implements PolicySource, SwapHost {
    private static final Pattern IMPLEMENTATION = Pattern.compile("<implementation class=\"([^\"]+)\"");
    private static List<PolicyProvider> all;
    private final Map<Slot, String> names = new EnumMap<>(DefaultPolicies.all());
    private final Map<Slot, Map<String, Object>> params = new EnumMap<>(Slot.class);
    private volatile List<SwapRecord> records = List.of();
    private final List<PolicyProvider> own;

    public ClasspathPolicies() { this.own = List.of(); }

    /**
     * With {@code own} providers found first: a bundle's tests pass their own, since the bundle's manifest
     * and component descriptors exist only in its jar, not in the classes folder the tests run from.
     */
    public ClasspathPolicies(PolicyProvider... own) { this.own = List.of(own); }

    /** The defaults with {@code slot} set to {@code name} and parameters given as name, value pairs. */
    public ClasspathPolicies with(Slot slot, String name, Object... nameValuePairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < nameValuePairs.length; i += 2) m.put((String) nameValuePairs[i], nameValuePairs[i + 1]);
        return with(slot, name, m);
    }

    public ClasspathPolicies with(Slot slot, String name, Map<String, Object> p) {
        names.put(slot, name);
        params.put(slot, p);
        return this;
    }

    @Override
    public Policy create(Slot slot, PolicyContext context) {
        PolicyProvider p = provider(slot, names.get(slot));
        return p.create(context, Params.validate(p.parameters(), params.getOrDefault(slot, Map.of())));
    }

    @Override
    public String describe(Slot slot) { return names.get(slot); }

    @Override
    public SwapTarget resolve(Slot slot, String policy, Map<String, Object> p) {
        PolicyProvider provider = provider(slot, policy);
        Params validated = Params.validate(provider.parameters(), p);
        return new SwapTarget(policy, "classpath", p.toString(), context -> provider.create(context, validated));
    }

    @Override
    public String bundle(Slot slot) { return "classpath"; }

    @Override
    public void ended(SwapControl control) { records = control.records(); }

    /** Runs {@code workload} on {@code machine} with these policies (seed 1, 10 µs epochs). */
    public RunResult run(MachineConfig machine, org.hmsim.api.workload.Workload workload) { return run(machine, workload, 10_000_000L); }

    /** As {@link #run(MachineConfig, org.hmsim.api.workload.Workload)} with a time-series epoch of {@code epochPs}. */
    public RunResult run(MachineConfig machine, org.hmsim.api.workload.Workload workload, long epochPs) {
        return Simulation.run(new RunSpec("test", machine, workload, this, 1, epochPs, 0));
    }

    /** The swaps of the last run that used this source, once it has ended. */
    public List<SwapRecord> records() { return records; }

    /** This source's own provider of {@code slot} named {@code name}, else the class path's. */
    public PolicyProvider provider(Slot slot, String name) {
        for (PolicyProvider p : own) if (p.slot() == slot && p.name().equals(name)) return p;
        return find(slot, name);
    }

    public static PolicyProvider find(Slot slot, String name) {
        for (PolicyProvider p : providers()) if (p.slot() == slot && p.name().equals(name)) return p;
        throw new IllegalArgumentException("no provider " + slot.id() + "=" + name + " on the class path");
    }

    /** Every PolicyProvider component of every bundle on the class path (read once). */
    public static synchronized List<PolicyProvider> providers() {
        if (all != null) return all;
        List<PolicyProvider> out = new ArrayList<>();
        ClassLoader cl = ClasspathPolicies.class.getClassLoader();
        try {
            for (URL u : Collections.list(cl.getResources("META-INF/MANIFEST.MF"))) {
                Manifest mf;
                try (InputStream in = u.openStream()) {
                    mf = new Manifest(in);
                }
                String header = mf.getMainAttributes().getValue("Service-Component");
                if (header == null || mf.getMainAttributes().getValue("Bundle-SymbolicName") == null) continue;
                for (String xml : header.split(",")) {
                    Object component = instantiate(cl, xml.trim());
                    if (component instanceof PolicyProvider p) out.add(p);
                }
            }
        } catch (IOException | ReflectiveOperationException e) {
            throw new IllegalStateException("cannot load the policy providers on the class path", e);
        }
        if (out.isEmpty()) throw new IllegalStateException("no mechanism bundle (e.g. hmsim-baseline) on the class path");
        all = List.copyOf(out);
        return all;
    }

    private static Object instantiate(ClassLoader cl, String xmlPath) throws IOException, ReflectiveOperationException {
        String xml;
        try (InputStream in = cl.getResourceAsStream(xmlPath)) {
            if (in == null) return null;
            xml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Matcher m = IMPLEMENTATION.matcher(xml);
        if (!m.find()) return null;
        return Class.forName(m.group(1), true, cl).getDeclaredConstructor().newInstance();
    }
}
