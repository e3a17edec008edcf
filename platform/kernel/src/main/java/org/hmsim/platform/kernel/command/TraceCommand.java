package org.hmsim.platform.kernel.command;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.kernel.registry.InvalidChoiceException;
import org.hmsim.platform.kernel.registry.WorkloadChoice;
import org.hmsim.platform.traces.TraceAllocation;
import org.hmsim.platform.traces.TraceException;
import org.hmsim.platform.workloads.file.WorkloadFileException;
import org.hmsim.platform.traces.TraceFile;
import org.hmsim.platform.traces.TraceRecorder;
import org.hmsim.platform.traces.TraceSink;
import org.hmsim.platform.traces.TraceWorkloadProvider;
import org.hmsim.platform.traces.Traces;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code trace record|import|convert|info}: writes workloads and foreign traces as hmsim traces
 * (docs/traces.md). Errors in inputs are printed as {@code file:line: message} (text) or
 * {@code file: byte N: message} (binary) with exit code 2.
 */
@Command(name = "trace", mixinStandardHelpOptions = true, description = "Records, imports, converts and describes traces (docs/traces.md).",
        subcommands = CommandLine.HelpCommand.class)
final class TraceCommand implements Callable<Integer> {
    private final Commands.Context ctx;

    TraceCommand(Commands.Context ctx) { this.ctx = ctx; }

    /** The {@code trace} command with its subcommands. */
    static CommandLine commandLine(Commands.Context ctx) {
        CommandLine cl = new CommandLine(new TraceCommand(ctx));
        cl.addSubcommand("record", new Record(ctx));
        cl.addSubcommand("import", new Import(ctx));
        cl.addSubcommand("convert", new Convert(ctx));
        cl.addSubcommand("info", new Info(ctx));
        return cl;
    }

    @Override
    public Integer call() {
        ctx.out().println("Usage: hmsim trace record|import|convert|info ... (hmsim trace help SUBCOMMAND)");
        return Commands.BAD_INPUT;
    }

    /** Runs {@code body}, turning input errors into a message and exit code 2. */
    static int guarded(Commands.Context ctx, String what, Callable<Integer> body) {
        try {
            return body.call();
        } catch (InvalidChoiceException e) {
            // a parameter's error names it as the user wrote it on the command line
            ctx.err().println("hmsim " + what + ": " + (e.parameter() != null && !e.getMessage().startsWith("unknown parameter") ? "--param " + e.parameter() + ": " : "") + e.getMessage());
            return Commands.BAD_INPUT;
        } catch (TraceException | WorkloadFileException e) {
            ctx.err().println(e.getMessage());
            return Commands.BAD_INPUT;
        } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
            ctx.err().println("hmsim " + what + ": " + e.getMessage());
            return Commands.BAD_INPUT;
        } catch (Exception e) {
            ctx.err().println("hmsim " + what + ": " + e);
            return Commands.ERROR;
        }
    }

    @Command(name = "record", mixinStandardHelpOptions = true, description = "Writes a built-in or file-described workload as a trace.")
    static final class Record implements Callable<Integer> {
        private final Commands.Context ctx;

        @Parameters(index = "0", paramLabel = "WORKLOAD", description = "a workload name (hmsim workloads) or a workload file (.yaml)")
        String workload;

        @Option(names = "--param", paramLabel = "K=V", description = "a workload parameter (repeatable)")
        List<String> params = new ArrayList<>();

        @Option(names = "--seed", description = "the seed the workload is generated with (default ${DEFAULT-VALUE})", defaultValue = "1")
        long seed;

        @Mixin
        TraceOutput output;

        Record(Commands.Context ctx) { this.ctx = ctx; }

        @Override
        public Integer call() {
            return guarded(ctx, "trace record", () -> {
                Map<String, Object> given = new LinkedHashMap<>();
                for (String kv : params) {
                    int eq = kv.indexOf('=');
                    if (eq <= 0) throw new IllegalArgumentException("--param expects KEY=VALUE, found '" + kv + "'");
                    if (given.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim()) != null)
                        throw new IllegalArgumentException("--param " + kv.substring(0, eq).trim() + " is given twice");
                }
                WorkloadChoice choice = ctx.kernel().workloads().resolveNameOrFile(workload, given);
                Workload w = choice.create(seed);
                output.check();
                if (org.hmsim.platform.kernel.registry.WorkloadRegistry.namesAFile(workload)) TraceOutput.notTheInput(output.out, Path.of(workload));
                TraceSink sink = Traces.writer(output.out, output.text);
                boolean ok = false;
                long n;
                try {
                    n = TraceRecorder.record(w, sink, 50_000_000_000L);
                    ok = true;
                } finally {
                    Traces.finish(sink, ok);
                }
                ctx.out().println("recorded " + choice.label() + " (seed " + seed + "): " + n + " warp instructions -> " + output.out
                        + " (" + Files.size(output.out) + " bytes)");
                int phases = hostPhases(choice.create(seed));
                if (phases > 0) // said, not silent: a traced run on a machine with a CPU side differs from the workload's
                    ctx.err().println("warning: " + choice.label() + " has " + phases + " host (CPU) phase" + (phases == 1 ? "" : "s")
                            + ", which a trace does not record: on a machine with a cpu: section the trace runs the GPU kernels only");
                return Commands.OK;
            });
        }
    }

    /** How many host phases {@code w} has. */
    static int hostPhases(Workload w) { return w.hostPhases(WorkloadChoice.nominalBases(w.allocations())).size(); }

    @Command(name = "import", mixinStandardHelpOptions = true, description = "Converts a foreign trace (accel-sim, nvbit, lackey) to an hmsim trace.")
    static final class Import implements Callable<Integer> {
        private final Commands.Context ctx;

        @Parameters(index = "0", paramLabel = "FORMAT", description = "accel-sim (a folder with kernelslist.g), nvbit (mem_trace output) or lackey")
        String format;

        @Parameters(index = "1", paramLabel = "IN", description = "the input file or folder")
        Path in;

        @Mixin
        TraceOutput output;

        Import(Commands.Context ctx) { this.ctx = ctx; }

        @Override
        public Integer call() {
            return guarded(ctx, "trace import", () -> {
                if (format.equalsIgnoreCase("hmsim")) throw new IllegalArgumentException("use 'hmsim trace convert' for hmsim traces");
                output.check();
                TraceOutput.notTheInput(output.out, in);
                Traces.convert(format, in, output.out, output.text);
                ctx.out().println("imported " + format + " " + in + " -> " + output.out + " (" + Files.size(output.out) + " bytes)");
                return Commands.OK;
            });
        }
    }

    @Command(name = "convert", mixinStandardHelpOptions = true, description = "Converts an hmsim trace between the binary format and its text twin.")
    static final class Convert implements Callable<Integer> {
        private final Commands.Context ctx;

        @Parameters(index = "0", paramLabel = "IN", description = "a binary or text hmsim trace")
        Path in;

        @Option(names = "--out", required = true, paramLabel = "FILE", description = "the trace to write")
        Path out;

        @Option(names = "--text", description = "write text (default: the opposite of the input: text for a binary input, binary for text)")
        Boolean text;

        Convert(Commands.Context ctx) { this.ctx = ctx; }

        @Override
        public Integer call() {
            return guarded(ctx, "trace convert", () -> {
                TraceOutput.check(out);
                TraceOutput.notTheInput(out, in); // converting in place would replace the input with its other form
                boolean toText = text != null ? text : TraceWorkloadProvider.isBinary(in, in.toString());
                Traces.convert("hmsim", in, out, toText);
                ctx.out().println("converted " + in + " -> " + out + (toText ? " (text)" : " (binary)") + ", " + Files.size(out) + " bytes");
                return Commands.OK;
            });
        }
    }

    @Command(name = "info", mixinStandardHelpOptions = true, description = "Describes an hmsim binary trace: allocations, kernels, CPU phases.")
    static final class Info implements Callable<Integer> {
        private final Commands.Context ctx;

        @Parameters(index = "0", paramLabel = "FILE")
        Path file;

        Info(Commands.Context ctx) { this.ctx = ctx; }

        @Override
        public Integer call() {
            return guarded(ctx, "trace info", () -> {
                PrintStream o = ctx.out();
                try (TraceFile f = TraceFile.open(file)) {
                    o.println(file + ": workload " + f.workloadName() + ", " + Files.size(file) + " bytes");
                    for (TraceAllocation a : f.allocations())
                        o.println("  alloc " + a.name() + " " + a.bytes() + " B at 0x" + Long.toHexString(a.base()) + " " + a.hint() + (a.readOnly() ? " read-only" : "") + (a.compressionRatio() != 0 ? " compression ratio " + a.compressionRatio() : ""));
                    for (TraceFile.Item i : f.items()) {
                        if (i instanceof TraceFile.KernelItem k)
                            o.println("  kernel " + k.shape().name() + " grid " + k.shape().gridX() + "x" + k.shape().gridY() + "x" + k.shape().gridZ() + " block "
                                    + k.shape().blockX() + "x" + k.shape().blockY() + "x" + k.shape().blockZ() + ": " + k.instructions() + " warp instructions, "
                                    + k.memoryInstructions() + " memory, " + f.ctasWithInstructions(k) + " of " + k.shape().ctas() + " blocks traced");
                        else if (i instanceof TraceFile.CpuPhaseItem c) o.println("  cpu phase " + c.name() + ": " + c.accesses() + " accesses");
                    }
                }
                return Commands.OK;
            });
        }
    }

    /** The trace a command writes: {@code --out FILE}, binary unless {@code --text}. */
    static final class TraceOutput {
        @Option(names = "--out", required = true, paramLabel = "FILE", description = "the trace to write")
        Path out;

        @Option(names = "--text", description = "write the text twin instead of the binary format")
        boolean text;

        void check() { check(out); }

        /**
         * The trace must not be written over what it is made from: the input file itself, or a file of an input folder
         * (an Accel-Sim trace's kernelslist.g); said before anything is written.
         */
        static void notTheInput(Path out, Path in) throws java.io.IOException {
            // a pipe (/dev/stdin, <(...)) is no file a trace could be written over: its real path, pipe:[N], does not
            // exist, and resolving it failed the import as an internal error (a trace trial)
            if (!Files.exists(in) || !Files.isRegularFile(in) && !Files.isDirectory(in)) return;
            Path input = in.toRealPath(), parent = out.toAbsolutePath().normalize().getParent();
            Path target = parent != null && Files.isDirectory(parent) ? parent.toRealPath().resolve(out.getFileName()) : out.toAbsolutePath().normalize();
            if (target.equals(input) || (Files.exists(out) && Files.isSameFile(in, out)))
                throw new IllegalArgumentException("--out " + out + " is the input itself: write the trace to another file");
            if (Files.isDirectory(input) && target.startsWith(input))
                throw new IllegalArgumentException("--out " + out + " lies inside the input folder " + in + ": write the trace outside it");
        }

        /** A folder (or a path under a file) cannot take the trace; said before anything is written. */
        static void check(Path out) {
            if (Files.isDirectory(out)) throw new IllegalArgumentException("--out " + out + " is a folder: name the trace file to write");
            Path parent = out.toAbsolutePath().getParent();
            if (parent != null && Files.exists(parent) && !Files.isDirectory(parent))
                throw new IllegalArgumentException("--out " + out + ": " + parent + " is a file, not a folder");
        }
    }
}
