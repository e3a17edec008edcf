package org.hmsim.platform.workloads.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ExprParserTest {
    private static final List<String> VARS = List.of("cta", "tid", "i", "n");

    private static Expr parse(String s) { return ExprParser.parse(s, VARS::indexOf, String.join(", ", VARS)); }

    private static long eval(String s, long... v) { return parse(s).eval(v); }

    @Test
    void precedenceAndAssociativityFollowC() {
        assertEquals(7, eval("1 + 2 * 3"));
        assertEquals(9, eval("(1 + 2) * 3"));
        assertEquals(2, eval("10 - 5 - 3"));
        assertEquals(1, eval("100 / 10 / 10"));
        assertEquals(-2, eval("-7 / 3"), "division truncates toward zero");
        assertEquals(-1, eval("-7 % 3"), "% has the sign of the dividend");
        assertEquals(1, eval("1 + 2 < 4 && 3 >= 3"));
        assertEquals(0, eval("!(2 == 2) || 0"));
        assertEquals(3, eval("min(5, max(3, 1))"));
        assertEquals(255 + 1_000, eval("0xff + 1_000"));
    }

    @Test
    void variablesAreSlots() {
        assertEquals(3 * 256 + 5 + 2 * 65536, eval("cta*256 + tid + i*65536", 3, 5, 2, 0));
        assertTrue(parse("4 * (2 + 3)").isConstant(), "constants fold");
    }

    @Test
    void errorsNameTheProblemAndItsPosition() {
        ExprException e = assertThrows(ExprException.class, () -> parse("cta*256 + j"));
        assertEquals(10, e.position());
        assertTrue(e.getMessage().contains("unknown variable 'j'"), e.getMessage());
        assertEquals(4, assertThrows(ExprException.class, () -> parse("1 + * 2")).position());
        assertThrows(ExprException.class, () -> parse("(1 + 2"));
        assertThrows(ExprException.class, () -> parse("1 / 0"));
        assertThrows(ExprException.class, () -> parse("12abc"));
        assertThrows(ExprException.class, () -> parse(""));
        assertThrows(ArithmeticException.class, () -> eval("1 / n", 0, 0, 0, 0));
    }

    @Test
    void overflowIsAnErrorNotAWrappedValue() {
        // n*4 with n = 2^62 + 64 wrapped to 256: an allocation of 256 B instead of an error
        ArithmeticException run = assertThrows(ArithmeticException.class, () -> eval("n*4", 0, 0, 0, 4611686018427387968L));
        assertEquals(Expr.OVERFLOW, run.getMessage());
        assertThrows(ArithmeticException.class, () -> eval("n + 1", 0, 0, 0, Long.MAX_VALUE));
        assertThrows(ArithmeticException.class, () -> eval("n - 1", 0, 0, 0, Long.MIN_VALUE));
        assertThrows(ArithmeticException.class, () -> eval("-n", 0, 0, 0, Long.MIN_VALUE));
        assertThrows(ArithmeticException.class, () -> eval("n / -1", 0, 0, 0, Long.MIN_VALUE));
        assertThrows(ArithmeticException.class, () -> eval("(n - 1) * 2 + cta", 0, 0, 0, Long.MIN_VALUE / 2));
        assertEquals(Long.MAX_VALUE, eval("n * 1", 0, 0, 0, Long.MAX_VALUE));
        assertEquals(Long.MIN_VALUE, eval("-n - 1", 0, 0, 0, Long.MAX_VALUE));
        assertEquals(-4611686018427387904L * 2, eval("n * -2", 0, 0, 0, 4611686018427387904L));

        // folded constants overflow when the file is read, at the operator
        ExprException folded = assertThrows(ExprException.class, () -> parse("tid + 9223372036854775807 * 2"));
        assertEquals(26, folded.position());
        assertEquals(Expr.OVERFLOW, folded.getMessage());
        ExprException literal = assertThrows(ExprException.class, () -> parse("n + 99999999999999999999"));
        assertEquals(4, literal.position());
        assertEquals("number '99999999999999999999' does not fit in 64 bits", literal.getMessage());
        assertEquals(Long.MIN_VALUE, eval("-9223372036854775807 - 1"));
    }

    /** Deep or long expressions are refused with a position, not a StackOverflowError (a bad-input trial: 2,000 parentheses, 50,000 terms). */
    @Test
    void nestingAndLengthAreBounded() {
        String deep = "(".repeat(1000) + "tid" + ")".repeat(1000);
        ExprException e = assertThrows(ExprException.class, () -> parse(deep));
        assertTrue(e.getMessage().contains("nests more than 200 levels deep"), e.getMessage());
        assertThrows(ExprException.class, () -> parse("-".repeat(20_000) + "tid"));
        ExprException longOne = assertThrows(ExprException.class, () -> parse("tid" + "+1".repeat(50_000)));
        assertTrue(longOne.getMessage().contains("more than 2000 operators"), longOne.getMessage());
        // what real indices look like stays well inside
        assertEquals(16, eval("(".repeat(150) + "tid" + ")".repeat(150) + "+1".repeat(15), 0, 1));
    }
}
