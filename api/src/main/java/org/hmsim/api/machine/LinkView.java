package org.hmsim.api.machine;

/** A point-to-point link (GPU–CPU coherent link, PCIe, GPU–GPU) with two independent directions. */
@org.osgi.annotation.versioning.ProviderType
public interface LinkView extends Component {
    /** Peak payload-plus-header bandwidth of one direction, bytes per second. */
    double bytesPerSecondPerDirection();

    long latencyPs();

    /** Bytes that crossed in the given direction (0 = downstream, 1 = upstream), headers included. */
    long wireBytes(int direction);
}
