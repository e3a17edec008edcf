package org.hmsim.platform.traces;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.hmsim.platform.traces.importer.AccelSimImporter;
import org.hmsim.platform.traces.importer.LackeyImporter;
import org.hmsim.platform.traces.importer.NvbitImporter;
import org.hmsim.platform.traces.text.TextTraceReader;
import org.hmsim.platform.traces.text.TextTraceWriter;

/** The entry points the commands use: read any supported input into a sink, write binary or text. */
public final class Traces {
    /** Input formats: hmsim (binary or text, detected), accel-sim, nvbit, lackey. */
    public static final List<String> FORMATS = List.of("hmsim", "accel-sim", "nvbit", "lackey");

    private Traces() {}

    /**
     * Streams {@code in} in {@code format} into {@code sink} (then closes nothing). {@code interleave}: for
     * binary hmsim traces, warps of a CTA in turn (replay) rather than one after another (conversion).
     */
    public static void read(String format, Path in, TraceSink sink, boolean interleave) {
        switch (format.toLowerCase(Locale.ROOT)) {
            case "hmsim" -> {
                if (TraceWorkloadProvider.isBinary(in, in.toString())) {
                    try (TraceFile f = TraceFile.open(in)) {
                        f.readInto(sink, interleave);
                    }
                } else TextTraceReader.read(in, in.toString(), sink);
            }
            case "accel-sim", "accelsim" -> AccelSimImporter.importTrace(in, sink);
            case "nvbit", "mem_trace" -> NvbitImporter.importTrace(in, sink);
            case "lackey" -> LackeyImporter.importTrace(in, sink);
            default -> throw new IllegalArgumentException("unknown trace format '" + format + "' (" + String.join(", ", FORMATS) + ")");
        }
    }

    /** Converts {@code in} to {@code out} (binary, or the text twin if {@code text}); nothing is left behind on error. */
    public static void convert(String format, Path in, Path out, boolean text) {
        TraceSink w = text ? new TextTraceWriter(out) : new TraceWriter(out);
        try {
            KernelCount counted = new KernelCount(w);
            read(format, in, counted, false);
            // a trace without a kernel launch simulates nothing; refuse it here rather than at a run's start
            if (counted.kernels == 0 && counted.cpuAccesses == 0)
                throw TraceException.inFile(in.toString(), "no kernel launch and no CPU access found: nothing to " + (format.equals("hmsim") ? "convert" : "import"), null);
            w.close();
        } catch (IOException e) {
            abort(w);
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            abort(w);
            throw e;
        }
    }

    /** Passes a trace on, counting its kernel launches and CPU accesses. */
    private static final class KernelCount implements TraceSink {
        private final TraceSink to;
        int kernels;
        long cpuAccesses;

        KernelCount(TraceSink to) { this.to = to; }

        @Override public void workload(String name) { to.workload(name); }
        @Override public void allocation(TraceAllocation a) { to.allocation(a); }
        @Override public void beginKernel(KernelShape k) {
            kernels++;
            to.beginKernel(k);
        }
        @Override public void instruction(int cta, int warp, org.hmsim.api.workload.WarpInstruction in) { to.instruction(cta, warp, in); }
        @Override public void endCta(int cta) { to.endCta(cta); }
        @Override public void endKernel() { to.endKernel(); }
        @Override public void beginCpuPhase(String name) { to.beginCpuPhase(name); }
        @Override public void cpuAccess(CpuKind kind, long address, int size) {
            cpuAccesses++;
            to.cpuAccess(kind, address, size);
        }
        @Override public void endCpuPhase() { to.endCpuPhase(); }
        @Override public void close() {} // the caller closes (or abandons) the real writer
    }

    static void abort(TraceSink w) {
        if (w instanceof TraceWriter b) b.abort();
        else if (w instanceof TextTraceWriter t) t.abort();
    }

    /** A writer for {@code out}: binary, or the text twin. */
    public static TraceSink writer(Path out, boolean text) { return text ? new TextTraceWriter(out) : new TraceWriter(out); }

    /** Closes or, after a failure, abandons a writer. */
    public static void finish(TraceSink w, boolean ok) throws IOException {
        if (ok) w.close();
        else abort(w);
    }
}
