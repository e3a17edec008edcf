package org.hmsim.platform.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** An RFC 4180 CSV file as a header and rows of cells (runs.csv quotes labels such as {@code stream(a=1,b=2)}). */
record CsvTable(List<String> header, List<List<String>> rows) {

    static CsvTable read(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    static CsvTable parse(String text) {
        List<List<String>> all = cells(text);
        if (all.isEmpty()) return new CsvTable(List.of(), List.of());
        return new CsvTable(all.get(0), all.subList(1, all.size()));
    }

    int column(String name) { return header.indexOf(name); }

    private static List<List<String>> cells(String text) {
        List<List<String>> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c != '"') cell.append(c);
                else if (i + 1 < text.length() && text.charAt(i + 1) == '"') cell.append(text.charAt(++i));
                else quoted = false;
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                row.add(cell.toString());
                cell.setLength(0);
            } else if (c == '\n') {
                row.add(cell.toString());
                cell.setLength(0);
                rows.add(row);
                row = new ArrayList<>();
            } else if (c != '\r') {
                cell.append(c);
            }
        }
        if (cell.length() > 0 || !row.isEmpty()) {
            row.add(cell.toString());
            rows.add(row);
        }
        return rows;
    }
}
