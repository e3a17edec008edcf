package org.hmsim.platform.kernel.executor;

/**
 * A study could not be launched. A refusal (the results folder's job still has tasks in flight, or holds another
 * version of the study; the scheduler rejected the job's options) is bad input, exit code 2; anything else (a scheduler
 * that cannot be reached) an error, 1.
 */
public final class ExecutorException extends Exception {
    private final boolean refusal;

    public ExecutorException(String message) { this(message, null, false); }

    public ExecutorException(String message, Throwable cause) { this(message, cause, false); }

    private ExecutorException(String message, Throwable cause, boolean refusal) {
        super(message, cause);
        this.refusal = refusal;
    }

    /** The launch is refused because of what the results folder holds: the user's to change. */
    public static ExecutorException refused(String message) { return new ExecutorException(message, null, true); }

    /** The scheduler rejected the job (its options, the cluster's limits): the user's to change, exit 2. */
    public static ExecutorException rejected(String message, Throwable cause) { return new ExecutorException(message, cause, true); }

    public boolean refusal() { return refusal; }
}
