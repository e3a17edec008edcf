package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.hmsim.platform.kernel.study.Study;
import org.hmsim.platform.kernel.study.StudyException;
import org.hmsim.platform.kernel.study.StudyParser;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A slot that follows the highest-ranked provider (issue 4): the ranking rule and the study syntax. */
class FollowRankingTest {
    @TempDir
    Path dir;

    @BeforeEach
    void machine() throws Exception { Fakes.write(dir, "machines/small.yaml", Fakes.MACHINE); }

    @Test
    void aStrictlyHigherRankedProviderWinsTiesKeepTheStudysChoiceAndRemovalFallsBack() {
        PolicyRegistry r = Fakes.policies();
        assertEquals("lru", r.highestRanked(Slot.REPLACEMENT, "lru").name(), "all rank 0: the study's choice");
        assertEquals("random", r.highestRanked(Slot.REPLACEMENT, "random").name());
        Fakes.Provider srrip = new Fakes.Provider(Slot.REPLACEMENT, "srrip", "1.0.0", List.of(), false);
        r.add(srrip, "org.example.srrip 1.0.0", 10);
        assertEquals("srrip", r.highestRanked(Slot.REPLACEMENT, "lru").name());
        assertEquals(10, r.ranking(r.highestRanked(Slot.REPLACEMENT, "lru")));
        Fakes.Provider better = new Fakes.Provider(Slot.REPLACEMENT, "ship", "1.0.0", List.of(), false);
        r.add(better, "org.example.ship 1.0.0", 20);
        assertEquals("ship", r.highestRanked(Slot.REPLACEMENT, "lru").name());
        Fakes.Provider same = new Fakes.Provider(Slot.REPLACEMENT, "arc", "1.0.0", List.of(), false);
        r.add(same, "org.example.arc 1.0.0", 20);
        assertEquals("arc", r.highestRanked(Slot.REPLACEMENT, "lru").name(), "equal top ranks: the first by name, whatever the install order");
        r.remove(same);
        r.remove(better);
        assertEquals("srrip", r.highestRanked(Slot.REPLACEMENT, "lru").name());
        r.remove(srrip);
        assertEquals("lru", r.highestRanked(Slot.REPLACEMENT, "lru").name(), "removal: back to the study's choice");
        assertEquals("lru", r.highestRanked(Slot.REPLACEMENT, "gone").name(), "a base that is not installed: the slot default");
        Fakes.Provider low = new Fakes.Provider(Slot.REPLACEMENT, "fifo", "1.0.0", List.of(), false);
        r.add(low, "org.example.fifo 1.0.0", -5);
        assertEquals("lru", r.highestRanked(Slot.REPLACEMENT, "lru").name(), "a lower ranking never takes over");
    }

    @Test
    void studySyntax() throws Exception {
        StudyParser parser = new StudyParser(Fakes.policies(), Fakes.workloads());
        Study s = parser.parse(Fakes.write(dir, "studies/f.yaml", """
                study: f
                machine: ../machines/small.yaml
                workloads: [stream]
                policies:
                  replacement: {follow: highest-ranked}
                  placement: {follow: highest-ranked, name: ratio, fast_percent: 70}
                """));
        assertEquals(Set.of(Slot.REPLACEMENT, Slot.PLACEMENT), s.follow());
        assertEquals("lru", s.runs().get(0).policies().get(Slot.REPLACEMENT).entry().name(), "the slot default to fall back to");
        assertEquals("ratio(fast_percent=70)", s.runs().get(0).policies().get(Slot.PLACEMENT).label());
        assertEquals(Map.of("fast_percent", 70), Map.copyOf(s.runs().get(0).policies().get(Slot.PLACEMENT).given()));

        Path bad = Fakes.write(dir, "studies/b.yaml", """
                study: b
                machine: ../machines/small.yaml
                workloads: [stream]
                policies:
                  replacement: {follow: newest}
                """);
        StudyException e = assertThrows(StudyException.class, () -> parser.parse(bad));
        assertEquals(5, e.line());
        assertEquals("policies.replacement.follow", e.field());
        assertTrue(e.reason().contains("highest-ranked"), e.reason());

        Path noName = Fakes.write(dir, "studies/n.yaml", """
                study: n
                machine: ../machines/small.yaml
                workloads: [stream]
                policies:
                  placement: {follow: highest-ranked, fast_percent: 70}
                """);
        StudyException n = assertThrows(StudyException.class, () -> parser.parse(noName));
        assertTrue(n.reason().contains("need the policy's name"), n.reason());
    }
}
