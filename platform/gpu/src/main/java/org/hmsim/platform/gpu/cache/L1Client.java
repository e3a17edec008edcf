package org.hmsim.platform.gpu.cache;

/** The SM behind an L1: told when loads complete, stores are acknowledged and a refused access may retry. */
public interface L1Client {
    /** One line request of a load (or atomic) of warp slot {@code warp} has its data. */
    void onLoadData(int warp);

    /** A store of warp slot {@code warp} was acknowledged by the L2. */
    void onStoreAck(int warp);

    /** The L1 (MSHRs, merge slots or its crossbar port) that refused an access has room again. */
    void onL1Space();
}
