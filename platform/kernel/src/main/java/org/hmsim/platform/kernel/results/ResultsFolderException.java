package org.hmsim.platform.kernel.results;

/**
 * A results folder hmsim cannot use as it is — an unusable {@code --out} path, files hmsim did not write
 * where it would write, a damaged results file — or could not change as planned. The message is one line
 * that names the path; the commands print it and exit 2, the way they treat a bad study.
 */
public final class ResultsFolderException extends RuntimeException {
    /** The file found damaged, if one is (null: the folder as a whole). */
    private final java.nio.file.Path file;

    public ResultsFolderException(String message) { this(message, null); }

    public ResultsFolderException(String message, java.nio.file.Path file) {
        super(message);
        this.file = file;
    }

    /** The damaged file this is about, or null. */
    public java.nio.file.Path file() { return file; }

    /** {@code file}, whose contents hmsim cannot read back: a file that is damaged, not hmsim's, or cut short. */
    public static ResultsFolderException damaged(java.nio.file.Path file, String why) {
        return new ResultsFolderException(file + " is damaged (" + why + ")", file);
    }
}
