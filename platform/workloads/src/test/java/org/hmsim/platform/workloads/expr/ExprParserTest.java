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
}
