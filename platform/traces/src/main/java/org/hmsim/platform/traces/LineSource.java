package org.hmsim.platform.traces;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A text file read line by line (streaming) with its current 1-based line number, and helpers that turn
 * problems into {@link TraceException}s naming the file and line. Used by the text trace reader and the
 * importers. ISO-8859-1 decoding: every byte is a character, so no input fails to decode.
 */
public final class LineSource implements AutoCloseable {
    private final BufferedReader in;
    private final String display;
    private long number;
    private String line;

    public LineSource(Path file, String display) {
        this.display = display;
        // sequential: a pipe is a fine source (a lackey import from a FIFO); only a folder is refused
        if (Files.isDirectory(file)) throw TraceException.inFile(display, "a folder, not a trace file", null);
        try {
            this.in = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw TraceException.inFile(display, "cannot open: " + e.getMessage(), e);
        }
    }

    /** The next line, or null at the end of the file. */
    public String next() {
        try {
            line = in.readLine();
        } catch (IOException e) {
            throw TraceException.atLine(display, number + 1, "cannot read: " + e.getMessage());
        }
        if (line != null) number++;
        return line;
    }

    public long number() { return number; }

    public String display() { return display; }

    /** An error at the current line. */
    public TraceException fail(String message) { return TraceException.atLine(display, number, message); }

    /** Parses a hexadecimal number with or without 0x (unsigned 64-bit). */
    public long hex(String s, String what) {
        String t = s.startsWith("0x") || s.startsWith("0X") ? s.substring(2) : s;
        try {
            if (t.isEmpty() || t.length() > 16) throw new NumberFormatException();
            return Long.parseUnsignedLong(t, 16);
        } catch (NumberFormatException e) {
            throw fail("bad " + what + " '" + s + "' (expected a hexadecimal number)");
        }
    }

    /** Parses a warp's 32-lane mask in hexadecimal: more than 32 bits is an error, not silently cut (a trace review). */
    public int mask(String s, String what) {
        long m = hex(s, what);
        if ((m >>> 32) != 0) throw fail("bad " + what + " '" + s + "' (a warp has 32 lanes: at most 8 hexadecimal digits of lanes)");
        return (int) m;
    }

    /** Parses a decimal integer (may be negative). */
    public long dec(String s, String what) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw fail("bad " + what + " '" + s + "' (expected a decimal integer)");
        }
    }

    public int decInt(String s, String what, int min, int max) {
        long v = dec(s, what);
        if (v < min || v > max) throw fail(what + " " + v + " out of range [" + min + ", " + max + "]");
        return (int) v;
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
