package org.hmsim.platform.kernel.study;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.hmsim.api.engine.Units;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.PolicyChoice;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.SequenceNode;

/** The study's scripted {@code swaps:}, validated in shape and stored (SwapScripts reads them for the run). */
final class SwapSection {
    private static final Pattern SWAP_AT = Pattern.compile("(kernel|epoch)\\s+\\d+|\\d.*");

    private final StudyFile f;
    private final YamlDoc doc;
    final PolicySection policies;
    private final PolicyRegistry registry;

    SwapSection(StudyFile f, PolicySection policies, PolicyRegistry registry) {
        this.f = f;
        this.doc = f.doc;
        this.policies = policies;
        this.registry = registry;
    }

    List<Object> swaps() throws StudyException {
        Node n = f.value("swaps");
        if (n == null) return List.of();
        if (!(n instanceof SequenceNode s)) throw doc.error(n, "swaps", "expected a list: - {at: kernel 2, slot: placement, to: bw-aware}");
        List<Object> out = new ArrayList<>();
        StudyErrors errors = new StudyErrors(); // every swap's mistakes at once (a researcher's two bad swaps came one per validate)
        for (int i = 0; i < s.getValue().size(); i++) {
            Node item = s.getValue().get(i);
            String field = "swaps[" + i + "]";
            if (errors.ok(() -> swap(item, field))) out.add(doc.plain(item, "", null));
        }
        if (!errors.errors.isEmpty()) throw StudyException.of(errors.errors);
        return List.copyOf(out);
    }

    /** Checks one entry of {@code swaps:}. */
    private void swap(Node item, String field) throws StudyException {
        Map<String, NodeTuple> e = doc.entries(item, field);
        for (String k : e.keySet())
            if (!List.of("at", "every", "slot", "to", "between").contains(k))
                throw doc.error(e.get(k).getKeyNode(), field + "." + k, "unknown key '" + k + "' (a swap has at, slot, to; or every, slot, between)");
        // at/to beside every/between: said as such, not as a key of the other form missing (found by a docs audit)
        if ((e.containsKey("at") || e.containsKey("to")) && (e.containsKey("every") || e.containsKey("between"))) {
            String first = e.containsKey("at") ? "at" : "to", second = e.containsKey("every") ? "every" : "between";
            throw doc.error(e.get(second).getKeyNode(), field + "." + second, "a swap has either at and to, or every and between, not both ("
                    + first + " and " + second + " given): {at: kernel 2, slot: placement, to: bw-aware} or {every: 4 epochs, slot: replacement, between: [lru, random]}");
        }
        boolean every = e.containsKey("every");
        List<String> need = every ? List.of("every", "slot", "between") : List.of("at", "slot", "to");
        for (String k : need)
            if (!e.containsKey(k)) throw doc.error(item, field, "missing '" + k + "': {at: kernel 2, slot: placement, to: bw-aware} or {every: 4 epochs, slot: replacement, between: [lru, random]}");
        if (e.containsKey("at") == every || e.containsKey("to") == every || e.containsKey("between") != every)
            throw doc.error(item, field, "a swap has either at and to, or every and between");
        Node slotNode = e.get("slot").getValueNode();
        Slot slot = policies.slot(f.scalarText(slotNode, field + ".slot"), slotNode, field + ".slot");
        if (every) {
            String ev = f.scalarText(e.get("every").getValueNode(), field + ".every");
            if (!ev.trim().matches("[1-9]\\d*\\s+epochs?"))
                throw doc.error(e.get("every").getValueNode(), field + ".every", "'" + ev + "' is not a period: N epochs (N >= 1)");
            count(e.get("every").getValueNode(), field + ".every", ev);
            Node b = e.get("between").getValueNode();
            if (!(b instanceof SequenceNode bs) || bs.getValue().size() < 2)
                throw doc.error(b, field + ".between", "expected a list of at least two policies: [lru, random]");
            for (int j = 0; j < bs.getValue().size(); j++)
                policies.resolve(slot, policies.spec(bs.getValue().get(j), field + ".between[" + j + "]"));
        } else {
            // the swap point and the target are independent: both are checked (a trial saw to's error only once at was fixed)
            StudyErrors both = new StudyErrors();
            both.ok(() -> swapPoint(e.get("at").getValueNode(), field + ".at"));
            both.ok(() -> policies.resolve(slot, policies.spec(e.get("to").getValueNode(), field + ".to")));
            if (!both.errors.isEmpty()) throw StudyException.of(both.errors);
        }
    }

    /** Checks a swap's {@code at}: kernel N, epoch N (N >= 1) or a simulated time with its unit. */
    private void swapPoint(Node atNode, String field) throws StudyException {
        String at = f.scalarText(atNode, field);
        if (!SWAP_AT.matcher(at.trim()).matches())
            throw doc.error(atNode, field, "'" + at + "' is not a swap point: kernel N, epoch N, or a simulated time (20us)");
        if (!at.trim().matches("\\d.*")) count(atNode, field, at);
        if (at.trim().matches("epoch\\s+0+"))
            throw doc.error(atNode, field, "'" + at + "' never comes: epochs count from 1 (epoch 1 ends at the first epoch boundary)");
        if (at.trim().matches("\\d.*")) {
            try {
                Units.picoseconds(at.trim());
            } catch (RuntimeException ex) {
                throw doc.error(atNode, field, "'" + at + "' is not a simulated time (write it with a unit: 20us): " + ex.getMessage());
            }
        }
    }

    /** The count N in "kernel N", "epoch N" or "N epochs" must fit in 64 bits, or the run would fail to read it. */
    void count(Node n, String field, String text) throws StudyException {
        java.util.regex.Matcher m = Pattern.compile("\\d+").matcher(text);
        if (m.find() && new BigInteger(m.group()).bitLength() > 63)
            throw doc.error(n, field, "'" + text.trim() + "': " + m.group() + " is out of range [0, " + Long.MAX_VALUE + "]");
    }

    /** The policies the scripted swaps go to ({@code to}, or each of {@code between}), as resolved; swaps() reported those that are not. */
    /** A policy a swap changes to, and where the study gives it ({@code swaps[1].to}, {@code swaps[0].between}). */
    record Target(PolicyChoice choice, String field) { }

    List<Target> swapTargets(List<Object> swaps) {
        List<Target> out = new ArrayList<>();
        for (int i = 0; i < swaps.size(); i++) {
            if (!(swaps.get(i) instanceof Map<?, ?> sw)) continue;
            Slot slot = Slot.byId(String.valueOf(sw.get("slot")));
            boolean between = sw.get("between") instanceof List<?>;
            List<?> targets = between ? (List<?>) sw.get("between") : java.util.Arrays.asList(sw.get("to"));
            for (Object to : targets) {
                String name = to instanceof Map<?, ?> tm ? String.valueOf(tm.get("name")) : String.valueOf(to);
                Map<String, Object> params = new LinkedHashMap<>();
                if (to instanceof Map<?, ?> tm) tm.forEach((k, v) -> { if (!"name".equals(k)) params.put(String.valueOf(k), v); });
                try {
                    if (slot != null) out.add(new Target(registry.resolve(slot, name, params), "swaps[" + i + "]." + (between ? "between" : "to")));
                } catch (RuntimeException unresolved) {
                    // swaps() said so already
                }
            }
        }
        return out;
    }
}
