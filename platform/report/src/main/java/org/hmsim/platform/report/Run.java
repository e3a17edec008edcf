package org.hmsim.platform.report;

import java.util.Map;

/**
 * One row of runs.csv.
 *
 * @param config the configuration columns (workload, machine, slot.*, swept parameters, seed) in file order
 * @param metrics the metric columns that hold a number, in file order (a failed run has none)
 */
public record Run(String id, boolean ok, Map<String, String> config, Map<String, Double> metrics) {

    /** A metric's value, or NaN when the run has none. */
    public double metric(String name) {
        Double v = metrics.get(name);
        return v == null ? Double.NaN : v;
    }

    /** The value of a configuration column ("" when absent). */
    public String value(String column) { return config.getOrDefault(column, ""); }
}
