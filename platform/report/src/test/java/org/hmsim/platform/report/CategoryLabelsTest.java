package org.hmsim.platform.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CategoryLabelsTest {
    @Test
    void parametersEveryCategoryShares_areLeftOutOfTheAxis() {
        Map<String, String> s = CategoryLabels.shortened(List.of("block-exclusive(ctas=256,iterations=1)",
                "block-exclusive(ctas=256,iterations=4)", "sharing(ctas=256,iterations=4)"));
        assertEquals(List.of("block-exclusive(iterations=1)", "block-exclusive(iterations=4)", "sharing(iterations=4)"), List.copyOf(s.values()));
    }

    @Test
    void workloadsTheirNamesAloneTellApartLoseEveryParameter() {
        // frc-sweep's axis used to read "fast-walsh(length=131072,min_step=4…" and "stream(elements=524288,ctas=64,thre…"
        Map<String, String> s = CategoryLabels.shortened(List.of("fast-walsh(length=131072,min_step=4096)",
                "stream(elements=524288,ctas=64,threads=128)", "kmeans(points=4096,iterations=1)", "geomean"));
        assertEquals(List.of("fast-walsh", "stream", "kmeans", "geomean"), List.copyOf(s.values()));
    }

    @Test
    void noTwoCategoriesEverShareALabel() {
        Map<String, String> plain = CategoryLabels.shortened(List.of("stream", "stream(elements=1048576)", "gather(n=4)"));
        assertEquals(List.of("stream", "stream(elements=1048576)", "gather(n=4)"), List.copyOf(plain.values()));
        Map<String, String> policies = CategoryLabels.shortened(List.of("bw-aware", "bw-aware(touch_order=host)", "hints(touch_order=host)", "oracle"));
        assertEquals(4, new java.util.HashSet<>(policies.values()).size(), policies.toString());
    }

    /** Long labels that share their start stay apart on the axis: the cut keeps their ends (a stacked figure's four bars read alike). */
    @Test
    void longLabelsKeepTheirEnds() {
        List<String> cats = List.of("stream(elements=65536) \u00b7 warps_per_sm=4", "stream(elements=65536) \u00b7 warps_per_sm=8");
        Charts.ShortLabelAxis axis = new Charts.ShortLabelAxis("x", cats);
        String a = axis.display(cats.get(0)), b = axis.display(cats.get(1));
        assertEquals(Charts.ShortLabelAxis.MAX_LABEL, a.length());
        assertEquals(true, a.endsWith("warps_per_sm=4") && b.endsWith("warps_per_sm=8") && a.startsWith("stream(elements"), a + " / " + b);
    }

    @Test
    void aCategoryLeftWithNoParameterKeepsItsName() {
        Map<String, String> s = CategoryLabels.shortened(List.of("stream(ctas=64)", "bfs(ctas=64)"));
        assertEquals(List.of("stream", "bfs"), List.copyOf(s.values()));
    }

    @Test
    void labelsOfAnotherFormOrALoneCategoryStayWhole() {
        assertEquals("bfs(nodes=1024)", CategoryLabels.shortened(List.of("bfs(nodes=1024)")).get("bfs(nodes=1024)"));
        Map<String, String> mixed = CategoryLabels.shortened(List.of("bfs(nodes=1024,ctas=8)", "bfs(nodes=4096,ctas=8)", "geomean"));
        assertEquals("bfs(nodes=1024)", mixed.get("bfs(nodes=1024,ctas=8)"), "a figure's geomean does not stop the others' shortening");
        assertEquals("geomean", mixed.get("geomean"));
        Map<String, String> differ = CategoryLabels.shortened(List.of("bfs(nodes=1024)", "bfs(nodes=4096)"));
        assertEquals("bfs(nodes=4096)", differ.get("bfs(nodes=4096)"));
    }
}
