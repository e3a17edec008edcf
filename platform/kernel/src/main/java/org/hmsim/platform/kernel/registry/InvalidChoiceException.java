package org.hmsim.platform.kernel.registry;

/**
 * A policy or workload a study names that cannot be used: unknown slot, unknown name, or a parameter of
 * the wrong type or out of range. {@link #parameter()} says which parameter was at fault (null when the
 * slot or name itself is), so the study parser can point at the right line of the study file.
 */
public final class InvalidChoiceException extends IllegalArgumentException {
    private final String parameter;

    public InvalidChoiceException(String parameter, String message) {
        super(message);
        this.parameter = parameter;
    }

    /** The parameter at fault, or null if the slot or name is. */
    public String parameter() { return parameter; }
}
