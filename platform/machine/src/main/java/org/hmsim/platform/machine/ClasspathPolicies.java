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
 * same providers the container runs. Slots take {@link DefaultPolicies} unless overridden.
 */
public final class ClasspathPolicies implements PolicySource {
    private static final Pattern IMPLEMENTATION = Pattern.compile("<implementation class=\"([^\"]+)\"");
    private static List<PolicyProvider> all;
    private final Map<Slot, String> names = new EnumMap<>(DefaultPolicies.all());
    private final Map<Slot, Map<String, Object>> params = new EnumMap<>(Slot.class);

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
        PolicyProvider p = find(slot, names.get(slot));
        return p.create(context, Params.validate(p.parameters(), params.getOrDefault(slot, Map.of())));
    }

    @Override
    public String describe(Slot slot) { return names.get(slot); }

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
