package org.hmsim.platform.traces;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.Workload;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.traces.text.TextTraceReader;

/**
 * A trace file as a workload ({@code workloads: [{trace: ../traces/x.hmt}]} in a study). Its name is the
 * file name without extension; it has no parameters, and the seed does not change it (a trace is one
 * recorded execution). A text trace is converted once to a temporary binary trace, deleted at exit.
 */
public final class TraceWorkloadProvider implements WorkloadProvider {
    private final TraceFile trace;
    private final String name;
    private final String display;

    private TraceWorkloadProvider(TraceFile trace, String name, String display) {
        this.trace = trace;
        this.name = name;
        this.display = display;
    }

    public static TraceWorkloadProvider open(Path file) { return open(file, file.toString()); }

    /** Opens a binary or text trace; errors name it as {@code display}. */
    public static TraceWorkloadProvider open(Path file, String display) {
        // the file's name, extension kept: a trace of bfs (bfs.hmt) was labelled "bfs" in runs.csv, as the built-in bfs is
        // (an irregular-workload trial); no built-in name holds a '.'
        String name = file.getFileName().toString();
        if (isBinary(file, display)) return withKernels(new TraceWorkloadProvider(TraceFile.open(file, display), name, display));
        try {
            Path tmp = Files.createTempFile("hmsim-trace-", ".hmt");
            tmp.toFile().deleteOnExit();
            try (TraceWriter w = new TraceWriter(tmp)) {
                TextTraceReader.read(file, display, w);
            }
            return withKernels(new TraceWorkloadProvider(TraceFile.open(tmp, display + " (converted)"), name, display));
        } catch (IOException e) {
            throw new UncheckedIOException(display + ": " + e.getMessage(), e);
        }
    }

    /** A trace without a kernel launch simulates nothing: an error when it is opened (validate), not at a run's start. */
    private static TraceWorkloadProvider withKernels(TraceWorkloadProvider p) {
        if (!p.trace.kernels().isEmpty()) return p;
        p.trace.close();
        throw TraceException.inFile(p.display, "the trace has no kernel launch: nothing to simulate (a CPU-only trace, such as a lackey import, is for hmsim replay)", null);
    }

    /** True if the file starts with the binary magic (false for a text trace). */
    public static boolean isBinary(Path file, String display) {
        byte[] head = new byte[TraceFormat.MAGIC.length];
        int n;
        TraceException.requireRegularInput(file, display);
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        } catch (IOException e) {
            throw TraceException.inFile(display, "cannot read: " + e.getMessage(), e);
        }
        return TraceFormat.isBinary(head, n);
    }

    public TraceFile trace() { return trace; }

    @Override public String name() { return name; }

    @Override
    public String description() {
        return "trace " + display + " (workload " + trace.workloadName() + ", " + trace.kernels().size() + " kernel launches)";
    }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    @Override
    public Workload create(Params params, long seed) { return new TraceWorkload(trace, name); }
}
