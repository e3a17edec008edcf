package org.hmsim.platform.machine;

import java.util.List;

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

    /** This error, or every error of a description with several bad sections. */
    public List<ConfigException> all() { return List.of(this); }

    /** Throws the one error, or all of them as one exception; nothing if the list is empty. */
    static void throwIfAny(List<ConfigException> errors) {
        if (errors.size() == 1) throw errors.get(0);
        if (errors.size() > 1) throw new Several(errors);
    }

    /** Several independent errors: {@link #path()} and the message are the first's, {@link #all()} lists them. */
    static final class Several extends ConfigException {
        private final List<ConfigException> errors;

        Several(List<ConfigException> errors) {
            super(errors.get(0).path(), errors.get(0).reason() + " (and " + (errors.size() - 1) + " more: "
                    + String.join("; ", errors.subList(1, errors.size()).stream().map(Throwable::getMessage).toList()) + ")");
            this.errors = List.copyOf(errors);
        }

        @Override
        public List<ConfigException> all() { return errors; }
    }

    /** The message without the path prefix. */
    public String reason() {
        String m = getMessage();
        return path.isEmpty() ? m : m.substring(path.length() + 2);
    }
}
