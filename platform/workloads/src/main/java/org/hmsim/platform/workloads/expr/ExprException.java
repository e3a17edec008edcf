package org.hmsim.platform.workloads.expr;

/** A syntax or name error in an expression, with the 0-based character position where it was found. */
public final class ExprException extends RuntimeException {
    private final int position;

    public ExprException(String message, int position) {
        super(message);
        this.position = position;
    }

    public int position() { return position; }
}
