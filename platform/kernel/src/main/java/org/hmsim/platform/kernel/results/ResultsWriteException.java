package org.hmsim.platform.kernel.results;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * A file of a results folder that could not be written or removed (a full disk, a folder made read-only under the
 * study). The folder is at fault, not the run being written: a study stops at the first one instead of failing every
 * run after it (a full-disk trial marked 14 runs FAILED, each pointing at an error.txt that could not be written either).
 * An {@link UncheckedIOException}, so that whoever caught a failed write before still catches it.
 */
public final class ResultsWriteException extends UncheckedIOException {
    private final Path file;

    /** {@code doing}: "cannot write", "cannot remove". The message is one line: what, which file, why. */
    public ResultsWriteException(String doing, Path file, IOException cause) {
        super(doing + " " + file + ": " + ResultsFolder.reason(cause, file), cause);
        this.file = file;
    }

    /** The file that could not be written. */
    public Path file() { return file; }
}
