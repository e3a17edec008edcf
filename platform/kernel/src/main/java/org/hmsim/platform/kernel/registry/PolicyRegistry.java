package org.hmsim.platform.kernel.registry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;

/**
 * Every installed policy provider, by slot and name (DESIGN §5). Plain Java: the OSGi component feeds it
 * from the service registry; tests add providers directly. Thread-safe: providers come and go while
 * studies resolve against it.
 */
public final class PolicyRegistry {
    /** Slot, name, newest version first; among providers of one version the better ranked first (service.ranking), then by bundle. */
    private final Comparator<PolicyEntry> order = Comparator.comparing(PolicyEntry::slot)
            .thenComparing(PolicyEntry::name)
            .thenComparing((a, b) -> Versions.compare(b.version(), a.version()))
            .thenComparing((a, b) -> Integer.compare(ranking(b), ranking(a)))
            .thenComparing(PolicyEntry::bundle);

    private final List<PolicyEntry> entries = new CopyOnWriteArrayList<>();
    /** The OSGi {@code service.ranking} of each provider (by identity; absent = 0). */
    private final Map<PolicyProvider, Integer> rankings = java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

    public void add(PolicyProvider provider) { add(provider, "classpath"); }

    /**
     * A provider registered as a service that the container could not create (its DS component failed to
     * activate: its constructor or activate method threw, or a class it needs is missing), as its service
     * properties name it. It is not installed; validation and {@code policies} say that it is there but broken.
     */
    public record Unavailable(Slot slot, String name, String version, String bundle) {
        /** What a user is told about it. */
        public String explain() {
            return bundle + " registers " + slot.id() + " policy '" + name + "'" + (version == null ? "" : " " + version)
                    + " but its component could not be created (its constructor or activate method threw, or a class it needs"
                    + " is missing: the console shows the component framework's error); fix the bundle and update or reinstall it";
        }
    }

    private volatile java.util.function.Function<Slot, List<Unavailable>> unavailable = s -> List.of();

    /** Where the providers that could not be created come from (the OSGi component looks them up in the service registry). */
    public void unavailable(java.util.function.Function<Slot, List<Unavailable>> source) { this.unavailable = source; }

    private volatile java.util.function.Supplier<List<String>> notStarted = List::of;

    /**
     * Where the bundles with DS components that are installed but not started come from ("name version (id N)"): a
     * policy named in a study may be in one (a shell's {@code install file:...} without {@code start}).
     */
    public void notStarted(java.util.function.Supplier<List<String>> source) { this.notStarted = source; }

    private List<String> notStarted() {
        try {
            List<String> l = notStarted.get();
            return l == null ? List.of() : l;
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    /** The providers of {@code slot} that are registered but could not be created; empty outside a container. */
    public List<Unavailable> unavailable(Slot slot) {
        try {
            List<Unavailable> l = unavailable.apply(slot);
            return l == null ? List.of() : l;
        } catch (RuntimeException e) { // a framework stopping under the look-up: nothing to add
            return List.of();
        }
    }

    /** Adds a provider offered by {@code bundle} ({@code symbolic-name version}). */
    public void add(PolicyProvider provider, String bundle) { add(provider, bundle, 0); }

    /** Adds a provider offered by {@code bundle} with its service {@code ranking} (OSGi {@code service.ranking}). */
    public void add(PolicyProvider provider, String bundle, int ranking) {
        if (provider.slot() == null || provider.name() == null)
            throw new IllegalArgumentException("policy provider " + provider.getClass().getName() + " has no slot or name");
        if (ranking != 0) rankings.put(provider, ranking);
        entries.add(PolicyEntry.of(provider, bundle));
    }

    /** Removes a provider (by identity); unknown providers are ignored. */
    public void remove(PolicyProvider provider) {
        entries.removeIf(e -> e.provider() == provider);
        rankings.remove(provider);
    }

    /** The service ranking of an installed entry (0 unless its provider was registered with one). */
    public int ranking(PolicyEntry e) { return rankings.getOrDefault(e.provider(), 0); }

    /**
     * What a slot that follows the highest-ranked provider runs now (docs/study-files.md, {@code follow}):
     * the installed entry of the slot with the highest service ranking if it ranks strictly above
     * {@code base} ({@code name} or {@code name@version}: the policy the study named, else the slot's
     * default), otherwise {@code base} itself. Ties among the top-ranked go to the first in listing order
     * (name, newest version), so the choice does not depend on installation order. If {@code base} is not
     * installed, the slot's default stands in for it; null if neither is and nothing else is installed.
     */
    public PolicyEntry highestRanked(Slot slot, String base) {
        PolicyEntry best = findOrNull(slot, base);
        if (best == null && base.indexOf('@') >= 0) best = findOrNull(slot, base.substring(0, base.indexOf('@'))); // that version left
        if (best == null) best = findOrNull(slot, Defaults.name(slot));
        for (PolicyEntry e : entries(slot))
            if (best == null || ranking(e) > ranking(best)) best = e;
        return best;
    }

    private PolicyEntry findOrNull(Slot slot, String name) {
        try {
            return find(slot, name);
        } catch (InvalidChoiceException e) {
            return null;
        }
    }

    /** All entries, by slot (enum order), name, newest version first. */
    public List<PolicyEntry> entries() {
        List<PolicyEntry> l = new ArrayList<>(entries);
        l.sort(order);
        return l;
    }

    public List<PolicyEntry> entries(Slot slot) {
        return entries().stream().filter(e -> e.slot() == slot).toList();
    }

    /** Resolves a slot id as written in a study file. */
    public static Slot slot(String id) {
        Slot s = Slot.byId(id);
        if (s == null) {
            List<String> ids = new ArrayList<>();
            for (Slot k : Slot.values()) ids.add(k.id());
            throw new InvalidChoiceException(null, "unknown slot '" + id + "' (slots: " + String.join(", ", ids) + ")");
        }
        return s;
    }

    /**
     * Validates a choice: {@code name} (or {@code name@version}) must be installed for the slot and every
     * parameter must be known, of its type and in range. The newest version wins when none is named.
     */
    public PolicyChoice resolve(Slot slot, String name, Map<String, ?> given) { return pinned(slot, name, choose(find(slot, name), given)); }

    /** As {@link #resolve}; {@code providerCheck} false leaves out the provider's own check (types and ranges only). */
    public PolicyChoice resolve(Slot slot, String name, Map<String, ?> given, boolean providerCheck) {
        PolicyEntry e = find(slot, name);
        return pinned(slot, name, providerCheck ? choose(e, given) : new PolicyChoice(slot, e, typed(e, given), new LinkedHashMap<>(given)));
    }

    /**
     * A choice written {@code name@version} keeps its version in its label where the bare name picks another entry (an
     * older version beside a newer): {@code lru@1.0.0}, the only lru, is labelled {@code lru}, the same simulation as
     * {@code lru}, which compare must match (an artifact evaluator's trial).
     */
    private PolicyChoice pinned(Slot slot, String name, PolicyChoice c) {
        int at = name.indexOf('@');
        return at < 0 || findOrNull(slot, name.substring(0, at)) == c.entry() ? c : c.withVersionShown();
    }

    /** A choice of this installed entry (exactly this provider, whatever else has its name and version). */
    public PolicyChoice choose(PolicyEntry e, Map<String, ?> given) {
        return new PolicyChoice(e.slot(), e, checked(e, typed(e, given)), new LinkedHashMap<>(given));
    }

    /** The parameters checked against their specs (names, types, ranges); an unknown one named with the policy. */
    private static Params typed(PolicyEntry e, Map<String, ?> given) {
        try {
            return validate(e.parameters(), given);
        } catch (InvalidChoiceException ex) { // name the policy: a swept parameter applies to every swept policy
            if (ex.getMessage() == null || !ex.getMessage().startsWith("unknown parameter")) throw ex;
            throw new InvalidChoiceException(ex.parameter(), ex.getMessage().replace("(this takes no parameters)", "(" + e.name() + " takes no parameters)")
                    .replace("(parameters: ", "(" + e.name() + "'s parameters: "));
        }
    }

    /**
     * Each given parameter's own mistake (an unknown name, a value its spec refuses), one per parameter, so that a study
     * with several is told all of them at once; empty if the policy is not installed or every value fits its spec.
     */
    public List<InvalidChoiceException> parameterErrors(Slot slot, String name, Map<String, ?> given) {
        PolicyEntry e;
        try {
            e = find(slot, name);
        } catch (InvalidChoiceException unknown) {
            return List.of();
        }
        List<InvalidChoiceException> out = new ArrayList<>();
        for (Map.Entry<String, ?> g : given.entrySet())
            try {
                typed(e, java.util.Collections.singletonMap(g.getKey(), g.getValue()));
            } catch (InvalidChoiceException bad) {
                out.add(bad);
            }
        return out;
    }

    /** The declared parameters of the policy {@code name} of {@code slot}, or none if it is not installed. */
    public List<ParamSpec> parametersOf(Slot slot, String name) {
        try {
            return find(slot, name).parameters();
        } catch (InvalidChoiceException unknown) {
            return List.of();
        }
    }

    /** The slot's default policy ({@link Defaults}), with its default parameters. */
    public PolicyChoice resolveDefault(Slot slot) {
        return resolve(slot, Defaults.name(slot), Map.of());
    }

    private PolicyEntry find(Slot slot, String name) {
        int at = name.indexOf('@');
        String n = at >= 0 ? name.substring(0, at) : name;
        String v = at >= 0 ? name.substring(at + 1) : null;
        for (PolicyEntry e : entries(slot))
            if (e.name().equals(n) && (v == null || e.version().equals(v))) return e;
        List<String> known = entries(slot).stream().map(e -> v == null ? e.name() : e.id()).distinct().toList();
        // the name is this slot's, the version is not: say that (lru@9.9.9 was "unknown", with "'lru' is a residency policy")
        List<String> versions = entries(slot).stream().filter(e -> e.name().equals(n)).map(PolicyEntry::id).toList();
        if (v != null && !versions.isEmpty() && unavailable(slot).stream().noneMatch(u -> u.name().equals(n) && v.equals(u.version())))
            throw new InvalidChoiceException(null, "no version " + v + " of " + slot.id() + " policy " + n + " is installed (installed: "
                    + String.join(", ", versions) + ")");
        // a policy of another slot under this name: the likely mistake is the slot, say so
        List<String> elsewhere = new ArrayList<>();
        for (Slot other : Slot.values())
            if (other != slot && entries(other).stream().anyMatch(e -> e.name().equals(n))) elsewhere.add(other.id());
        // registered under this name but not created (found by a bundle-author walkthrough: a provider whose activate threw
        // was only "unknown", next to a stack trace of the component framework's that did not name the policy)
        StringBuilder broken = new StringBuilder();
        for (Unavailable u : unavailable(slot))
            if (u.name().equals(n) && (v == null || v.equals(u.version()))) broken.append("; ").append(u.explain());
        // found by a bundle-author walkthrough: `install file:...` in the shell without `start` left only "unknown"
        List<String> idle = notStarted();
        if (!idle.isEmpty())
            broken.append("; installed but not started (its policies are not offered until it is: `start ID` in the shell): ")
                    .append(String.join(", ", idle));
        throw new InvalidChoiceException(null, "unknown " + slot.id() + " policy '" + name + "' "
                + (known.isEmpty() ? "(no " + slot.id() + " policy is installed)" : "(installed: " + String.join(", ", known) + ")")
                + (elsewhere.isEmpty() ? "" : "; '" + n + "' is a " + String.join(" and a ", elsewhere) + " policy") + broken);
    }

    /**
     * Checks each given parameter on its own so that the error names it, then builds the full set with
     * {@link Params#validate}. Shared with the workload registry.
     */
    static Params validate(List<ParamSpec> specs, Map<String, ?> given) {
        for (Map.Entry<String, ?> g : given.entrySet()) {
            ParamSpec spec = specs.stream().filter(s -> s.name().equals(g.getKey())).findFirst().orElse(null);
            if (spec == null) {
                List<String> known = specs.stream().map(ParamSpec::name).toList();
                throw new InvalidChoiceException(g.getKey(), "unknown parameter '" + g.getKey() + "' "
                        + (known.isEmpty() ? "(this takes no parameters)" : "(parameters: " + String.join(", ", known) + ")"));
            }
            try {
                spec.coerce(g.getValue());
            } catch (IllegalArgumentException ex) {
                throw new InvalidChoiceException(g.getKey(), valueMessage(spec.name(), ex.getMessage()));
            }
        }
        try {
            return Params.validate(specs, given);
        } catch (IllegalArgumentException ex) {
            // Only a default value can still fail here: the provider's own bug, but say so clearly.
            throw new InvalidChoiceException(null, "invalid default: " + ex.getMessage());
        }
    }

    private static final java.util.regex.Pattern NAMED = java.util.regex.Pattern.compile("^parameter '([^']+)'");

    /** The provider's own check ({@link PolicyProvider#check}), its message said at the parameter it names. */
    private static Params checked(PolicyEntry e, Params params) {
        try {
            if (e.provider() != null) e.provider().check(params);
        } catch (IllegalArgumentException ex) {
            java.util.regex.Matcher m = NAMED.matcher(String.valueOf(ex.getMessage()));
            String name = m.find() ? m.group(1) : null;
            throw new InvalidChoiceException(name, name == null ? ex.getMessage() : valueMessage(name, ex.getMessage()));
        } catch (RuntimeException | LinkageError bug) { // a plugin's check that crashed: said at the study's line, not as hmsim's internal error
            throw new InvalidChoiceException(null, "the policy's own check(Params) failed (a bug in its bundle " + e.bundle() + "): " + bug);
        }
        return params;
    }

    /** "parameter 'x' = 130 is out of range [0, 100]" becomes "value 130 is out of range [0, 100]". */
    private static String valueMessage(String name, String message) {
        String prefix = "parameter '" + name + "' = ";
        if (message != null && message.startsWith(prefix)) return "value " + message.substring(prefix.length());
        String prefix2 = "parameter '" + name + "': ";
        if (message != null && message.startsWith(prefix2)) return message.substring(prefix2.length());
        return message;
    }
}
