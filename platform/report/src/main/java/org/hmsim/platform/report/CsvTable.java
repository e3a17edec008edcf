package org.hmsim.platform.report;

import java.nio.file.Path;
import java.util.List;

/** An RFC 4180 CSV file as a header and rows of cells (runs.csv quotes labels such as {@code stream(a=1,b=2)}). */
record CsvTable(List<String> header, List<List<String>> rows) {

    /** Reads {@code file}; a file that is not CSV gives a {@link BadResultsException} that names it. */
    static CsvTable read(Path file) {
        try {
            return of(Csv.read(file));
        } catch (java.io.UncheckedIOException e) {
            throw new BadResultsException(file + ": " + e.getMessage());
        }
    }

    /**
     * A runs.csv: hmsim writes every cell of every row (empty ones too), so a row of another width is a damaged
     * file, which would otherwise shift or drop values silently. (Not for timeseries.csv: a statistic sampled
     * from the middle of a run on has no cell in the rows before it.)
     */
    static CsvTable readRuns(Path file) {
        CsvTable t = read(file);
        for (int i = 0; i < t.rows.size(); i++)
            if (t.rows.get(i).size() != t.header.size())
                throw new BadResultsException(file + ": row " + (i + 1) + " (after the header) has " + t.rows.get(i).size() + " cells, the header "
                        + t.header.size() + "; the file is damaged or was cut short (hmsim run STUDY --out DIR --resume rebuilds it from runs/)");
        return t;
    }

    static CsvTable parse(String text) {
        return of(Csv.parse(text));
    }

    private static CsvTable of(List<List<String>> all) {
        if (all.isEmpty()) return new CsvTable(List.of(), List.of());
        return new CsvTable(all.get(0), all.subList(1, all.size()));
    }

    int column(String name) { return header.indexOf(name); }
}
