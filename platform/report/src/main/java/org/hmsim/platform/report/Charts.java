package org.hmsim.platform.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.Paint;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CrosshairState;
import org.jfree.chart.plot.PlotRenderingInfo;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.CategoryItemRendererState;
import org.jfree.chart.renderer.category.StackedBarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.chart.renderer.xy.XYItemRendererState;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.Range;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;

/**
 * JFreeChart charts in one style: white background, light grid, colour-blind-safe colours (Okabe-Ito),
 * fonts large enough to read in a paper column, legend below, a dashed line at 1.0 on normalised charts.
 */
final class Charts {
    private Charts() {}

    /**
     * Okabe-Ito (its yellow darkened: F0E442 vanished on white), then Tol's muted colours, so that up to 20
     * series (an 11-point sweep, say) never share a colour.
     */
    static final Paint[] PALETTE = {
            new Color(0x0072B2), new Color(0xE69F00), new Color(0x009E73), new Color(0xD55E00), new Color(0xCC79A7),
            new Color(0x56B4E9), new Color(0xB8A600), new Color(0x000000), new Color(0x999999), new Color(0x882255),
            new Color(0x332288), new Color(0x44AA99), new Color(0x117733), new Color(0xDDCC77), new Color(0xCC6677),
            new Color(0xAA4499), new Color(0x661100), new Color(0x6699CC), new Color(0x88CCEE), new Color(0x999933)};
    static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 18);
    static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 14);
    static final Font TICK = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    static final Font LEGEND = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
    static final Color GRID = new Color(0xDDDDDD);

    /** Grouped bars: categories along the axis, a colour per series. */
    static JFreeChart bars(String title, String categoryLabel, FigureData.Computed c) {
        DefaultCategoryDataset ds = new DefaultCategoryDataset();
        for (String s : c.grid().series())
            for (String cat : c.grid().categories()) {
                double v = c.grid().get(s, cat);
                ds.addValue(Double.isNaN(v) ? null : v, s, cat);
            }
        NumberAxis values = numberAxis(c.valueLabel());
        // every value 0 (no page faults anywhere): JFreeChart would centre an empty axis on 0, negative half included
        if (allZero(c.grid())) {
            values.setRange(0, 1);
            values.setStandardTickUnits(NumberAxis.createIntegerTickUnits(java.util.Locale.ROOT));
        }
        CategoryPlot plot = new CategoryPlot(ds, new ShortLabelAxis(categoryLabel, c.grid().categories()), values, new WhiskerBarRenderer(c.grid()));
        BarRenderer r = (BarRenderer) plot.getRenderer();
        r.setBarPainter(new StandardBarPainter());
        r.setShadowVisible(false);
        r.setItemMargin(0.03);
        r.setDrawBarOutline(false);
        colour(r, c.grid().series().size());
        if (c.normalised()) plot.addRangeMarker(baselineMarker());
        return nameTheBaseline(finish(title, categoryPlot(plot, c.grid().categories()), c.grid().series().size() > 1 || c.normalised()), c);
    }

    /** Stacked bars (shares of a total when the values are shares). */
    static JFreeChart stacks(String title, String categoryLabel, FigureData.Computed c, boolean shares) {
        DefaultCategoryDataset ds = new DefaultCategoryDataset();
        for (String s : c.grid().series())
            for (String cat : c.grid().categories()) {
                double v = c.grid().get(s, cat);
                ds.addValue(Double.isNaN(v) ? null : v, s, cat);
            }
        StackedBarRenderer r = new StackedBarRenderer();
        r.setBarPainter(new StandardBarPainter());
        r.setShadowVisible(false);
        r.setDrawBarOutline(false);
        colour(r, c.grid().series().size());
        NumberAxis y = numberAxis(c.valueLabel());
        if (shares) y.setRange(0, 1);
        CategoryPlot plot = new CategoryPlot(ds, new ShortLabelAxis(categoryLabel, c.grid().categories()), y, r);
        return finish(title, categoryPlot(plot, c.grid().categories()), true);
    }

    /**
     * Lines over a numeric x; {@code xs} holds the x of each category of the grid. Where values are means
     * over several seeds, each point has a whisker from the least to the greatest seed's value.
     */
    static JFreeChart lines(String title, String xLabel, FigureData.Computed c, double[] xs) {
        XYSeriesCollection plain = new XYSeriesCollection();
        YIntervalSeriesCollection spread = new YIntervalSeriesCollection();
        List<String> cats = c.grid().categories();
        for (String s : c.grid().series()) {
            XYSeries xy = new XYSeries(s, true, false);
            YIntervalSeries yi = new YIntervalSeries(s, true, false);
            for (int i = 0; i < cats.size(); i++) {
                double v = c.grid().get(s, cats.get(i));
                if (Double.isNaN(xs[i])) continue;
                if (Double.isNaN(v)) {
                    // a point the study ran without a value: a NaN item breaks the line there (left out, the line ran
                    // straight across the failed run) and the renderer marks it
                    if (c.grid().declared(s, cats.get(i))) {
                        xy.add(xs[i], Double.NaN);
                        yi.add(xs[i], Double.NaN, Double.NaN, Double.NaN);
                    }
                    continue;
                }
                double[] range = c.grid().range(s, cats.get(i));
                xy.add(xs[i], v);
                yi.add(xs[i], v, range == null ? v : range[0], range == null ? v : range[1]);
            }
            plain.addSeries(xy);
            spread.addSeries(yi);
        }
        NumberAxis x = numberAxis(xLabel);
        x.setAutoRangeIncludesZero(false);
        NumberAxis y = numberAxis(c.valueLabel());
        y.setAutoRangeIncludesZero(!c.normalised());
        boolean whiskers = c.grid().hasRanges();
        XYLineAndShapeRenderer r = new MarkedLines(whiskers);
        for (int i = 0; i < c.grid().series().size(); i++) {
            r.setSeriesPaint(i, PALETTE[i % PALETTE.length]);
            r.setSeriesStroke(i, lineStroke(i, 2.2f));
        }
        XYPlot plot = new XYPlot(whiskers ? spread : plain, x, y, r);
        if (c.normalised()) plot.addRangeMarker(baselineMarker());
        return nameTheBaseline(finish(title, xyPlot(plot), true), c);
    }

    /**
     * The lines of a line figure: points, the lines between them and, where a point is a mean over several seeds, its
     * whisker; a point the study ran without a value breaks the line and is marked ({@link #markMissingPoint}).
     */
    static final class MarkedLines extends XYErrorRenderer {
        MarkedLines(boolean whiskers) {
            setDrawXError(false);
            setDrawYError(whiskers);
            setErrorPaint(Color.DARK_GRAY);
            setErrorStroke(new BasicStroke(1.2f));
            setCapLength(8);
            setDefaultLinesVisible(true);
        }

        @Override
        public void drawItem(Graphics2D g2, XYItemRendererState state, Rectangle2D dataArea, PlotRenderingInfo info, XYPlot plot, ValueAxis domainAxis,
                             ValueAxis rangeAxis, XYDataset dataset, int series, int item, CrosshairState crosshair, int pass) {
            if (!Double.isNaN(dataset.getYValue(series, item)))
                super.drawItem(g2, state, dataArea, info, plot, domainAxis, rangeAxis, dataset, series, item, crosshair, pass);
            else if (pass == getPassCount() - 1) markMissingPoint(g2, dataArea, plot, domainAxis, rangeAxis, dataset.getXValue(series, item), lookupSeriesPaint(series));
        }
    }

    /**
     * A "\u00d7" in the line's colour at the foot of the value axis where a point the study ran has no value (its run
     * failed, or its baseline's), as bars get one: the line's gap alone reads as a point never run.
     */
    static void markMissingPoint(Graphics2D g2, Rectangle2D dataArea, XYPlot plot, ValueAxis domainAxis, ValueAxis rangeAxis, double x, Paint paint) {
        double at = domainAxis.valueToJava2D(x, dataArea, plot.getDomainAxisEdge());
        double base = rangeAxis.valueToJava2D(Math.max(rangeAxis.getLowerBound(), Math.min(0, rangeAxis.getUpperBound())), dataArea, plot.getRangeAxisEdge());
        Font font = LABEL.deriveFont(Font.BOLD);
        g2.setFont(font);
        g2.setPaint(paint);
        float w = (float) g2.getFontMetrics(font).stringWidth(WhiskerBarRenderer.MISSING);
        g2.drawString(WhiskerBarRenderer.MISSING, (float) (at - w / 2), (float) (base - 4));
    }

    /**
     * Bars with a whisker from the least to the greatest value over the seeds where a bar is a mean over
     * several ({@link Grid#range}); the value axis takes the whiskers in.
     */
    static final class WhiskerBarRenderer extends BarRenderer {
        /** Drawn where a bar the study ran has no value. */
        static final String MISSING = "\u00d7";
        private final Grid grid;

        WhiskerBarRenderer(Grid grid) { this.grid = grid; }

        @Override
        public void drawItem(Graphics2D g2, CategoryItemRendererState state, Rectangle2D dataArea, CategoryPlot plot, CategoryAxis domainAxis,
                             ValueAxis rangeAxis, CategoryDataset dataset, int row, int column, int pass) {
            super.drawItem(g2, state, dataArea, plot, domainAxis, rangeAxis, dataset, row, column, pass);
            if (dataset.getValue(row, column) == null) {
                // once, in the last pass (BarRenderer draws shadows and bars in separate passes)
                if (pass == getPassCount() - 1) markMissing(g2, state, dataArea, plot, domainAxis, rangeAxis, row, column, String.valueOf(dataset.getRowKey(row)),
                        String.valueOf(dataset.getColumnKey(column)));
                return;
            }
            double[] range = grid.range(String.valueOf(dataset.getRowKey(row)), String.valueOf(dataset.getColumnKey(column)));
            // a baseline's own bars (every seed exactly 1.0) get no whisker
            if (range == null || range[0] == range[1]) return;
            double mid = calculateBarW0(plot, plot.getOrientation(), dataArea, domainAxis, state, row, column) + state.getBarWidth() / 2;
            double lo = rangeAxis.valueToJava2D(range[0], dataArea, plot.getRangeAxisEdge());
            double hi = rangeAxis.valueToJava2D(range[1], dataArea, plot.getRangeAxisEdge());
            double cap = Math.min(6, state.getBarWidth() / 3);
            g2.setPaint(Color.DARK_GRAY);
            g2.setStroke(new BasicStroke(1.2f));
            g2.draw(new Line2D.Double(mid, lo, mid, hi));
            g2.draw(new Line2D.Double(mid - cap, lo, mid + cap, lo));
            g2.draw(new Line2D.Double(mid - cap, hi, mid + cap, hi));
        }

        /**
         * A "\u00d7" in the series' colour where a bar the study ran has no value (its run failed, or its baseline's):
         * an empty place would read as a value of 0. Places the study never ran stay empty.
         */
        private void markMissing(Graphics2D g2, CategoryItemRendererState state, Rectangle2D dataArea, CategoryPlot plot, CategoryAxis domainAxis,
                                 ValueAxis rangeAxis, int row, int column, String series, String category) {
            if (!grid.declared(series, category)) return;
            double mid = calculateBarW0(plot, plot.getOrientation(), dataArea, domainAxis, state, row, column) + state.getBarWidth() / 2;
            double base = rangeAxis.valueToJava2D(Math.max(rangeAxis.getLowerBound(), 0), dataArea, plot.getRangeAxisEdge());
            Font font = LABEL.deriveFont(Font.BOLD);
            g2.setFont(font);
            g2.setPaint(lookupSeriesPaint(row));
            float w = (float) g2.getFontMetrics(font).stringWidth(MISSING);
            g2.drawString(MISSING, (float) (mid - w / 2), (float) (base - 4));
        }

        @Override
        public Range findRangeBounds(CategoryDataset dataset, boolean includeInterval) {
            Range r = super.findRangeBounds(dataset, includeInterval);
            if (dataset == null) return r;
            for (int row = 0; row < dataset.getRowCount(); row++)
                for (int col = 0; col < dataset.getColumnCount(); col++) {
                    double[] range = grid.range(String.valueOf(dataset.getRowKey(row)), String.valueOf(dataset.getColumnKey(col)));
                    if (range != null) r = Range.expandToInclude(Range.expandToInclude(r, range[0]), range[1]);
                }
            return r;
        }
    }

    /** The share of a time-series chart's time axis a swap's label takes, about: the next label waits that long. */
    static final double LABEL_ROOM = 0.15;

    /** Bandwidth per pool over simulated time and hit rates per epoch, with a marker at each swap (labelled where there is room). */
    static JFreeChart timeSeries(String title, TimeSeries ts) {
        double[] tUs = new double[ts.timeNs().length];
        for (int i = 0; i < tUs.length; i++) tUs[i] = ts.timeNs()[i] / 1000.0;
        XYSeriesCollection bw = new XYSeriesCollection(), hits = new XYSeriesCollection();
        ts.columns().forEach((name, values) -> {
            if (name.startsWith("series.") && name.endsWith(".bytes") && !name.endsWith("wire_bytes"))
                bw.addSeries(series(name.substring(7, name.length() - 6), tUs, TimeSeries.rate(ts.timeNs(), values)));
        });
        ts.columns().forEach((name, values) -> {
            for (String level : new String[] {"l1", "l2"}) {
                if (!name.startsWith("series.") || !name.endsWith("." + level + "_hits")) continue;
                String gpu = name.substring(7, name.length() - (level.length() + 6));
                double[] misses = ts.columns().get("series." + gpu + "." + level + "_misses");
                if (misses != null) hits.addSeries(series(gpu + " " + level.toUpperCase() + " hit rate", tUs, TimeSeries.hitRate(values, misses)));
            }
        });
        NumberAxis time = numberAxis("simulated time (\u00b5s)");
        CombinedDomainXYPlot combined = new CombinedDomainXYPlot(time);
        combined.setGap(14);
        XYPlot top = new XYPlot(bw, null, numberAxis("bandwidth (GB/s)"), stepRenderer(bw.getSeriesCount(), 0));
        NumberAxis rate = numberAxis("hit rate (0..1)");
        rate.setRange(0, 1.05);
        XYPlot bottom = new XYPlot(hits, null, rate, stepRenderer(hits.getSeriesCount(), bw.getSeriesCount()));
        double spanUs = tUs.length == 0 ? 0 : tUs[tUs.length - 1];
        for (XYPlot p : new XYPlot[] {top, bottom}) {
            xyPlot(p);
            double lastLabelUs = Double.NEGATIVE_INFINITY;
            for (TimeSeries.Swap s : ts.swaps()) {
                ValueMarker m = new ValueMarker(s.timeNs() / 1000.0, new Color(0xB00020), new BasicStroke(2f));
                // a label only where the last one leaves room (20 swaps' labels overprinted into one smear, found by a
                // researcher's trial); every swap keeps its line, and the run's swaps.csv lists them all
                boolean room = s.timeNs() / 1000.0 - lastLabelUs >= LABEL_ROOM * spanUs;
                if (p == top && room) {
                    lastLabelUs = s.timeNs() / 1000.0;
                    m.setLabel(s.label());
                    m.setLabelFont(TICK);
                    m.setLabelPaint(new Color(0xB00020));
                    m.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
                    m.setLabelTextAnchor(TextAnchor.TOP_LEFT);
                    m.setLabelBackgroundColor(new Color(255, 255, 255, 0));
                }
                p.addDomainMarker(m);
            }
        }
        combined.add(top, 3);
        combined.add(bottom, 2);
        return finish(title, xyPlot(combined), true);
    }

    /** One line of a {@link #sampled} chart: its legend name, the epochs' end times (ns) and the values. */
    record Line(String name, double[] timeNs, double[] y) { }

    /** Sampled series of several runs over simulated time, one line each (a timeseries figure with metrics). */
    static JFreeChart sampled(String title, List<Line> lines, String yLabel) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (Line l : lines) {
            double[] tUs = new double[l.timeNs().length];
            for (int i = 0; i < tUs.length; i++) tUs[i] = l.timeNs()[i] / 1000.0;
            data.addSeries(series(l.name(), tUs, l.y()));
        }
        XYPlot plot = new XYPlot(data, numberAxis("simulated time (\u00b5s)"), numberAxis(yLabel), stepRenderer(data.getSeriesCount(), 0));
        return finish(title, xyPlot(plot), true);
    }

    /**
     * The points a time-series chart draws, for figures/&lt;id&gt;.csv, in long form: one row per point, {@code panel}
     * (the y axis it is drawn against), {@code series} (its legend name), {@code time_us} and {@code value}; null for a
     * chart that is not over time. Read off the chart itself, so the file holds exactly what the figure shows (rates
     * and hit rates as derived from the cumulative counters of timeseries.csv, epochs without a value left out).
     */
    static String timeCsv(JFreeChart chart) {
        if (!(chart.getPlot() instanceof XYPlot plot)) return null;
        List<XYPlot> panels = plot instanceof CombinedDomainXYPlot c ? c.getSubplots() : List.of(plot);
        Csv out = new Csv().row(List.of("panel", "series", "time_us", "value"));
        for (XYPlot p : panels) {
            String panel = p.getRangeAxis().getLabel();
            for (int d = 0; d < p.getDatasetCount(); d++) {
                XYDataset data = p.getDataset(d);
                if (data == null) continue;
                for (int s = 0; s < data.getSeriesCount(); s++)
                    for (int i = 0; i < data.getItemCount(s); i++)
                        out.row(List.of(panel, String.valueOf(data.getSeriesKey(s)), Csv.number(data.getXValue(s, i)), Csv.number(data.getYValue(s, i))));
            }
        }
        return out.toString();
    }

    private static XYSeries series(String name, double[] x, double[] y) {
        XYSeries s = new XYSeries(name, true, false);
        for (int i = 0; i < x.length; i++) if (!Double.isNaN(y[i]) && !Double.isNaN(x[i])) s.add(x[i], y[i]);
        return s;
    }

    private static XYLineAndShapeRenderer stepRenderer(int n, int colourOffset) {
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, n == 0);
        for (int i = 0; i < n; i++) {
            r.setSeriesPaint(i, PALETTE[(i + colourOffset) % PALETTE.length]);
            r.setSeriesStroke(i, lineStroke(i + colourOffset, 2f));
            r.setSeriesShapesVisible(i, false);
        }
        return r;
    }

    static boolean allZero(Grid g) {
        boolean any = false;
        for (String s : g.series())
            for (String cat : g.categories()) {
                double v = g.get(s, cat);
                if (Double.isNaN(v)) continue;
                if (v != 0) return false;
                any = true;
            }
        return any;
    }

    private static ValueMarker baselineMarker() {
        return new ValueMarker(1.0, Color.DARK_GRAY, new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
    }

    /**
     * Names the baseline of a normalised chart under its title. A label on the dashed line sat at its right end, over
     * the last bars, which are the geomean group: it hid their tops, the very values a paper quotes.
     */
    private static JFreeChart nameTheBaseline(JFreeChart chart, FigureData.Computed c) {
        if (!c.normalised()) return chart;
        TextTitle t = new TextTitle("dashed line: baseline = 1.0 (" + c.baseline() + ")", LEGEND);
        t.setPaint(Color.DARK_GRAY);
        chart.addSubtitle(t);
        return chart;
    }

    private static void colour(BarRenderer r, int n) {
        for (int i = 0; i < n; i++) r.setSeriesPaint(i, barPaint(i));
    }

    /**
     * Series beyond the palette's colours reuse them with a pattern, so no two share a look (a trial's 24-series figure
     * drew pairs alike): lines solid, then dashed, then dotted; bars plain, then striped diagonally, then across.
     */
    static BasicStroke lineStroke(int series, float width) {
        int cycle = series / PALETTE.length % 3;
        if (cycle == 0) return new BasicStroke(width);
        float[] dash = cycle == 1 ? new float[] {9f, 5f} : new float[] {2f, 4f};
        return new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, dash, 0f);
    }

    static Paint barPaint(int series) {
        Color c = (Color) PALETTE[series % PALETTE.length];
        int cycle = series / PALETTE.length % 3;
        if (cycle == 0) return c;
        // stripes as a cyclic gradient, which JFreeSVG writes as an SVG gradient (a TexturePaint came out black there)
        return cycle == 1 ? new java.awt.GradientPaint(0, 0, c, 4, 4, Color.WHITE, true) : new java.awt.GradientPaint(0, 0, c, 0, 3, Color.WHITE, true);
    }

    private static CategoryPlot categoryPlot(CategoryPlot plot, List<String> categories) {
        style(plot.getDomainAxis());
        style(plot.getRangeAxis());
        int longest = categories.stream().mapToInt(String::length).max().orElse(0);
        if (categories.size() > 6 || longest * categories.size() > 90)
            plot.getDomainAxis().setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        plot.getDomainAxis().setMaximumCategoryLabelWidthRatio(2.5f);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(GRID);
        plot.setOutlineVisible(false);
        return plot;
    }

    private static <P extends XYPlot> P xyPlot(P plot) {
        if (plot.getDomainAxis() != null) style(plot.getDomainAxis());
        if (plot.getRangeAxis() != null) style(plot.getRangeAxis());
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(GRID);
        plot.setRangeGridlinePaint(GRID);
        plot.setOutlineVisible(false);
        return plot;
    }

    private static void style(org.jfree.chart.axis.Axis a) {
        a.setLabelFont(LABEL);
        a.setTickLabelFont(TICK);
    }

    private static JFreeChart finish(String title, org.jfree.chart.plot.Plot plot, boolean legend) {
        JFreeChart chart = new JFreeChart(title, TITLE, plot, legend);
        chart.setBackgroundPaint(Color.WHITE);
        chart.setAntiAlias(true);
        chart.setTextAntiAlias(true);
        if (plot instanceof CategoryPlot cp) {
            cp.setOrientation(PlotOrientation.VERTICAL);
            leaveRoomForTheFirstLabel(chart, cp);
        }
        LegendTitle l = chart.getLegend();
        if (l != null) {
            l.setItemFont(LEGEND);
            l.setPosition(RectangleEdge.BOTTOM);
            l.setFrame(BlockBorder.NONE);
        }
        TextTitle t = chart.getTitle();
        if (t != null) t.setPaint(Color.BLACK);
        return chart;
    }

    /**
     * A label at 45 degrees ends at its category, so the first one reaches left of the plot: a long one
     * would be cut at the figure's edge ("…sh(length=131072"). Pads the figure's left side by what sticks out.
     */
    private static void leaveRoomForTheFirstLabel(JFreeChart chart, CategoryPlot plot) {
        if (plot.getDomainAxis().getCategoryLabelPositions() != CategoryLabelPositions.UP_45 || plot.getDataset().getColumnCount() == 0) return;
        String first = String.valueOf(plot.getDataset().getColumnKey(0));
        int chars = plot.getDomainAxis() instanceof ShortLabelAxis a ? a.display(first).length() : Math.min(ShortLabelAxis.MAX_LABEL, first.length());
        double reach = chars * TICK.getSize() * 0.55 * Math.cos(Math.PI / 4); // an average glyph is ~0.55 em wide
        double room = 70 + 1000.0 / (2 * plot.getDataset().getColumnCount()) * 0.8; // value axis + half a category
        if (reach > room) chart.setPadding(new org.jfree.chart.ui.RectangleInsets(0, reach - room, 0, 0));
    }

    /**
     * A category axis that leaves out parameters every category shares ({@link CategoryLabels}) and cuts labels
     * longer than {@link #MAX_LABEL} characters ("stream(elements=524288,ct…"): at 45 degrees a workload label
     * with every parameter would take most of the figure's height. The Runs table and the SVG's data keep the
     * full names.
     */
    static final class ShortLabelAxis extends CategoryAxis {
        static final int MAX_LABEL = 36;
        private final Map<String, String> shown;

        ShortLabelAxis(String label, List<String> categories) {
            super(label);
            this.shown = CategoryLabels.shortened(categories);
        }

        /**
         * The label the axis draws for {@code category}: a long one keeps its start and its end, where labels that share a
         * start differ (a stacked figure's "stream(elements=65536) · warps_per_sm=4" and "=8" were all cut to the same
         * "stream(elements=65536) · warps_per_…", a paper-figures trial).
         */
        String display(String category) {
            String s = shown.getOrDefault(category, category);
            if (s.length() <= MAX_LABEL) return s;
            int head = (MAX_LABEL - 1) / 2, tail = MAX_LABEL - 1 - head;
            return s.substring(0, head) + "\u2026" + s.substring(s.length() - tail);
        }

        @Override
        @SuppressWarnings("rawtypes")
        protected org.jfree.chart.text.TextBlock createLabel(Comparable category, float width, RectangleEdge edge, java.awt.Graphics2D g2) {
            return super.createLabel(display(String.valueOf(category)), width, edge, g2);
        }
    }

    /**
     * A value axis whose tick labels do not depend on the machine's locale ("0.1", never "0,1"): the same results
     * give the same figure bytes everywhere (found by a determinism review).
     */
    private static NumberAxis numberAxis(String label) {
        NumberAxis a = new NumberAxis(label);
        a.setStandardTickUnits(NumberAxis.createStandardTickUnits(java.util.Locale.ROOT));
        return a;
    }
}
