package org.hmsim.platform.machine;

/**
 * A run ended at a safe point without a result because it was asked to ({@link SwapControl#abort()}: the container
 * stopping under it). Not a failure of the run: it leaves no error and is done again by {@code --resume}.
 */
public final class RunAbortedException extends RuntimeException {
    public RunAbortedException(String message) { super(message); }
}
