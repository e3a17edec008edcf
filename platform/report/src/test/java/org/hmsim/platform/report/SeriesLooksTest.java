package org.hmsim.platform.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Series past the palette's colours get a pattern of their own: a trial's 24-series figure drew pairs of series alike. */
class SeriesLooksTest {
    @Test
    void everySeriesOfThreePalettesLooksDifferent() {
        int n = 3 * Charts.PALETTE.length;
        Set<String> bars = new HashSet<>(), lines = new HashSet<>();
        for (int i = 0; i < n; i++) {
            bars.add(Charts.barPaint(i).toString().replaceAll("@[0-9a-f]+", "") + describe(Charts.barPaint(i)));
            var stroke = Charts.lineStroke(i, 2f);
            lines.add(Charts.PALETTE[i % Charts.PALETTE.length] + java.util.Arrays.toString(stroke.getDashArray()));
        }
        assertEquals(n, bars.size(), "bar looks");
        assertEquals(n, lines.size(), "line looks");
        // and a striped bar survives SVG (JFreeSVG filled a TexturePaint black): a gradient, with the series' colour
        org.jfree.svg.SVGGraphics2D g = new org.jfree.svg.SVGGraphics2D(20, 20);
        g.setPaint(Charts.barPaint(Charts.PALETTE.length));
        g.fillRect(0, 0, 20, 20);
        assertTrue(g.getSVGElement().contains("linearGradient") && g.getSVGElement().contains("rgb(0,114,178)"), g.getSVGElement());
    }

    private static String describe(java.awt.Paint p) {
        if (p instanceof java.awt.GradientPaint gp) return gp.getColor1() + " " + gp.getPoint2();
        return p.toString();
    }
}
