package org.hmsim.platform.report;

import java.util.List;
import org.jfree.chart.JFreeChart;

/**
 * A figure ready to draw.
 *
 * @param id file name without extension, unique in a report ({@code fig-03-bar-sim_time_ns})
 * @param data the numbers behind a bar, line or stacked chart (null for a time series)
 * @param categoryColumn what the data's categories are (the {@code by} column, the line's x), for figures/&lt;id&gt;.csv
 * @param notes what the reader should know about it (a baseline not found, seeds averaged)
 */
public record Figure(String id, String title, String caption, JFreeChart chart, int width, int height,
                     FigureData.Computed data, String categoryColumn, List<String> notes) {}
