package org.hmsim.platform.kernel.executor;

/** An executor could not start a study (scheduler missing or refusing, results folder busy); the message says why. */
public final class ExecutorException extends Exception {
    public ExecutorException(String message) { super(message); }

    public ExecutorException(String message, Throwable cause) { super(message, cause); }
}
