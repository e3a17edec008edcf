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

    /**
     * An input that exists but is not a regular file (a FIFO would block the reader forever, a device would never end):
     * refused before it is opened (found by an audit: {@code trace info} on a FIFO hung).
     */
    public static void requireRegularInput(java.nio.file.Path file, String display) {
        if (java.nio.file.Files.exists(file) && !java.nio.file.Files.isRegularFile(file))
            throw inFile(display, "not a regular file (a folder, FIFO or device): traces are read from regular files", null);
    }

    /**
     * An output that exists but is not a regular file: the finished trace is renamed over its target, which would replace
     * a FIFO or device with a regular file (found by an audit: exit 0, the FIFO gone).
     */
    public static void requireRegularOutput(java.nio.file.Path file) {
        if (java.nio.file.Files.exists(file) && !java.nio.file.Files.isRegularFile(file))
            throw inFile(file.toString(), "not a regular file (a folder, FIFO or device): a trace is written to a new file or over a regular one", null);
    }

    /**
     * Readies a trace's output: checks it and its {@code .part} sibling as {@link #requireRegularOutput} does and creates
     * the folders above it, as {@code run --out} creates its folder (a missing one said only "cannot write FILE:
     * FILE.part"). Returns the {@code .part} file the trace is written to before it is renamed over its target.
     */
    public static java.nio.file.Path prepareOutput(java.nio.file.Path file) {
        requireRegularOutput(file);
        java.nio.file.Path tmp = file.resolveSibling(file.getFileName() + ".part");
        requireRegularOutput(tmp); // opening a FIFO left at FILE.part blocked for ever (an audit)
        java.nio.file.Path parent = file.toAbsolutePath().getParent();
        try {
            if (parent != null) java.nio.file.Files.createDirectories(parent);
        } catch (java.io.IOException e) {
            throw inFile(file.toString(), "cannot create its folder " + parent + " (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")", e);
        }
        return tmp;
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
