package org.hmsim.platform.traces.replay;

import java.util.Locale;
import org.hmsim.api.engine.Units;

/**
 * One cache level of a replay, parsed from {@code NAME:size=32KB,ways=8,line=64,repl=lru,write=wb-wa,index=sim}.
 * {@code write}: {@code wb-wa} write-back + write-allocate (default), {@code wb-nwa}, {@code wt-wa},
 * {@code wt-nwa} (write-through, no write-allocate). {@code index}: {@code sim} folds the line number as the
 * simulator's tag store does (default), {@code mod} takes the line number modulo the sets (Dinero's rule).
 * A level named {@code l1i} receives instruction fetches only; the data accesses start at the next level.
 */
public record CacheSpec(String name, long sizeBytes, int ways, int lineBytes, String replacement, boolean writeBack,
                        boolean writeAllocate, boolean moduloIndex) {

    public static CacheSpec parse(String text) {
        int colon = text.indexOf(':');
        if (colon <= 0) throw new IllegalArgumentException("cache spec '" + text + "': expected NAME:size=...,ways=...,line=...");
        String name = text.substring(0, colon).trim();
        long size = -1;
        int ways = 8, line = 64;
        String repl = "lru", write = "wb-wa", index = "sim";
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (String kv : text.substring(colon + 1).split(",")) {
            String[] p = kv.split("=", 2);
            if (p.length != 2) throw new IllegalArgumentException("cache " + name + ": expected key=value, found '" + kv + "'");
            String k = p[0].trim().toLowerCase(Locale.ROOT), v = p[1].trim();
            String canonical = k.equals("assoc") ? "ways" : k.equals("block") ? "line" : k;
            if (!seen.add(canonical)) throw new IllegalArgumentException("cache " + name + ": " + canonical + " is given twice");
            try {
                switch (k) {
                    case "size" -> size = Units.bytes(v);
                    case "ways", "assoc" -> ways = Integer.parseInt(v);
                    case "line", "block" -> line = (int) Units.bytes(v);
                    case "repl" -> repl = v;
                    case "write" -> write = v.toLowerCase(Locale.ROOT);
                    case "index" -> index = v.toLowerCase(Locale.ROOT);
                    default -> throw new IllegalArgumentException("cache " + name + ": unknown key '" + k + "' (size, ways, line, repl, write, index)");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("cache " + name + ": bad " + k + " '" + v + "'");
            }
        }
        if (!seen.contains("size")) throw new IllegalArgumentException("cache " + name + ": size= is required (e.g. size=32KB)");
        if (size <= 0) throw new IllegalArgumentException("cache " + name + ": size must be > 0");
        // the replay holds every line's tag in memory: a cache beyond any real one ran the JVM out of memory (found by a review)
        if (size > MAX_BYTES) throw new IllegalArgumentException("cache " + name + ": size " + human(size) + " is larger than " + human(MAX_BYTES) + ", the most replay models");
        if (ways < 1 || ways > 64) throw new IllegalArgumentException("cache " + name + ": ways must be 1..64");
        if (Integer.bitCount(line) != 1 || line < 32 || line > 1024) throw new IllegalArgumentException("cache " + name + ": line must be a power of two in 32..1024 B");
        if (size % ((long) ways * line) != 0) throw new IllegalArgumentException("cache " + name + ": size must be a multiple of ways x line");
        if (!write.matches("w[bt]-n?wa")) throw new IllegalArgumentException("cache " + name + ": write must be wb-wa, wb-nwa, wt-wa or wt-nwa");
        if (!index.equals("sim") && !index.equals("mod")) throw new IllegalArgumentException("cache " + name + ": index must be sim or mod");
        return new CacheSpec(name, size, ways, line, repl, write.startsWith("wb"), !write.endsWith("nwa"), index.equals("mod"));
    }

    /** The largest cache replay models (a last-level cache of today is at most a few hundred MB). */
    static final long MAX_BYTES = 256L << 20;

    public int sets() { return (int) (sizeBytes / ((long) ways * lineBytes)); }

    public boolean instructionOnly() { return name.equals("l1i"); }

    public String describe() {
        return name + ": " + human(sizeBytes) + ", " + ways + "-way, " + lineBytes + " B lines, " + sets() + " sets, " + replacement + ", "
                + (writeBack ? "write-back" : "write-through") + ", " + (writeAllocate ? "write-allocate" : "no-write-allocate")
                + ", index " + (moduloIndex ? "mod" : "sim");
    }

    static String human(long b) {
        if (b % (1 << 20) == 0) return (b >> 20) + " MB";
        if (b % (1 << 10) == 0) return (b >> 10) + " KB";
        return b + " B";
    }
}
