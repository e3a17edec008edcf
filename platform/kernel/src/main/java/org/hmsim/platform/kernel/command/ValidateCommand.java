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
        + "given a workload file, checks it built with its parameters' defaults; given a machine file, checks it.")
final class ValidateCommand implements Callable<Integer> {
    private final Commands.Context ctx;

    @Parameters(index = "0", paramLabel = "STUDY", description = "the study file (YAML), or a workload or machine file")
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
            if (looksLikeMachineFile(study)) return validateMachine();
            Study s = ctx.kernel().validate(study);
            ctx.out().println(s.display() + ": study " + s.name() + " is valid: " + s.shape());
            for (String n : s.notes()) ctx.out().println(s.display() + ": note: " + n);
            if (list) for (PlannedRun r : s.runs()) ctx.out().println("  " + r.id() + " " + r.label());
            return Commands.OK;
        } catch (java.io.IOException e) {
            ctx.err().println("validate: cannot check " + study + " as a machine file: " + e.getMessage());
            return Commands.ERROR;
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

    /**
     * A machine file (top-level {@code gpu} or {@code pools}, no {@code study}): it was read as a study, and said so
     * only as seven unknown and missing keys (a trial). Checked as a study of it with the {@code stream} workload would
     * check it, so its errors are the same, each at its line of the machine file.
     */
    static boolean looksLikeMachineFile(Path file) {
        try (java.io.Reader r = java.nio.file.Files.newBufferedReader(file, java.nio.charset.StandardCharsets.UTF_8)) {
            Object top = new org.yaml.snakeyaml.Yaml().load(r);
            return top instanceof java.util.Map<?, ?> m && !m.containsKey("study") && (m.containsKey("gpu") || m.containsKey("pools"));
        } catch (java.io.IOException | RuntimeException notYaml) {
            return false; // the study parser says what is wrong with it
        }
    }

    private int validateMachine() throws StudyException, java.io.IOException {
        Path dir = java.nio.file.Files.createTempDirectory("hmsim-validate");
        try {
            Path probe = java.nio.file.Files.writeString(dir.resolve("machine-check.yaml"), "study: machine-check\nmachine: '"
                    + study.toAbsolutePath().toString().replace("'", "''") + "'\nworkloads: [stream]\n");
            Study s = ctx.kernel().validate(probe);
            org.hmsim.platform.machine.MachineConfig m = s.runs().get(0).machine().config();
            ctx.out().println(study + ": machine file is valid: " + m.gpus() + " GPU" + (m.gpus() == 1 ? "" : "s") + " of " + m.gpu().sms()
                    + " SMs, pools " + String.join(", ", m.pools().stream().map(p -> p.name()).toList()));
            return Commands.OK;
        } finally {
            org.hmsim.platform.kernel.results.AtomicFiles.deleteTree(dir);
        }
    }
}
