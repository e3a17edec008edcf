package org.hmsim.platform.traces;

import java.io.InputStream;
import org.hmsim.platform.machine.PolicySource;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
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
 * The baseline bundle's providers, found as Declarative Services would find them (the bundle's
 * Service-Component header and component descriptors) but instantiated on the plain test classpath.
 * A policy source for tests: baseline defaults, with any slot overridden by name and parameters.
 */
final class BaselineProviders implements PolicySource {
    static final Map<Slot, String> DEFAULTS = new EnumMap<>(Slot.class);

    static {
        DEFAULTS.put(Slot.PLACEMENT, "local");
        DEFAULTS.put(Slot.MIGRATION, "none");
        DEFAULTS.put(Slot.RESIDENCY, "none");
        DEFAULTS.put(Slot.THROTTLING, "none");
        DEFAULTS.put(Slot.COMPRESSION, "none");
        DEFAULTS.put(Slot.CACHEABILITY, "cache-all");
        DEFAULTS.put(Slot.COHERENCE, "none");
        DEFAULTS.put(Slot.L2_MISS_PATH, "conventional");
        DEFAULTS.put(Slot.REPLACEMENT, "lru");
        DEFAULTS.put(Slot.INTERLEAVE, "fine");
        DEFAULTS.put(Slot.CTA_SCHEDULER, "round-robin");
        DEFAULTS.put(Slot.WARP_SCHEDULER, "gto");
    }

    private static List<PolicyProvider> all;
    private final Map<Slot, String> names = new EnumMap<>(DEFAULTS);
    private final Map<Slot, Map<String, Object>> params = new EnumMap<>(Slot.class);

    BaselineProviders with(Slot slot, String name, Map<String, Object> p) {
        names.put(slot, name);
        params.put(slot, p);
        return this;
    }

    BaselineProviders with(Slot slot, String name) { return with(slot, name, Map.of()); }

    @Override
    public Policy create(Slot slot, PolicyContext context) {
        PolicyProvider p = find(slot, names.get(slot));
        return p.create(context, Params.validate(p.parameters(), params.getOrDefault(slot, Map.of())));
    }

    @Override
    public String describe(Slot slot) { return names.get(slot); }

    static PolicyProvider find(Slot slot, String name) {
        for (PolicyProvider p : providers()) if (p.slot() == slot && p.name().equals(name)) return p;
        throw new IllegalArgumentException("no baseline provider " + slot.id() + "=" + name);
    }

    static synchronized List<PolicyProvider> providers() {
        if (all != null) return all;
        List<PolicyProvider> out = new ArrayList<>();
        try {
            for (URL u : Collections.list(BaselineProviders.class.getClassLoader().getResources("META-INF/MANIFEST.MF"))) {
                Manifest mf;
                try (InputStream in = u.openStream()) {
                    mf = new Manifest(in);
                }
                if (!"org.hmsim.baseline".equals(mf.getMainAttributes().getValue("Bundle-SymbolicName"))) continue;
                String header = mf.getMainAttributes().getValue("Service-Component");
                for (String xml : header.split(",")) out.add(instantiate(xml.trim()));
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot load the baseline bundle's providers", e);
        }
        if (out.isEmpty()) throw new IllegalStateException("baseline bundle not on the test classpath");
        all = out;
        return out;
    }

    private static PolicyProvider instantiate(String xmlPath) throws Exception {
        String xml;
        try (InputStream in = BaselineProviders.class.getClassLoader().getResourceAsStream(xmlPath)) {
            xml = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        Matcher m = Pattern.compile("<implementation class=\"([^\"]+)\"").matcher(xml);
        if (!m.find()) throw new IllegalStateException("no implementation in " + xmlPath);
        return (PolicyProvider) Class.forName(m.group(1)).getDeclaredConstructor().newInstance();
    }

    static final Map<String, Object> NO_PARAMS = new HashMap<>();
}
