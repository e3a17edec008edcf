package org.hmsim.platform.traces;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A text file read line by line (streaming) with its current 1-based line number, and helpers that turn
 * problems into {@link TraceException}s naming the file and line. Used by the text trace reader and the
 * importers. ISO-8859-1 decoding: every byte is a character, so no input fails to decode.
 *
 * <p>Lines end as {@link java.io.BufferedReader#readLine} has them end (LF, CR LF or CR), but the reader also tells
 * whether the last line had its line end ({@link #terminated}): a file cut short usually ends inside a line, which
 * {@code readLine} hides (a bad-input review).
 */
public final class LineSource implements AutoCloseable {
    private final InputStream in;
    private final String display;
    private final byte[] buf = new byte[1 << 16];
    private int pos, limit;
    private byte[] partial = new byte[256]; // a line that runs past the end of buf
    private int partialLength;
    private boolean skipLf; // the previous line ended with CR: an LF right after it belongs to that line end
    private boolean terminated = true;
    private long number;

    public LineSource(Path file, String display) {
        this.display = display;
        // sequential: a pipe is a fine source (a lackey import from a FIFO); only a folder is refused
        if (Files.isDirectory(file)) throw TraceException.inFile(display, "a folder, not a trace file", null);
        try {
            this.in = Files.newInputStream(file);
        } catch (IOException e) {
            throw TraceException.inFile(display, "cannot open: " + e.getMessage(), e);
        }
    }

    /** The next line, or null at the end of the file. */
    public String next() {
        String line;
        try {
            line = readLine();
        } catch (IOException e) {
            throw TraceException.atLine(display, number + 1, "cannot read: " + e.getMessage());
        }
        if (line != null) number++;
        return line;
    }

    /**
     * Whether the current line (the last one {@link #next} returned, still after it returned null) ended with a line end.
     * False only for a last line without one: cut short, or written by hand without a final newline.
     */
    public boolean terminated() { return terminated; }

    private String readLine() throws IOException {
        partialLength = 0;
        while (true) {
            if (pos == limit && !fill()) {
                if (partialLength == 0) return null;
                terminated = false;
                return new String(partial, 0, partialLength, StandardCharsets.ISO_8859_1);
            }
            if (skipLf) {
                skipLf = false;
                if (buf[pos] == '\n') {
                    pos++;
                    continue;
                }
            }
            int end = pos;
            while (end < limit && buf[end] != '\n' && buf[end] != '\r') end++;
            if (end == limit) {
                keep(pos, end);
                pos = end;
                continue;
            }
            String line = partialLength == 0 ? new String(buf, pos, end - pos, StandardCharsets.ISO_8859_1) : joined(pos, end);
            skipLf = buf[end] == '\r';
            pos = end + 1;
            terminated = true;
            return line;
        }
    }

    private boolean fill() throws IOException {
        pos = 0;
        limit = Math.max(0, in.read(buf));
        return limit > 0;
    }

    private void keep(int from, int to) {
        if (partialLength + (to - from) > partial.length) partial = Arrays.copyOf(partial, Math.max(2 * partial.length, partialLength + to - from));
        System.arraycopy(buf, from, partial, partialLength, to - from);
        partialLength += to - from;
    }

    private String joined(int from, int to) {
        keep(from, to);
        return new String(partial, 0, partialLength, StandardCharsets.ISO_8859_1);
    }

    public long number() { return number; }

    public String display() { return display; }

    /**
     * An error at the current line. On a last line without line end the error is most likely a cut (the tools that write
     * these formats end every line), so it says so.
     */
    public TraceException fail(String message) {
        return TraceException.atLine(display, number, terminated ? message : "cut short (the last line has no newline): " + message);
    }

    /** A last line without line end that parses but is not whole (a field its writer always completes is not). */
    public TraceException cutShort(String why) { return TraceException.atLine(display, number, "cut short: the last line has no newline and " + why); }

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
