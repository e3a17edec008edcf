package org.hmsim.platform.traces;

/**
 * A problem in a trace, located: {@code file:line: message} for text inputs (hmsim text traces and the
 * importers' formats), {@code file: byte N: message} for binary traces. Unchecked, so sinks and readers
 * can pass it through streaming loops.
 */
public final class TraceException extends RuntimeException {
    private final String file;
    private final long line;
    private final long byteOffset;

    private TraceException(String file, long line, long byteOffset, String message, Throwable cause) {
        super(format(file, line, byteOffset, message), cause);
        this.file = file;
        this.line = line;
        this.byteOffset = byteOffset;
    }

    /** An error at a 1-based line of a text file. */
    public static TraceException atLine(String file, long line, String message) {
        return new TraceException(file, line, -1, message, null);
    }

    /** An error at a byte offset of a binary file. */
    public static TraceException atByte(String file, long offset, String message) {
        return new TraceException(file, -1, offset, message, null);
    }

    public static TraceException atByte(String file, long offset, String message, Throwable cause) {
        return new TraceException(file, -1, offset, message, cause);
    }

    /** An error about a whole file (cannot open, missing part). */
    public static TraceException inFile(String file, String message, Throwable cause) {
        return new TraceException(file, -1, -1, message, cause);
    }

    public String file() { return file; }

    /** 1-based line, or -1. */
    public long line() { return line; }

    /** Byte offset in a binary file, or -1. */
    public long byteOffset() { return byteOffset; }

    private static String format(String file, long line, long off, String message) {
        if (line >= 0) return file + ":" + line + ": " + message;
        if (off >= 0) return file + ": byte " + off + ": " + message;
        return file + ": " + message;
    }
}
