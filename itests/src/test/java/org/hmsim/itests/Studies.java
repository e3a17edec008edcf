package org.hmsim.itests;

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

    /** runs.csv as rows of cells (no quoting needed for what these studies produce). */
    static List<List<String>> table(Path resultsDir) {
        try {
            List<List<String>> rows = new ArrayList<>();
            for (String line : Files.readAllLines(resultsDir.resolve("runs.csv"), StandardCharsets.UTF_8)) {
                if (!line.isEmpty()) rows.add(List.of(line.split(",", -1)));
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The values of one column of runs.csv, in row order. */
    static List<String> column(Path resultsDir, String name) {
        List<List<String>> t = table(resultsDir);
        int c = t.get(0).indexOf(name);
        if (c < 0) throw new AssertionError("runs.csv has no column " + name + ": " + t.get(0));
        List<String> out = new ArrayList<>();
        for (List<String> row : t.subList(1, t.size())) out.add(row.get(c));
        return out;
    }
}
