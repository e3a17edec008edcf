package org.hmsim.api.machine;

/**
 * A point-to-point link (GPU–CPU coherent link, PCIe, GPU–GPU) with two independent directions: direction 0 carries
 * from node {@link #nodeA()} to node {@link #nodeB()} (the machine file's {@code between: [a, b]}), direction 1 back.
 * Nodes are numbered as the machine's pools' {@link PoolInfo#node()}: GPU g is node g, the CPU node
 * {@link MachineView#gpuCount()}.
 */
@org.osgi.annotation.versioning.ProviderType
public interface LinkView extends Component {
    /** Peak payload-plus-header bandwidth of one direction, bytes per second. */
    double bytesPerSecondPerDirection();

    long latencyPs();

    /** Bytes that crossed in the given direction (0 = from {@link #nodeA()} to {@link #nodeB()}, 1 = back), headers included. */
    long wireBytes(int direction);

    /**
     * The node at end A (direction 0 leaves it): a link-aware policy (a CTA scheduler steering blocks away from a
     * loaded GPU pair, an interleave keeping pages off a busy link) finds which GPUs a link joins here. -1 where the
     * machine does not say. Since api.machine 1.5.0.
     */
    default int nodeA() { return -1; }

    /** The node at end B (direction 0 reaches it); -1 where the machine does not say. Since api.machine 1.5.0. */
    default int nodeB() { return -1; }

    /**
     * Picoseconds the given direction has spent serialising packets so far: its utilisation over an interval is the
     * difference of two readings over the interval's length (what {@code link_utilisation_*} report for the whole run).
     * -1 where the machine does not say. Since api.machine 1.5.0.
     */
    default long busyPs(int direction) { return -1; }
}
