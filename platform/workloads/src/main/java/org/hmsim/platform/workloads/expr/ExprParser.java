package org.hmsim.platform.workloads.expr;

import java.util.function.ToIntFunction;

/**
 * Compiles an integer expression once into an {@link Expr} tree. Grammar (C precedence):
 * <pre>
 *   expr    := or
 *   or      := and ('||' and)*
 *   and     := cmp ('&&' cmp)*
 *   cmp     := sum (('<' | '<=' | '>' | '>=' | '==' | '!=') sum)?
 *   sum     := product (('+' | '-') product)*
 *   product := unary (('*' | '/' | '%') unary)*
 *   unary   := ('-' | '!') unary | primary
 *   primary := number | name | ('min' | 'max') '(' expr ',' expr ')' | '(' expr ')'
 * </pre>
 * Numbers are decimal or 0x-hex, with optional '_' separators. Names are resolved to variable slots
 * by the given resolver (a negative slot = unknown name, an error). Constant sub-expressions are folded.
 */
public final class ExprParser {
    private final String text;
    private final ToIntFunction<String> resolver;
    private final String known;
    private int pos;
    /**
     * Bounds that keep the parser's and the evaluator's recursion on the stack: 2,000 nested parentheses or 50,000 terms
     * overflowed it, an internal error with no location (a bad-input trial); real indices use a handful.
     */
    static final int MAX_NESTING = 200, MAX_OPERATORS = 2000;
    private int nesting, operators;

    private ExprParser(String text, ToIntFunction<String> resolver, String known) {
        this.text = text;
        this.resolver = resolver;
        this.known = known;
    }

    /**
     * @param resolver slot of a variable name, or a negative number if the name is unknown
     * @param known    the names that are allowed, for the error message
     */
    public static Expr parse(String text, ToIntFunction<String> resolver, String known) {
        if (text == null || text.isBlank()) throw new ExprException("empty expression", 0);
        ExprParser p = new ExprParser(text, resolver, known);
        Expr e = p.or();
        p.skip();
        if (p.pos < text.length()) throw new ExprException("unexpected '" + text.charAt(p.pos) + "'", p.pos);
        return e;
    }

    private Expr or() {
        Expr e = and();
        for (int at = peekPos(); eat("||"); at = peekPos()) e = make(Expr.Op.OR, e, and(), at);
        return e;
    }

    private Expr and() {
        Expr e = cmp();
        for (int at = peekPos(); eat("&&"); at = peekPos()) e = make(Expr.Op.AND, e, cmp(), at);
        return e;
    }

    private Expr cmp() {
        Expr e = sum();
        int at = peekPos();
        Expr.Op op = eat("<=") ? Expr.Op.LE : eat(">=") ? Expr.Op.GE : eat("==") ? Expr.Op.EQ : eat("!=") ? Expr.Op.NE
                : eat("<") ? Expr.Op.LT : eat(">") ? Expr.Op.GT : null;
        return op == null ? e : make(op, e, sum(), at);
    }

    private Expr sum() {
        Expr e = product();
        while (true) {
            int at = peekPos();
            if (eat("+")) e = make(Expr.Op.ADD, e, product(), at);
            else if (eat("-")) e = make(Expr.Op.SUB, e, product(), at);
            else return e;
        }
    }

    private Expr product() {
        Expr e = unary();
        while (true) {
            int at = peekPos();
            if (eat("*")) e = make(Expr.Op.MUL, e, unary(), at);
            else if (eat("/")) e = checkedDivision(Expr.Op.DIV, e, unary(), at);
            else if (eat("%")) e = checkedDivision(Expr.Op.MOD, e, unary(), at);
            else return e;
        }
    }

    private Expr unary() {
        int at = peekPos();
        deeper(at);
        try {
            return unaryOperand(at);
        } finally {
            nesting--;
        }
    }

    /** One more level of nesting (a parenthesis, an operand of min/max, a unary operator), within {@link #MAX_NESTING}. */
    private void deeper(int at) {
        if (++nesting > MAX_NESTING) throw new ExprException("the expression nests more than " + MAX_NESTING + " levels deep", at);
    }

    private Expr unaryOperand(int at) {
        if (eat("-")) {
            Expr a = unary();
            if (!a.isConstant()) return new Expr.Unary('-', a);
            try {
                return new Expr.Const(Expr.negate(a.eval(null)));
            } catch (ArithmeticException e) {
                throw new ExprException(e.getMessage(), at);
            }
        }
        if (peek() == '!' && !text.startsWith("!=", pos)) {
            pos++;
            Expr a = unary();
            return a.isConstant() ? new Expr.Const(a.eval(null) == 0 ? 1 : 0) : new Expr.Unary('!', a);
        }
        return primary();
    }

    private Expr primary() {
        skip();
        if (pos >= text.length()) throw new ExprException("expression ends too early", pos);
        char c = text.charAt(pos);
        if (c == '(') {
            pos++;
            Expr e = or();
            expect(")");
            return e;
        }
        if (Character.isDigit(c)) return number();
        if (Character.isLetter(c) || c == '_') {
            int start = pos;
            while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) pos++;
            String name = text.substring(start, pos);
            skip();
            if ((name.equals("min") || name.equals("max")) && peek() == '(') {
                pos++;
                Expr a = or();
                expect(",");
                Expr b = or();
                expect(")");
                return make(name.equals("min") ? Expr.Op.MIN : Expr.Op.MAX, a, b, start);
            }
            int slot = resolver.applyAsInt(name);
            if (slot < 0) throw new ExprException("unknown variable '" + name + "'" + (known.isEmpty() ? "" : " (known: " + known + ")"), start);
            return new Expr.Var(slot);
        }
        throw new ExprException("unexpected '" + c + "'", pos);
    }

    private Expr number() {
        int start = pos;
        int radix = 10;
        if (text.startsWith("0x", pos) || text.startsWith("0X", pos)) {
            radix = 16;
            pos += 2;
        }
        int digits = pos;
        while (pos < text.length() && (Character.digit(text.charAt(pos), radix) >= 0 || text.charAt(pos) == '_')) pos++;
        if (pos < text.length() && Character.isLetter(text.charAt(pos)))
            throw new ExprException("bad number '" + text.substring(start, pos + 1) + "'", start);
        String literal = text.substring(digits, pos).replace("_", "");
        try {
            return new Expr.Const(Long.parseLong(literal, radix));
        } catch (NumberFormatException e) {
            if (!literal.isEmpty()) throw new ExprException("number '" + text.substring(start, pos) + "' does not fit in 64 bits", start);
            throw new ExprException("bad number '" + text.substring(start, pos) + "'", start);
        }
    }

    private Expr checkedDivision(Expr.Op op, Expr a, Expr b, int at) {
        if (b.isConstant() && b.eval(null) == 0) throw new ExprException((op == Expr.Op.DIV ? "division" : "modulo") + " by zero", at);
        return make(op, a, b, at);
    }

    /** Folding constants evaluates them, so an overflow there is reported at the operator, when the file is read. */
    private Expr make(Expr.Op op, Expr a, Expr b, int at) {
        if (++operators > MAX_OPERATORS) throw new ExprException("the expression has more than " + MAX_OPERATORS + " operators", at);
        try {
            return Expr.fold(op, a, b);
        } catch (ArithmeticException e) {
            throw new ExprException(e.getMessage(), at);
        }
    }

    private void expect(String s) {
        if (!eat(s)) {
            skip();
            throw new ExprException(pos >= text.length() ? "missing '" + s + "'" : "expected '" + s + "' but found '" + text.charAt(pos) + "'", pos);
        }
    }

    private boolean eat(String s) {
        skip();
        if (text.startsWith(s, pos)) {
            pos += s.length();
            return true;
        }
        return false;
    }

    private char peek() {
        skip();
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private int peekPos() {
        skip();
        return pos;
    }

    private void skip() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) pos++;
    }
}
