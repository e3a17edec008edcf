package org.hmsim.launcher;

import java.util.List;

/** What {@code hmsim --help} prints. The commands' own options come from the kernel ({@code hmsim run --help}). */
final class Usage {
    /** Commands the kernel answers headless; anything else is a typo and gets exit code 2. */
    static final List<String> HEADLESS = List.of("run", "validate", "policies", "workloads", "bench", "status", "stop", "report", "compare", "swap", "conform", "collect", "run-task", "trace", "replay", "--version", "-V");

    private Usage() {}

    static String text() {
        return String.join(System.lineSeparator(),
                "usage: hmsim COMMAND [ARGS]",
                "",
                "Simulator platform for heterogeneous CPU-GPU memory systems, on Apache Felix.",
                "",
                "commands:",
                "  run STUDY [--out DIR] [--jobs N] [--resume]   run a study headless; results in --out",
                "                                               (default results/<study>/)",
                "  validate STUDY                               check a study without running it",
                "  policies                                     every slot, its policies, bundles, versions, parameters",
                "  workloads [NAME]                             the workloads and their parameters; NAME: its allocations too",
                "  report RESULTS_DIR [--out DIR]               report.html and figures/ of a results folder",
                "                                               (also written at the end of run; --no-report skips it)",
                "  compare DIR_A DIR_B [--tolerance 0.02]       figures side by side, differences flagged;",
                "                                               exit 0 nothing moved, 1 something moved;",
                "                                               --over-seeds: each configuration over its seeds",
                "  bench [--repeat N]                           the simulator's speed benchmark (README, Performance)",
                "  trace record WORKLOAD [--param K=V]... --out FILE [--text]   a workload as a trace (docs/traces.md)",
                "  trace import accel-sim|nvbit|lackey IN --out FILE         a foreign trace as an hmsim trace",
                "  trace convert IN --out FILE | trace info FILE             binary <-> text; what a trace holds",
                "  replay TRACE --cache l1:size=32KB,ways=8,line=64 [--cache l2:...]   hits/misses per cache level",
                "  status | stop                                the study running in this container (the shell's sim:status,",
                "                                               sim:stop); headless, give the folder: status DIR",
                "  swap RUN SLOT POLICY[@VERSION] [param=value]...   a running run's policy, at its next safe point",
                "                                               (in the shell, sim:swap, while sim:run runs the study)",
                "  conform SLOT POLICY --machine FILE            a plugin's policy against the contract (docs/writing-a-mechanism.md)",
                "  run STUDY --executor slurm [--partition P] [--array-chunk N] [--sbatch-arg ARG]...",
                "                                               submit the study as a Slurm job array (docs/slurm.md)",
                "  status DIR | collect DIR                     a results folder's runs (and its job); assemble runs.csv",
                "  shell                                        the interactive Gogo shell with the sim: commands;",
                "                                               install/start/uninstall bundles as in any Felix;",
                "                                               leave it with Ctrl-D (or: exit 0); it exits with the code",
                "                                               of the last sim: command that failed, 2 after a command",
                "                                               Gogo could not run (a typo), 4 if it stopped a study in",
                "                                               flight, 0 if nothing failed; exit N ends it with N",
                "",
                "  hmsim COMMAND --help                         a command's options",
                "  hmsim --version                              the version of the installed kernel",
                "",
                "folders (under the installation, HMSIM_HOME):",
                "  plugins/   drop a mechanism bundle here: it is installed and started (removed: uninstalled)",
                "  conf/      config.properties (Felix, FileInstall), logging.properties (slf4j-simple)",
                "  bundle/    the bundles of the platform",
                "",
                "environment: HMSIM_JAVA_OPTS  options for the JVM, e.g. -Xmx8g; -Dhmsim.plugins=DIR watches",
                "                              another hot-deploy folder instead of plugins/",
                "exit codes:  0 ok, 1 internal error (compare: something moved), 2 bad input or usage (or a",
                "             results folder that cannot be written, a full disk), 3 some runs failed,",
                "             4 stopped (sim:stop) before every run finished");
    }
}
