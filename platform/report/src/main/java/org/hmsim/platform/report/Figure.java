package org.hmsim.platform.report;

import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.XYPlot;

/**
 * A figure ready to draw.
 *
 * @param id file name without extension, unique in a report ({@code fig-03-bar-sim_time_ns})
 * @param data the numbers behind a bar, line or stacked chart (null for a time series, whose CSV is read off its chart)
 * @param categoryColumn what the data's categories are (the {@code by} column, the line's x), for figures/&lt;id&gt;.csv
 * @param notes what the reader should know about it (a baseline not found, seeds averaged)
 */
public record Figure(String id, String title, String caption, JFreeChart chart, int width, int height,
                     FigureData.Computed data, String categoryColumn, List<String> notes) {

    /** figures/&lt;id&gt;.csv: the numbers the figure draws (docs/reports.md), or null for a chart with none to give. */
    String csv() {
        return data != null ? FigureData.csv(data, categoryColumn) : Charts.timeCsv(chart);
    }

    /** The extensions of the figure's files in figures/: svg, png and, where it has numbers to give, csv. */
    List<String> files() {
        return data != null || chart.getPlot() instanceof XYPlot ? List.of("svg", "png", "csv") : List.of("svg", "png");
    }
}
