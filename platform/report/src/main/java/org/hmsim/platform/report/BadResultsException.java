package org.hmsim.platform.report;

/**
 * A folder or file that cannot be read as hmsim results (no runs.csv, a damaged or foreign one). The
 * message is one line that names the file; the commands print it and exit 2.
 */
public final class BadResultsException extends IllegalArgumentException {
    public BadResultsException(String message) { super(message); }
}
