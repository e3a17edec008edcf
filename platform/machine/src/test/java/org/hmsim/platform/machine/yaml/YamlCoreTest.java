package org.hmsim.platform.machine.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigInteger;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Plain scalars as the YAML 1.2 core schema types them, not as YAML 1.1 (SnakeYAML's default) does. */
class YamlCoreTest {
    @SuppressWarnings("unchecked")
    private static Map<String, Object> load(String text) { return (Map<String, Object>) YamlCore.yaml().load(text); }

    @Test
    void leadingZerosAreDecimalAndSexagesimalOrBinaryAreText() {
        Map<String, Object> m = load("a: 010\nb: 050\nc: 1:10\nd: 0b101\ne: 0x10\nf: 0o17\ng: -7\nh: +3\ni: 99999999999\nj: 123456789012345678901234\n");
        assertEquals(10, m.get("a"));
        assertEquals(50, m.get("b"));
        assertEquals("1:10", m.get("c"));
        assertEquals("0b101", m.get("d"));
        assertEquals(16, m.get("e"));
        assertEquals(15, m.get("f"));
        assertEquals(-7, m.get("g"));
        assertEquals(3, m.get("h"));
        assertEquals(99999999999L, m.get("i"));
        assertEquals(new BigInteger("123456789012345678901234"), m.get("j"));
    }

    @Test
    void onlyTrueAndFalseAreBooleans() {
        Map<String, Object> m = load("a: on\nb: off\nc: yes\nd: no\ne: true\nf: False\ng: y\n");
        assertEquals("on", m.get("a"));
        assertEquals("off", m.get("b"));
        assertEquals("yes", m.get("c"));
        assertEquals("no", m.get("d"));
        assertEquals(true, m.get("e"));
        assertEquals(false, m.get("f"));
        assertEquals("y", m.get("g"));
    }

    @Test
    void floatsNullsAndMergeKeysAsBefore() {
        Map<String, Object> m = load("a: 1.5\nb: 1e3\nc: .inf\nd: ~\ne:\nf: 2026-11-26\nbase: &b {x: 1}\ng: {<<: *b, y: 2}\nh: 1_000\n");
        assertEquals(1.5, m.get("a"));
        assertEquals(1000.0, m.get("b"));
        assertEquals(Double.POSITIVE_INFINITY, m.get("c"));
        assertNull(m.get("d"));
        assertNull(m.get("e"));
        assertEquals("2026-11-26", m.get("f"), "no YAML 1.1 timestamps");
        assertEquals(Map.of("x", 1, "y", 2), m.get("g"));
        assertEquals("1_000", m.get("h"), "YAML 1.2 has no digit separators");
    }
}
