package org.hmsim.platform.traces;

import org.hmsim.api.workload.WarpInstruction;

/**
 * Reads a whole binary trace as a run would, to find damage before a study starts: every CTA table entry and footer,
 * every segment descriptor, every segment inflated to its recorded raw length and checked against its CRC-32, every
 * instruction and CPU access decoded, and each kernel's instruction counts and each CPU phase's access count compared
 * with the directory's. {@link TraceFile#open} checks only the header and the directory (their CRC), and a run checks a
 * segment's CRC when it has read it to its end, so a damaged segment was found only mid-run (a bad-input review: after
 * {@code run} had moved the folder's earlier results to {@code previous/}).
 *
 * <p>What it cannot see: a changed byte of a CTA footer or table that still points at a plausible place, and a segment
 * table whose descriptors were changed consistently (offset, lengths and CRC together); a copy that is byte-for-byte
 * another valid trace. A changed byte in the deflate stream's padding after its end changes nothing that is read.
 *
 * <p>Memory is what a run's reading takes for one warp at a time (the streams' buffers); time is one pass over the file
 * (docs/traces.md gives the measured rate). Added beside the trace reader in a file of its own.
 */
public final class TraceVerifier {
    private TraceVerifier() {}

    /** What a verification read: kernels, CTAs, warp instructions (memory ones among them), CPU phases and accesses. */
    public record Summary(int kernels, long ctas, long instructions, long memoryInstructions, int cpuPhases, long cpuAccesses) {}

    /** Reads every part of {@code f}; throws {@link TraceException} ({@code file: byte N: ...}) at the first damage found. */
    public static Summary verify(TraceFile f) {
        WarpInstruction in = new WarpInstruction();
        int kernels = 0, phases = 0;
        long ctas = 0, instructions = 0, memory = 0, accesses = 0;
        for (TraceFile.Item item : f.items()) {
            if (item instanceof TraceFile.KernelItem k) {
                kernels++;
                long n = 0, m = 0;
                int warps = k.shape().warpsPerCta();
                for (int c = 0; c < k.shape().ctas(); c++) {
                    TraceFile.CtaFooter footer = f.footer(k, c);
                    for (int w = 0; w < warps; w++) {
                        TraceFile.WarpReader r = new TraceFile.WarpReader(footer.stream(k, w), null);
                        while (r.next(in)) {
                            n++;
                            if (in.kind != WarpInstruction.Kind.COMPUTE && in.kind != WarpInstruction.Kind.BARRIER) m++;
                        }
                    }
                }
                ctas += k.shape().ctas();
                if (n != k.instructions() || m != k.memoryInstructions())
                    throw TraceException.atByte(f.display(), k.ctaTable(), "kernel " + k.index() + " (" + k.shape().name() + "): its warps hold " + n
                            + " instructions (" + m + " memory), the directory records " + k.instructions() + " (" + k.memoryInstructions()
                            + "): corrupt or cut short");
                instructions += n;
                memory += m;
            } else {
                TraceFile.CpuPhaseItem p = (TraceFile.CpuPhaseItem) item;
                phases++;
                TraceFile.CpuReader r = f.cpuPhase(p);
                long n = 0;
                while (r.next()) n++;
                if (n != p.accesses())
                    throw TraceException.atByte(f.display(), p.segmentTable(), "CPU phase " + p.name() + ": its segments hold " + n
                            + " accesses, the directory records " + p.accesses() + ": corrupt or cut short");
                accesses += n;
            }
        }
        return new Summary(kernels, ctas, instructions, memory, phases, accesses);
    }
}
