package org.hmsim.platform.kernel.command;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hmsim.platform.kernel.study.PlannedRun;
import org.hmsim.platform.kernel.study.Study;
import org.hmsim.platform.kernel.study.StudyException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code validate STUDY [--runs]}: exactly the checks {@code run} makes before it starts. */
@Command(name = "validate", mixinStandardHelpOptions = true, description = "Checks a study (machines of every sweep point, workloads, policies, parameters) without running it; "
        + "given a workload file, checks it built with its parameters' defaults.")
final class ValidateCommand implements Callable<Integer> {
    private final Commands.Context ctx;

    @Parameters(index = "0", paramLabel = "STUDY", description = "the study file (YAML), or a workload file")
    Path study;

    @Option(names = "--runs", description = "also list every planned run")
    boolean list;

    ValidateCommand(Commands.Context ctx) { this.ctx = ctx; }

    @Override
    public Integer call() {
        try {
            if (org.hmsim.platform.kernel.study.WorkloadFileCheck.looksLikeWorkloadFile(study)) { // not a study: said as one's errors
                ctx.out().println(org.hmsim.platform.kernel.study.WorkloadFileCheck.check(ctx.kernel().workloads(), study, study.toString()));
                return Commands.OK;
            }
            Study s = ctx.kernel().validate(study);
            ctx.out().println(s.display() + ": study " + s.name() + " is valid: " + s.shape());
            for (String n : s.notes()) ctx.out().println(s.display() + ": note: " + n);
            if (list) for (PlannedRun r : s.runs()) ctx.out().println("  " + r.id() + " " + r.label());
            return Commands.OK;
        } catch (StudyException e) {
            // a container stopping under a long validation takes the policies' bundles away first: their absence is not the study's fault
            if (ctx.kernel().closing() || org.hmsim.platform.kernel.runner.RunWorker.shuttingDown()) {
                ctx.err().println("validate: stopped before the end (the container is shutting down): the study was not fully checked");
                return Commands.ERROR;
            }
            ctx.err().println(e.getMessage());
            return Commands.BAD_INPUT;
        }
    }
}
