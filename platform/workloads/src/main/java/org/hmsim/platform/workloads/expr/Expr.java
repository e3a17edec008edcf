package org.hmsim.platform.workloads.expr;

/**
 * A compiled integer expression: a tree evaluated against an array of variable values (slots fixed at
 * compile time), so evaluation allocates nothing. Arithmetic is on 64-bit longs with C semantics
 * (division truncates toward zero, % has the sign of the dividend); comparisons and logic give 1 or 0.
 * A result that does not fit in 64 bits is an {@link ArithmeticException} ({@link #OVERFLOW}), never a
 * wrapped value: {@code n*4} with a huge n would otherwise size an allocation at a few bytes.
 */
public abstract class Expr {
    Expr() {}

    /** The message of every overflow, so that callers can say which expression and values caused it. */
    public static final String OVERFLOW = "integer overflow: the result does not fit in 64 bits";

    public abstract long eval(long[] vars);

    public static Expr constant(long v) { return new Const(v); }

    public static Expr variable(int slot) { return new Var(slot); }

    public static Expr sum(Expr a, Expr b) { return fold(Op.ADD, a, b); }

    public static Expr product(Expr a, Expr b) { return fold(Op.MUL, a, b); }

    static Expr fold(Op op, Expr a, Expr b) {
        if (a.isConstant() && b.isConstant()) return new Const(op.apply(a.eval(null), b.eval(null)));
        // the common index operators get their own node classes: no operator dispatch per evaluation
        return switch (op) {
            case ADD -> new Add(a, b);
            case SUB -> new Sub(a, b);
            case MUL -> new Mul(a, b);
            default -> new Binary(op, a, b);
        };
    }

    static final class Add extends Expr {
        final Expr a, b;

        Add(Expr a, Expr b) { this.a = a; this.b = b; }

        @Override public long eval(long[] v) { return add(a.eval(v), b.eval(v)); }
    }

    static final class Sub extends Expr {
        final Expr a, b;

        Sub(Expr a, Expr b) { this.a = a; this.b = b; }

        @Override public long eval(long[] v) { return subtract(a.eval(v), b.eval(v)); }
    }

    static final class Mul extends Expr {
        final Expr a, b;

        Mul(Expr a, Expr b) { this.a = a; this.b = b; }

        @Override public long eval(long[] v) { return multiply(a.eval(v), b.eval(v)); }
    }

    /** True if the value does not depend on any variable. */
    public boolean isConstant() { return false; }

    static final class Const extends Expr {
        final long value;

        Const(long value) { this.value = value; }

        @Override public long eval(long[] vars) { return value; }
        @Override public boolean isConstant() { return true; }
    }

    static final class Var extends Expr {
        final int slot;

        Var(int slot) { this.slot = slot; }

        @Override public long eval(long[] vars) { return vars[slot]; }
    }

    static final class Unary extends Expr {
        final char op;
        final Expr a;

        Unary(char op, Expr a) {
            this.op = op;
            this.a = a;
        }

        @Override
        public long eval(long[] vars) {
            long v = a.eval(vars);
            return op == '-' ? negate(v) : (v == 0 ? 1 : 0);
        }
    }

    /** Binary operators; {@code op} is one of the {@link Op} codes. */
    static final class Binary extends Expr {
        final Op op;
        final Expr a, b;

        Binary(Op op, Expr a, Expr b) {
            this.op = op;
            this.a = a;
            this.b = b;
        }

        @Override
        public long eval(long[] vars) {
            long x = a.eval(vars);
            // && and || short-circuit like C
            if (op == Op.AND) return x != 0 && b.eval(vars) != 0 ? 1 : 0;
            if (op == Op.OR) return x != 0 || b.eval(vars) != 0 ? 1 : 0;
            return op.apply(x, b.eval(vars));
        }
    }

    // Math.addExact and friends would do, but their "long overflow" says nothing to a workload author.
    static long add(long x, long y) {
        long r = x + y;
        if (((x ^ r) & (y ^ r)) < 0) throw new ArithmeticException(OVERFLOW);
        return r;
    }

    static long subtract(long x, long y) {
        long r = x - y;
        if (((x ^ y) & (x ^ r)) < 0) throw new ArithmeticException(OVERFLOW);
        return r;
    }

    static long multiply(long x, long y) {
        long lo = x * y;
        if (Math.multiplyHigh(x, y) != lo >> 63) throw new ArithmeticException(OVERFLOW);
        return lo;
    }

    static long negate(long x) {
        if (x == Long.MIN_VALUE) throw new ArithmeticException(OVERFLOW);
        return -x;
    }

    enum Op {
        ADD, SUB, MUL, DIV, MOD, LT, LE, GT, GE, EQ, NE, AND, OR, MIN, MAX;

        long apply(long x, long y) {
            return switch (this) {
                case ADD -> add(x, y);
                case SUB -> subtract(x, y);
                case MUL -> multiply(x, y);
                case DIV -> {
                    if (y == 0) throw new ArithmeticException("division by zero");
                    if (x == Long.MIN_VALUE && y == -1) throw new ArithmeticException(OVERFLOW);
                    yield x / y;
                }
                case MOD -> {
                    if (y == 0) throw new ArithmeticException("modulo by zero");
                    yield x % y;
                }
                case LT -> x < y ? 1 : 0;
                case LE -> x <= y ? 1 : 0;
                case GT -> x > y ? 1 : 0;
                case GE -> x >= y ? 1 : 0;
                case EQ -> x == y ? 1 : 0;
                case NE -> x != y ? 1 : 0;
                case AND -> x != 0 && y != 0 ? 1 : 0;
                case OR -> x != 0 || y != 0 ? 1 : 0;
                case MIN -> Math.min(x, y);
                case MAX -> Math.max(x, y);
            };
        }
    }
}
