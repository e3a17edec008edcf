package org.hmsim.platform.kernel;

import org.hmsim.platform.kernel.command.Commands;
import org.hmsim.platform.kernel.command.SimKernel;
import org.hmsim.platform.kernel.results.Environment;

/**
 * The {@code bin/hmsim} of the Slurm tests' fake installation: the kernel's commands over the test
 * doubles (Fakes), in a JVM of its own, as an array task runs on a compute node.
 */
public final class FakeTaskMain {
    private FakeTaskMain() {}

    public static void main(String[] args) {
        SimKernel k = new SimKernel(Fakes.policies(), Fakes.workloads(), Environment.classpath(), Fakes.SIMULATOR);
        int code = new Commands(k).execute(args, System.out, System.err, false);
        System.out.flush();
        System.exit(code);
    }
}
