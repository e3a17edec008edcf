package org.hmsim.itests;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Small study files the tests write into their temporary folders, and helpers to read results. */
final class Studies {
    private Studies() {}

    /**
     * A study small enough to run in about a second: the small machine, a short stream kernel, and a
     * sweep of {@code placements} (one run each).
     */
    static Path tiny(Path dir, String name, String... placements) throws IOException {
        return Hmsim.write(dir.resolve(name + ".yaml"),
                "study: " + name,
                "seed: 7",
                "machine: " + Hmsim.smallMachine(),
                "workloads:",
                "  - { name: stream, elements: 8192, ctas: 8, threads: 128 }",
                "policies:",
                "  placement: { sweep: [" + String.join(", ", placements) + "] }");
    }

    /** runs.csv as rows of cells (RFC 4180: labels such as {@code stream(elements=8192,ctas=8)} are quoted). */
    static List<List<String>> table(Path resultsDir) {
        try {
            return parseCsv(Files.readString(resultsDir.resolve("runs.csv"), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<List<String>> parseCsv(String text) {
        try (MappingIterator<List<String>> it = new CsvMapper().enable(CsvParser.Feature.WRAP_AS_ARRAY)
                .readerForListOf(String.class).readValues(text)) {
            return it.readAll();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What a failed command left in its results folder: each run's error.txt (for assertion messages). */
    static String errors(Hmsim.Result r, Path resultsDir) {
        StringBuilder b = new StringBuilder(r.toString());
        Path runs = resultsDir.resolve("runs");
        if (!Files.isDirectory(runs)) return b.toString();
        try (var dirs = Files.list(runs)) {
            for (Path run : dirs.sorted().toList()) {
                Path error = run.resolve("error.txt");
                if (Files.isRegularFile(error)) b.append("--- ").append(error).append('\n').append(Files.readString(error));
            }
        } catch (IOException e) {
            b.append(e);
        }
        return b.toString();
    }

    /** The values of one column of runs.csv, in row order. */
    /** The rows of run 0001's swaps.csv, each a map of column to value. */
    static List<java.util.Map<String, String>> swaps(Path resultsDir) {
        List<List<String>> rows;
        try {
            rows = parseCsv(java.nio.file.Files.readString(resultsDir.resolve("runs/0001/swaps.csv"), java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        List<String> head = rows.get(0);
        List<java.util.Map<String, String>> out = new java.util.ArrayList<>();
        for (List<String> row : rows.subList(1, rows.size())) {
            java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
            for (int c = 0; c < head.size(); c++) m.put(head.get(c), c < row.size() ? row.get(c) : "");
            out.add(m);
        }
        return out;
    }

    static List<String> column(Path resultsDir, String name) {
        List<List<String>> t = table(resultsDir);
        int c = t.get(0).indexOf(name);
        if (c < 0) throw new AssertionError("runs.csv has no column " + name + ": " + t.get(0));
        List<String> out = new ArrayList<>();
        for (List<String> row : t.subList(1, t.size())) out.add(row.get(c));
        return out;
    }
}
