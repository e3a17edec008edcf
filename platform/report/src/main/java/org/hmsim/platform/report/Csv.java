package org.hmsim.platform.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The results' CSV files (runs.csv, series.csv, swaps.csv), RFC 4180 through Jackson's CSV format: rows
 * collected with {@link #row}, written with {@code \n} line ends and quotes only where a cell needs them
 * (labels such as {@code stream(a=1,b=2)}); {@link #read} gives any such file back as rows of cells.
 */
public final class Csv {
    private static final CsvMapper MAPPER = CsvMapper.builder()
            .enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING)
            .enable(CsvParser.Feature.WRAP_AS_ARRAY)
            .build();
    private static final CsvSchema ROWS = CsvSchema.emptySchema().withLineSeparator("\n");

    private final List<List<String>> rows = new ArrayList<>();

    public Csv row(List<String> cells) {
        List<String> copy = new ArrayList<>(cells.size());
        for (String c : cells) copy.add(c == null ? "" : c);
        rows.add(copy);
        return this;
    }

    @Override
    public String toString() {
        try {
            return MAPPER.writer(ROWS).writeValueAsString(rows);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write CSV: " + e.getOriginalMessage(), e);
        }
    }

    /** A CSV file's rows of cells, header included; blank lines are skipped. */
    public static List<List<String>> read(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    public static List<List<String>> parse(String text) {
        List<List<String>> out = new ArrayList<>();
        try (MappingIterator<List<String>> it = MAPPER.readerForListOf(String.class).with(ROWS).readValues(text)) {
            while (it.hasNextValue()) {
                List<String> row = it.nextValue();
                if (!(row.size() == 1 && row.get(0).isEmpty())) out.add(row);
            }
        } catch (JsonProcessingException e) {
            // Jackson finds an unclosed quote at the end of the text; the line to fix is where it opened
            int open = String.valueOf(e.getOriginalMessage()).contains("closing quote") ? unclosedQuoteLine(text) : 0;
            if (open > 0) throw new UncheckedIOException("malformed CSV at line " + open + ": a quote opened there is never closed", e);
            // Jackson's own message runs over several lines; callers put this one after a file name.
            String at = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr();
            throw new UncheckedIOException("malformed CSV" + at + ": " + e.getOriginalMessage().lines().findFirst().orElse(""), e);
        } catch (IOException e) {
            throw new UncheckedIOException("malformed CSV: " + e.getMessage(), e);
        }
        return out;
    }

    /**
     * The line (from 1) of the quote that opens a cell never closed, or 0 if every quoted cell closes. As RFC 4180
     * (and Jackson) read it: only a quote at a cell's start opens a quoted cell (one inside an unquoted cell is a
     * character), and inside one a doubled quote is a quote.
     */
    static int unclosedQuoteLine(String text) {
        boolean cellStart = true, quoted = false;
        int line = 1, openedAt = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            // a line ends at \n, \r\n or a lone \r, as Jackson counts lines
            if (c == '\n' || c == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n')) line++;
            if (quoted) {
                if (c != '"') continue;
                if (i + 1 < text.length() && text.charAt(i + 1) == '"') i++;
                else quoted = false;
            } else if (c == '"' && cellStart) {
                quoted = true;
                openedAt = line;
            }
            cellStart = c == ',' || c == '\n' || c == '\r';
        }
        return quoted ? openedAt : 0;
    }

    /**
     * A number as results show it, independent of locale and thread count: whole values without a
     * fraction ({@code 1200}), others in Java's shortest round-trip form ({@code 0.8125}, {@code 1.5E-7}).
     */
    public static String number(Object v) {
        if (v == null) return "";
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) return Double.toString(d);
            if (d == Math.rint(d) && Math.abs(d) < 1e15) return Long.toString((long) d);
            // the shortest digits that read back as d, never in E notation: 1.901626545E7 sorted wrongly with sort -n and
            // spreadsheets' text imports (a shell trial's runs.csv mixed both forms in one column)
            return java.math.BigDecimal.valueOf(d).toPlainString();
        }
        return v.toString();
    }
}
