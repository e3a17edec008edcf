package org.hmsim.etc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.Simulation;
import org.junit.jupiter.api.Test;

/**
 * runs.csv's {@code etc.class} is the class ETC's policies acted on: from the classifiers of the slots in {@code mode: auto}
 * ({@code policy.<slot>.classifier.acting}), residency's first, then throttling's, then compression's; absent where no slot
 * is in auto; with the acting classifiers disagreeing, {@code etc.class_<slot>} gives each (docs/metrics.md). Each slot's
 * stats report its own technique's choice, and only in auto. It used to be the residency slot's class whatever its mode:
 * missing with residency at its default while ETC throttled and compressed, filled in (3 for ATAX) with every mode off, and
 * every slot reported all three choices, 1 although nothing ran (a tester's report).
 */
class EtcClassColumnTest {
    private static Sim modes(String residency, String throttling, String compression, Object... residencyParams) {
        Object[] pe = new Object[2 + residencyParams.length];
        pe[0] = "mode";
        pe[1] = residency;
        System.arraycopy(residencyParams, 0, pe, 2, residencyParams.length);
        return new Sim().with(new ProactiveEvictionProvider(), pe).with(new MemoryAwareThrottlingProvider(), "mode", throttling)
                .with(new CapacityCompressionProvider(), "mode", compression);
    }

    private static Map<String, Double> etcColumns(RunResult r) {
        Map<String, Double> m = new java.util.TreeMap<>();
        r.metrics().forEach((k, v) -> { if (k.startsWith("etc.class")) m.put(k, v); });
        return m;
    }

    @Test
    void etcClassIsTheClassTheActingPoliciesFollowed() {
        RunResult[] r = Simulation.concurrently(
                () -> modes("off", "off", "off").run("etc-atax", 0.5),
                () -> new Sim().with(new MemoryAwareThrottlingProvider()).with(new CapacityCompressionProvider()).run("etc-atax", 0.5),
                () -> Sim.etc().run("etc-atax", 0.5),
                () -> modes("auto", "auto", "auto", "classify", "per_kernel").run("etc-atax", 0.75),
                () -> modes("on", "off", "on").run("etc-atax", 0.5));
        for (RunResult x : r) System.out.println(etcColumns(x) + " " + x.stats().entrySet().stream().filter(e -> e.getKey().contains("classifier.")).toList());

        // every mode off: nothing acted on a class; the classifiers still say what they found, and choose nothing
        assertEquals(Map.of(), etcColumns(r[0]), "all off: no etc.class");
        assertEquals(3, Sim.stat(r[0], "policy.residency.classifier.class"), "what the residency slot's classifier found");
        for (String slot : new String[] {"residency", "throttling", "compression"}) {
            assertEquals(0, Sim.stat(r[0], "policy." + slot + ".classifier.acting"), slot);
            for (String c : new String[] {"pe", "mt", "cc"}) assertNull(r[0].stats().get("policy." + slot + ".classifier.choice_" + c), slot + " choice_" + c);
        }
        // residency at its default (not ETC), throttling and compression in auto: the throttling slot's class
        assertEquals(Map.of("etc.class", 3.0), etcColumns(r[1]), "MT+CC under the classifier, residency not ETC's");
        assertEquals(1, Sim.stat(r[1], "policy.throttling.classifier.choice_mt"));
        assertEquals(1, Sim.stat(r[1], "policy.compression.classifier.choice_cc"));
        // ETC proper: one class, no per-slot columns; each slot its own choice only
        assertEquals(Map.of("etc.class", 3.0), etcColumns(r[2]), "ETC proper");
        assertEquals(0, Sim.stat(r[2], "policy.residency.classifier.choice_pe"));
        assertNull(r[2].stats().get("policy.residency.classifier.choice_mt"), "the residency slot does not speak for MT");
        // the residency slot sampling per kernel, the others once (etc-classify's run 0002): they disagree, each is given
        assertEquals(Map.of("etc.class", 2.0, "etc.class_residency", 2.0, "etc.class_throttling", 3.0, "etc.class_compression", 3.0), etcColumns(r[3]),
                "residency per kernel, the others once");
        // techniques on or off whatever the class: no class acted on
        assertEquals(Map.of(), etcColumns(r[4]), "modes on and off");
        assertFalse(r[4].stats().containsKey("policy.residency.classifier.choice_pe"), "PE on: no choice");
    }
}
