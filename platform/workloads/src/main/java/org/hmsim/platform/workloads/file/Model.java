package org.hmsim.platform.workloads.file;

import java.util.List;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.platform.workloads.expr.Expr;

/** The parsed, checked content of a workload file (expressions compiled, names resolved). */
final class Model {
    record Param(String name, long def, long min, long max, String doc) {}

    /** Generated values of an index array: uniform or Zipf over [0, range). */
    record Contents(boolean zipf, double s, Expr range) {}

    record Allocation(String name, Expr size, Y sizeNode, AllocationHint hint, boolean readOnly, int elem, Contents contents, double compressionRatio) {}

    record Kernel(String name, Expr gridX, Expr gridY, Expr blockX, Expr blockY, Expr shared, Expr repeat, Expr loop,
                  List<Step> steps, Y node, java.util.Map<String, Y> fields) {
        /** Where an error about {@code field} points: the field's own node, or the kernel's where it took its default. */
        Y at(String field) { return fields.getOrDefault(field, node); }
    }

    enum StepKind { LOAD, STORE, ATOMIC, COMPUTE, BARRIER, WAIT }

    enum Pattern { INDEX, RANDOM, INDIRECT }

    /**
     * One step of a thread's program. Memory steps compute an element index by {@link #pattern}, then
     * the address base(alloc) + index x elem. For INDIRECT, {@link #index} is the position in the
     * index array {@link #through}; the gathered element is its generated value.
     */
    record Step(StepKind kind, Expr cycles, boolean waits, int alloc, int elem, Pattern pattern, Expr index, Expr when,
                boolean wrap, boolean zipf, double s, Expr range, int through, boolean loadIndex,
                String file, int line, int column, String path) {
        boolean memory() { return kind == StepKind.LOAD || kind == StepKind.STORE || kind == StepKind.ATOMIC; }

        WorkloadFileException error(String problem) { return new WorkloadFileException(file, line, column, path, problem); }
    }

    final String name;
    final String description;
    final List<Param> params;
    final Expr iterations;
    final List<Allocation> allocations;
    final List<Kernel> kernels;
    final String file;
    /** Where {@code iterations} is written, for its errors; null when absent (1). Set after construction. */
    Y iterationsNode;
    /** Host (CPU) phases of the {@code host:} list; set after construction (empty when absent). */
    List<HostSpec> host = List.of();

    /** One host phase: runs before launch {@code before} (-1 = after the last kernel), or while it runs ({@code alongside}); {@code at}: its {@code before:} or {@code alongside:} value, where an error points. */
    record HostSpec(int before, boolean alongside, String name, int compute, List<HostStream> streams, Y at) {}

    /** A CPU stream over allocation {@code alloc}: every {@code stride} bytes, reads or writes. */
    record HostStream(int alloc, boolean write, int stride) {}

    Model(String name, String description, List<Param> params, Expr iterations, List<Allocation> allocations,
          List<Kernel> kernels, String file) {
        this.name = name;
        this.description = description;
        this.params = params;
        this.iterations = iterations;
        this.allocations = allocations;
        this.kernels = kernels;
        this.file = file;
    }
}
