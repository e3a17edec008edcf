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
 * docs/writing-a-mechanism.md is where a third party learns what a slot calls: for the two slots that decide locality
 * on a multi-GPU machine, every method of the slot's interface is named in that slot's row of the contract table, and
 * the link view's methods in the guide. A researcher writing a multi-GPU interleave found the row naming
 * {@code channel}/{@code channelAddress} only, "pure functions of the address", with no word of {@code pageHome} (the
 * only hook that decides which GPU memory holds a page) nor of the cta-scheduler's {@code boundGpu}/{@code onKernelLaunch}.
 */
class MultiGpuSlotsDocumentedTest {
    @Test
    void theContractTableNamesEveryMethodOfTheMultiGpuSlots() throws Exception {
        List<String> doc = Files.readAllLines(Presets.examples().getParent().resolve("docs/writing-a-mechanism.md"));
        Set<String> missing = new TreeSet<>();
        for (var e : java.util.Map.of("interleave", InterleavePolicy.class, "cta-scheduler", CtaSchedulerPolicy.class).entrySet()) {
            String row = doc.stream().filter(l -> l.startsWith("| " + e.getKey() + " |")).findFirst().orElse("");
            assertFalse(row.isEmpty(), "no row for " + e.getKey());
            for (Method m : e.getValue().getDeclaredMethods())
                if (!Modifier.isStatic(m.getModifiers()) && !m.isSynthetic() && !row.contains("`" + m.getName() + "(") && !row.contains(m.getName() + "(") )
                    missing.add(e.getKey() + ": " + m.getName());
        }
        String all = String.join("\n", doc);
        for (Method m : LinkView.class.getDeclaredMethods()) if (!all.contains(m.getName())) missing.add("LinkView: " + m.getName());
        assertEquals(Set.of(), missing, "slot methods not in docs/writing-a-mechanism.md's contract table");
        assertFalse(doc.stream().anyMatch(l -> l.startsWith("| interleave |") && l.endsWith("| pure functions of the address |")),
                "pageHome keeps state (first-touch turns) and is asked once per page, not per access");
    }
}
