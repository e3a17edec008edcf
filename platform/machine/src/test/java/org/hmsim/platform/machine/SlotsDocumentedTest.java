package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.hmsim.api.machine.LinkView;
import org.hmsim.api.policy.CtaSchedulerPolicy;
import org.hmsim.api.policy.InterleavePolicy;
import org.junit.jupiter.api.Test;

/**
 * docs/writing-a-mechanism.md is where a third party learns what a slot calls: every method of each slot's interface (and
 * of its per-cache or per-SM State) is named in that slot's row of the contract table, and the link view's methods in
 * the guide. First for the two slots that decide locality on a multi-GPU machine, then for every slot (a review found
 * about twenty methods of cacheability, coherence, l2-miss-path and compression in no row). A researcher writing a multi-GPU interleave found the row naming
 * {@code channel}/{@code channelAddress} only, "pure functions of the address", with no word of {@code pageHome} (the
 * only hook that decides which GPU memory holds a page) nor of the cta-scheduler's {@code boundGpu}/{@code onKernelLaunch}.
 */
class SlotsDocumentedTest {
    @Test
    void theContractTableNamesEveryMethodOfEverySlot() throws Exception {
        List<String> doc = Files.readAllLines(Presets.examples().getParent().resolve("docs/writing-a-mechanism.md"));
        Set<String> missing = new TreeSet<>();
        java.util.Map<String, List<Class<?>>> slots = new java.util.TreeMap<>();
        slots.put("placement", List.of(org.hmsim.api.policy.PlacementPolicy.class));
        slots.put("migration", List.of(org.hmsim.api.policy.MigrationPolicy.class));
        slots.put("residency", List.of(org.hmsim.api.policy.ResidencyPolicy.class));
        slots.put("throttling", List.of(org.hmsim.api.policy.ThrottlingPolicy.class));
        slots.put("compression", List.of(org.hmsim.api.policy.CompressionPolicy.class));
        slots.put("cacheability", List.of(org.hmsim.api.policy.CacheabilityPolicy.class));
        slots.put("coherence", List.of(org.hmsim.api.policy.CoherencePolicy.class));
        slots.put("l2-miss-path", List.of(org.hmsim.api.policy.L2MissPathPolicy.class));
        slots.put("replacement", List.of(org.hmsim.api.policy.ReplacementPolicy.class, org.hmsim.api.policy.ReplacementPolicy.State.class));
        slots.put("interleave", List.of(InterleavePolicy.class));
        slots.put("cta-scheduler", List.of(CtaSchedulerPolicy.class));
        slots.put("warp-scheduler", List.of(org.hmsim.api.policy.WarpSchedulerPolicy.class, org.hmsim.api.policy.WarpSchedulerPolicy.State.class));
        for (var e : slots.entrySet()) {
            String row = doc.stream().filter(l -> l.startsWith("| " + e.getKey() + " |")).findFirst().orElse("");
            assertFalse(row.isEmpty(), "no row for " + e.getKey());
            for (Class<?> type : e.getValue()) for (Method m : type.getDeclaredMethods())
                if (!Modifier.isStatic(m.getModifiers()) && !m.isSynthetic() && !java.util.regex.Pattern.compile("\\b" + m.getName() + "\\b").matcher(row).find())
                    missing.add(e.getKey() + ": " + m.getName());
        }
        String all = String.join("\n", doc);
        for (Method m : LinkView.class.getDeclaredMethods()) if (!all.contains(m.getName())) missing.add("LinkView: " + m.getName());
        assertEquals(Set.of(), missing, "slot methods not in docs/writing-a-mechanism.md's contract table");
        assertFalse(doc.stream().anyMatch(l -> l.startsWith("| interleave |") && l.endsWith("| pure functions of the address |")),
                "pageHome keeps state (first-touch turns) and is asked once per page, not per access");
    }
}
