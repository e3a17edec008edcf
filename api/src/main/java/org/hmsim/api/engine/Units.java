package org.hmsim.api.engine;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parsing of the quantities researchers write in machine descriptions: sizes ({@code 16KB}, {@code 4GiB}),
 * bandwidths ({@code 200GB/s}, {@code 100Gb/s}), frequencies ({@code 1.4GHz}) and times ({@code 20us}). KB/MB/GB
 * are binary multiples for sizes (as in cache and page sizes) and decimal for bandwidths (as vendors quote
 * them). The prefix may be either case ({@code kB}, {@code KB}); the last letter may not: {@code B} is a byte and
 * {@code b} a bit, as everyone writes them. A rate in bits takes an upper-case prefix ({@code Gb/s}): {@code gb/s} is
 * refused as ambiguous (api.engine 1.0.1 and earlier read it as bytes, 1.0.2 as bits). Errors are {@link IllegalArgumentException}s with a message that names
 * the bad text.
 */
public final class Units {
    private static final Pattern NUM_UNIT = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)\\s*([A-Za-z/\u00b5\u03bc]*)\\s*");
    /** A size or bandwidth unit: a prefix (or none), then B for bytes or b for bits, then /s for a bandwidth. */
    private static final Pattern BYTE_UNIT = Pattern.compile("([kKmMgGtT]?[iI]?)([Bb]?)(/[sS])?");

    private Units() {}

    public static long bytes(String text) {
        Matcher m = match(text, "size");
        double v = Double.parseDouble(m.group(1));
        Matcher u = BYTE_UNIT.matcher(m.group(2));
        // Ki needs its B (KiB), as before; i alone is no prefix
        if (!u.matches() || u.group(3) != null || u.group(1).length() > (u.group(2).isEmpty() ? 1 : 2) || u.group(1).equalsIgnoreCase("i"))
            throw new IllegalArgumentException("unknown size unit '" + m.group(2) + "' in '" + text + "' (use B, KB, MB, GB, TB)");
        // 16Kb was read as 16 KB: a size in bits is a slip for bytes far more often than meant, and hmsim has no size in bits
        if (u.group(2).equals("b"))
            throw new IllegalArgumentException("'" + text + "' is in bits (b); a size is in bytes (B): write " + m.group(1) + inBytes(u.group(1)));
        // a whole number of bytes is read exactly: 9223372036854775807 went through a double, became 2^63 and was "too large
        // (at most 9223372036854775807)" (a bad-input trial)
        if (power(u.group(1)) == 0 && m.group(1).matches("[0-9]+")) {
            try {
                return Long.parseLong(m.group(1));
            } catch (NumberFormatException tooLong) {
                throw new IllegalArgumentException("'" + text + "' is too large (at most " + Long.MAX_VALUE + " bytes)");
            }
        }
        return whole(v * (1L << 10 * power(u.group(1))), text, "bytes");
    }

    /** Bandwidth in bytes per second; a rate in bits ({@code 100Gb/s}, as links are quoted) is divided by 8. */
    public static double bytesPerSecond(String text) {
        Matcher m = match(text, "bandwidth");
        double v = Double.parseDouble(m.group(1));
        Matcher u = BYTE_UNIT.matcher(m.group(2));
        // binary prefixes are refused, not read as decimal ones: 1GiB/s is 7 % more than 1GB/s
        if (!u.matches() || u.group(2).isEmpty() || u.group(3) == null || u.group(1).toLowerCase(Locale.ROOT).endsWith("i"))
            throw new IllegalArgumentException("unknown bandwidth unit '" + m.group(2) + "' in '" + text
                    + "' (use B/s, KB/s, MB/s, GB/s, TB/s for bytes, or b/s, Kb/s, Mb/s, Gb/s, Tb/s for bits)");
        // gb/s was long read as bytes: in bits the prefix is upper case (Gb/s), so a lower-case one is ambiguous
        if (u.group(2).equals("b") && !u.group(1).isEmpty() && Character.isLowerCase(u.group(1).charAt(0)))
            throw new IllegalArgumentException("'" + text + "' is ambiguous: write " + m.group(1) + u.group(1).toUpperCase(Locale.ROOT) + "B/s for bytes or "
                    + m.group(1) + u.group(1).toUpperCase(Locale.ROOT) + "b/s for bits");
        double bytes = v * Math.pow(1e3, power(u.group(1)));
        return finite(u.group(2).equals("b") ? bytes / 8 : bytes, text);
    }

    /** The byte unit of a size prefix as the docs write it: k gives KB, ki gives KiB. */
    private static String inBytes(String prefix) {
        return prefix.isEmpty() ? "B" : Character.toUpperCase(prefix.charAt(0)) + (prefix.length() > 1 ? "i" : "") + "B";
    }

    /** The power of 1000 (or 1024) a prefix stands for: K 1, M 2, G 3, T 4, none 0. */
    private static int power(String prefix) {
        return prefix.isEmpty() ? 0 : "KMGT".indexOf(Character.toUpperCase(prefix.charAt(0))) + 1;
    }

    public static double megahertz(String text) {
        Matcher m = match(text, "frequency");
        double v = Double.parseDouble(m.group(1));
        String u = m.group(2).toUpperCase(Locale.ROOT);
        return finite(switch (u) {
            case "HZ" -> v / 1e6;
            case "KHZ" -> v / 1e3;
            case "", "MHZ" -> v;
            case "GHZ" -> v * 1e3;
            default -> throw new IllegalArgumentException("unknown frequency unit '" + m.group(2) + "' in '" + text + "' (use MHz, GHz)");
        }, text);
    }

    /** A duration in picoseconds. */
    public static long picoseconds(String text) {
        Matcher m = match(text, "time");
        double v = Double.parseDouble(m.group(1));
        String u = m.group(2).toLowerCase(Locale.ROOT);
        double mul = switch (u) {
            case "ps" -> 1;
            case "ns" -> 1e3;
            case "us", "\u00b5s", "\u03bcs" -> 1e6; // µs as written with the micro sign or the Greek mu (a trial's 10µs was refused)
            case "ms" -> 1e9;
            case "s" -> 1e12;
            default -> throw new IllegalArgumentException("unknown time unit '" + m.group(2) + "' in '" + text + "' (use ps, ns, us, ms, s)");
        };
        return whole(v * mul, text, "ps");
    }

    /**
     * Rounds to a long, refusing what does not fit: Math.round saturates at Long.MAX_VALUE, which would
     * turn "1e30TB" into a plausible-looking size instead of an error.
     */
    private static long whole(double v, String text, String unit) {
        if (!(v < 0x1p63)) throw new IllegalArgumentException("'" + text + "' is too large (at most " + Long.MAX_VALUE + " " + unit + ")");
        return Math.round(v);
    }

    /** "1e400GB/s" parses as infinity, which no caller can use. */
    private static double finite(double v, String text) {
        if (!Double.isFinite(v)) throw new IllegalArgumentException("'" + text + "' is too large");
        return v;
    }

    private static Matcher match(String text, String what) {
        if (text == null) throw new IllegalArgumentException("missing " + what);
        Matcher m = NUM_UNIT.matcher(text);
        if (!m.matches()) throw new IllegalArgumentException("'" + text + "' is not a " + what + " (a number and a unit)");
        return m;
    }
}
