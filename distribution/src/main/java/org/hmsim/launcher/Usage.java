package org.hmsim.launcher;

import java.util.List;

/** What {@code hmsim --help} prints. The commands' own options come from the kernel ({@code hmsim run --help}). */
final class Usage {
    /** Commands the kernel answers headless; anything else is a typo and gets exit code 2. */
    static final List<String> HEADLESS = List.of("run", "validate", "policies", "workloads", "bench", "status", "stop", "report", "swap", "--version", "-V");

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
                "  workloads                                    the workloads and their parameters",
                "  bench                                        the simulator's speed benchmark",
                "  status | stop                                the studies running in this container",
                "  shell                                        the interactive Gogo shell with the sim: commands;",
                "                                               install/start/uninstall bundles as in any Felix;",
                "                                               leave it with Ctrl-D (or: exit 0)",
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
                "exit codes:  0 ok, 1 failure, 2 usage error");
    }
}
