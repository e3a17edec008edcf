package org.hmsim.platform.machine;

/**
 * A machine description with a bad field. {@link #path()} is the dotted path of the field in the
 * description tree ({@code pools.1.bandwidth}), so the caller that parsed the file can turn it into a
 * file, line and column.
 */
public class ConfigException extends RuntimeException {
    private final String path;

    public ConfigException(String path, String message) {
        super(path.isEmpty() ? message : path + ": " + message);
        this.path = path;
    }

    public String path() { return path; }

    /** The message without the path prefix. */
    public String reason() {
        String m = getMessage();
        return path.isEmpty() ? m : m.substring(path.length() + 2);
    }
}
