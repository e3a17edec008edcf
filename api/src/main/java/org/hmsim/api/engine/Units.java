package org.hmsim.api.engine;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parsing of the quantities researchers write in machine descriptions: sizes ({@code 16KB}, {@code 4GiB}),
 * bandwidths ({@code 200GB/s}), frequencies ({@code 1.4GHz}) and times ({@code 20us}). KB/MB/GB are
 * binary multiples for sizes (as in cache and page sizes) and decimal for bandwidths (as vendors quote
 * them). Errors are {@link IllegalArgumentException}s with a message that names the bad text.
 */
public final class Units {
    private static final Pattern NUM_UNIT = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)\\s*([A-Za-z/]*)\\s*");

    private Units() {}

    public static long bytes(String text) {
        Matcher m = match(text, "size");
        double v = Double.parseDouble(m.group(1));
        String u = m.group(2).toUpperCase(Locale.ROOT);
        long mul = switch (u) {
            case "", "B" -> 1L;
            case "K", "KB", "KIB" -> 1L << 10;
            case "M", "MB", "MIB" -> 1L << 20;
            case "G", "GB", "GIB" -> 1L << 30;
            case "T", "TB", "TIB" -> 1L << 40;
            default -> throw new IllegalArgumentException("unknown size unit '" + m.group(2) + "' in '" + text + "' (use B, KB, MB, GB, TB)");
        };
        return whole(v * mul, text, "bytes");
    }

    /** Bandwidth in bytes per second. */
    public static double bytesPerSecond(String text) {
        Matcher m = match(text, "bandwidth");
        double v = Double.parseDouble(m.group(1));
        String u = m.group(2).toUpperCase(Locale.ROOT);
        double mul = switch (u) {
            case "B/S" -> 1;
            case "KB/S" -> 1e3;
            case "MB/S" -> 1e6;
            case "GB/S" -> 1e9;
            case "TB/S" -> 1e12;
            default -> throw new IllegalArgumentException("unknown bandwidth unit '" + m.group(2) + "' in '" + text + "' (use B/s, MB/s, GB/s, TB/s)");
        };
        return finite(v * mul, text);
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
            case "us" -> 1e6;
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
