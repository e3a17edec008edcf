package org.hmsim.platform.report;

/**
 * A figure of a study's {@code report:} list that is not well formed. {@link #key()} names the key at
 * fault ({@code normalise_to.placement}), or is empty when the whole entry is; the kernel turns it into
 * {@code file:line:column: report[2].key: message}.
 */
public final class FigureSpecException extends Exception {
    private final String key;

    public FigureSpecException(String key, String message) {
        super(message);
        this.key = key == null ? "" : key;
    }

    public String key() { return key; }
}
