package org.hmsim.api.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class ParamSpecTest {
    static final ParamSpec PERCENT = ParamSpec.integer("fast_percent", 50, 0, 100, "share");
    static final ParamSpec N = ParamSpec.longValue("n", 1, Long.MIN_VALUE, Long.MAX_VALUE, "count");

    static String error(ParamSpec spec, Object raw) {
        return assertThrows(IllegalArgumentException.class, () -> spec.coerce(raw)).getMessage();
    }

    @Test
    void aNumberBeyond64BitsIsOutOfRangeNotWrapped() {
        // 2^64 + 30: its low 64 bits are 30, which used to pass as a valid percentage
        BigInteger big = new BigInteger("18446744073709551646");
        assertEquals("parameter 'fast_percent' = 18446744073709551646 is out of range [0, 100]", error(PERCENT, big));
        assertEquals("parameter 'n' = 99999999999999999999 is out of range [-9223372036854775808, 9223372036854775807]",
                error(N, new BigInteger("99999999999999999999")));
        assertEquals(Long.MAX_VALUE, N.coerce(BigInteger.valueOf(Long.MAX_VALUE)));
    }

    @Test
    void anIntParameterIsNotNarrowedFromALongOrAString() {
        // 2^32 + 30 as a long, a string and a float would each have been cast to the int 30
        assertEquals("parameter 'fast_percent' = 4294967326 is out of range [0, 100]", error(PERCENT, 4294967326L));
        assertEquals("parameter 'fast_percent' = 4294967326 is out of range [0, 100]", error(PERCENT, "4294967326"));
        assertEquals("parameter 'fast_percent' = 4.294967326E9 is out of range [0, 100]", error(PERCENT, 4294967326.0));
        assertEquals(30, PERCENT.coerce("30"));
        assertEquals(30, PERCENT.coerce(30.0));
    }

    @Test
    void nonFiniteAndFractionalNumbersAreNotWhole() {
        assertEquals("parameter 'n' = 'Infinity' is not a whole number", error(N, Double.POSITIVE_INFINITY));
        assertEquals("parameter 'n' = 'NaN' is not a whole number", error(N, Double.NaN));
        assertEquals("parameter 'n' = '2.5' is not a whole number", error(N, 2.5));
    }

    @Test
    void notANumberIsNotAReal() {
        ParamSpec r = ParamSpec.real("fraction", 0.5, 0, 1, "share");
        assertEquals("parameter 'fraction' = 'NaN' is not a number", error(r, Double.NaN));
        assertEquals(0.25, r.coerce("25%"));
    }

    @Test
    void sizesAndTimesThatDoNotFitAreRefused() {
        ParamSpec size = ParamSpec.size("footprint", 4096, 0, Long.MAX_VALUE, "bytes");
        assertEquals("parameter 'footprint' = 99999999999999999999 is out of range [0, 9223372036854775807]",
                error(size, new BigInteger("99999999999999999999")));
        assertEquals("parameter 'footprint': '1e30TB' is too large (at most 9223372036854775807 bytes)", error(size, "1e30TB"));
    }

    /** Only true and false, as the docs and the message say: `yes`/`on` are text in YAML 1.2 and ran as true. */
    @Test
    void aFlagIsTrueOrFalseOnly() {
        ParamSpec flag = ParamSpec.bool("keep_history", false, "flag");
        assertEquals(true, flag.coerce("true"));
        assertEquals(false, flag.coerce(" FALSE "));
        assertEquals(true, flag.coerce(Boolean.TRUE));
        for (String text : new String[] {"yes", "on", "no", "off", "1"})
            assertEquals("parameter 'keep_history' = '" + text + "' is not true or false", error(flag, text));
    }
}
