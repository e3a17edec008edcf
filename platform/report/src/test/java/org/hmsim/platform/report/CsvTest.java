package org.hmsim.platform.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvTest {

    @Test
    void quotesOnlyTheCellsThatNeedIt() {
        String text = new Csv().row(List.of("run", "workload", "ipc")).row(List.of("0001", "stream(a=1,b=2)", "0.8125")).toString();
        assertEquals("run,workload,ipc\n0001,\"stream(a=1,b=2)\",0.8125\n", text);
    }

    @Test
    void whatIsWrittenReadsBackCellForCell() {
        List<String> awkward = List.of("say \"hi\"", "two\nlines", " padded ", "", "a;b=1", "plain");
        String text = new Csv().row(List.of("h1", "h2", "h3", "h4", "h5", "h6")).row(awkward).toString();
        assertEquals(List.of(List.of("h1", "h2", "h3", "h4", "h5", "h6"), awkward), Csv.parse(text));
    }

    @Test
    void absentCellsAreEmptyAndBlankLinesAreSkipped() {
        String text = new Csv().row(Arrays.asList("x", null, "z")).toString() + "\n";
        assertEquals(List.of(List.of("x", "", "z")), Csv.parse(text));
    }

    @Test
    void anUnclosedQuoteIsAnError() {
        assertThrows(UncheckedIOException.class, () -> Csv.parse("a,b\n\"open,c\n"));
    }

    /** The error names the line where the unclosed quote opened, not the end of the file where it was found. */
    @Test
    void anUnclosedQuoteIsReportedWhereItOpened() {
        String text = "run,workload\n0001,\"stream(a=1,b=2)\"\n0002,\"say \"\"hi\"\"\n0003,x\n0004,y\n";
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> Csv.parse(text));
        assertEquals("malformed CSV at line 3: a quote opened there is never closed", e.getMessage());
        assertEquals(0, Csv.unclosedQuoteLine(new Csv().row(List.of("say \"hi\"", "two\nlines")).toString()));
        // a quote inside an unquoted cell is a character (Jackson reads it so): not an opening one
        assertEquals(3, Csv.unclosedQuoteLine("a,b\nposted\"wb,1\n\"open,2\n4,5\n"));
        assertEquals(0, Csv.unclosedQuoteLine("a,b\nposted\"wb,1\n"));
        assertEquals(3, Csv.unclosedQuoteLine("a,b\rposted\"wb,1\r\"open,2\r4,5\r"));
        assertEquals(3, Csv.unclosedQuoteLine("a,b\r\nposted\"wb,1\r\n\"open,2\r\n4,5\r\n"));
    }

    @Test
    void numbersAreShownWithoutATrailingFraction() {
        assertEquals("1200", Csv.number(1200.0));
        assertEquals("0.8125", Csv.number(0.8125));
        // never E notation, which sorts and imports as text (a shell trial's sim_time_ns 1.901626545E7 beside 6356272.188)
        assertEquals("19016265.45", Csv.number(1.901626545E7));
        assertEquals("0.00012", Csv.number(1.2E-4));
        assertEquals(1.901626545E7, Double.parseDouble(Csv.number(1.901626545E7)));
        assertEquals("", Csv.number(null));
    }
}
