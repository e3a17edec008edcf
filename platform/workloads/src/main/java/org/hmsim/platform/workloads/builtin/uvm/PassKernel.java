package org.hmsim.platform.workloads.builtin.uvm;

import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.platform.workloads.SimpleKernel;

/** A kernel with the compile-time data-sharing flag of seed 002 §4.4 (uses a pointer an earlier kernel used). */
final class PassKernel implements Kernel {
    private final SimpleKernel k;
    private final boolean shares;

    PassKernel(SimpleKernel k, boolean shares) {
        this.k = k;
        this.shares = shares;
    }

    @Override public String name() { return k.name(); }
    @Override public int ctas() { return k.ctas(); }
    @Override public int threadsPerCta() { return k.threadsPerCta(); }
    @Override public boolean sharesData() { return shares; }
    @Override public WarpProgram program(int cta, int warp) { return k.program(cta, warp); }
    @Override public String toString() { return k + (shares ? " (shares data)" : ""); }
}
