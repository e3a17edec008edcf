package org.hmsim.platform.traces.importer;

import java.nio.file.Path;
import org.hmsim.platform.traces.CpuKind;
import org.hmsim.platform.traces.LineSource;
import org.hmsim.platform.traces.TraceSink;

/**
 * Imports a valgrind lackey address trace ({@code valgrind --tool=lackey --trace-mem=yes}) as one CPU
 * phase. Accepted lines: {@code I  ADDR,SIZE} (instruction fetch), {@code  L ADDR,SIZE},
 * {@code  S ADDR,SIZE}, {@code  M ADDR,SIZE} (load, store, modify; one leading space), ADDR hexadecimal
 * without 0x, SIZE decimal. Lines starting with {@code ==} (valgrind's messages) and blank lines are
 * skipped; anything else is an error naming the file and line.
 */
public final class LackeyImporter {
    private LackeyImporter() {}

    /** Returns the number of accesses. */
    public static long importTrace(Path file, TraceSink sink) {
        String name = file.getFileName().toString();
        sink.workload(name);
        sink.beginCpuPhase(name.replaceAll("\\s+", "_"));
        long n = 0;
        try (LineSource src = new LineSource(file, file.toString())) {
            for (String l; (l = src.next()) != null; ) {
                if (l.isEmpty() || l.startsWith("==") || l.isBlank()) continue;
                CpuKind kind;
                int at;
                if (l.startsWith("I ")) {
                    kind = CpuKind.IFETCH;
                    at = 1;
                } else if (l.length() > 2 && l.charAt(0) == ' ' && l.charAt(2) == ' ' && (kind = dataKind(l.charAt(1))) != null) {
                    at = 2;
                } else throw src.fail("not a lackey line (expected 'I  ADDR,SIZE' or ' L|S|M ADDR,SIZE'): '" + l + "'");
                String rest = l.substring(at).trim();
                int comma = rest.indexOf(',');
                if (comma < 0) throw src.fail("expected ADDR,SIZE after '" + kind.letter + "': '" + l + "'");
                long addr = src.hex(rest.substring(0, comma), "address");
                int size = src.decInt(rest.substring(comma + 1), "access size", 1, 1 << 20);
                // an access past the top of the address space wrapped to address 0 and imported "ok" (a CPU-side trial)
                if (Long.compareUnsigned(addr, -1L - (size - 1)) > 0)
                    throw src.fail("the access at " + Long.toHexString(addr) + " of " + size + " bytes runs past the top of the 64-bit address space: '" + l + "'");
                sink.cpuAccess(kind, addr, size);
                n++;
            }
        }
        sink.endCpuPhase();
        return n;
    }

    private static CpuKind dataKind(char c) {
        return c == 'L' || c == 'S' || c == 'M' ? CpuKind.ofLetter(c) : null;
    }
}
