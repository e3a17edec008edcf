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
        // hmsim ends the file with a line break and starts every table with run and status: a file cut inside its
        // header has neither and no rows to show it (it gave an empty report and exit 0)
        if (!endsWithLineBreak(file))
            throw new BadResultsException(file + ": it does not end with a line break; the file is damaged or was cut short"
                    + " (hmsim run STUDY --out DIR --resume rebuilds it from runs/)");
        CsvTable t = read(file);
        if (!t.header.isEmpty() && (t.header.size() < 2 || !t.header.get(0).equals("run") || !t.header.get(1).equals("status")))
            throw new BadResultsException(file + ": its header does not start with run,status; the file is damaged"
                    + " (hmsim run STUDY --out DIR --resume rebuilds it from runs/)");
        for (int i = 0; i < t.rows.size(); i++)
            if (t.rows.get(i).size() != t.header.size())
                throw new BadResultsException(file + ": row " + (i + 1) + " (after the header) has " + t.rows.get(i).size() + " cells, the header "
                        + t.header.size() + "; the file is damaged or was cut short (hmsim run STUDY --out DIR --resume rebuilds it from runs/)");
        return t;
    }

    private static boolean endsWithLineBreak(Path file) {
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file.toFile(), "r")) {
            if (f.length() == 0) return true; // empty: no runs yet, said elsewhere
            f.seek(f.length() - 1);
            return f.read() == '\n';
        } catch (java.io.IOException e) {
            throw new BadResultsException(file + ": cannot read it: " + e.getMessage());
        }
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
