package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real single-node Slurm cluster on localhost for the tests, private to one folder: Debian's
 * slurm-wlm and munge (installed by .ci/run), a generated munge key and slurm.conf, and munged,
 * slurmctld and slurmd started in the foreground on free ports. The client commands find it through
 * {@code SLURM_CONF} ({@link #env()}); {@link #stop()} cancels what is left and stops the three daemons
 * by their process ids. {@link #start} aborts the calling tests (a JUnit assumption, so they are
 * skipped with the reason) where this cannot be: not Linux, not root, Slurm or munge not installed,
 * or the daemons do not come up.
 */
final class LocalSlurm {
    private static final long START_S = 30;
    private static final List<String> SBIN = List.of("/usr/sbin", "/sbin", "/usr/local/sbin");

    private final Path dir;
    private final Path conf;
    private final List<Process> daemons = new ArrayList<>();
    private final Thread cleanup = new Thread(this::destroyAll, "local-slurm-cleanup");

    private LocalSlurm(Path dir) {
        this.dir = dir;
        this.conf = dir.resolve("slurm.conf");
    }

    /**
     * Starts the cluster in {@code tempDir/slurm}, or aborts the tests with the reason. {@code tempDir} is
     * a fresh temporary folder of the test: it is made searchable by all (munged checks its socket's path).
     */
    static LocalSlurm start(Path tempDir) throws Exception {
        Path dir = tempDir.resolve("slurm");
        Assumptions.assumeTrue(System.getProperty("os.name", "").toLowerCase().contains("linux"), "a local Slurm needs Linux");
        Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        Assumptions.assumeTrue(Integer.valueOf(0).equals(uid), "a local Slurm needs root (SlurmUser=root); running as uid " + uid);
        for (String tool : List.of("munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "sinfo"))
            Assumptions.assumeTrue(which(tool) != null,
                    tool + " is not installed: apt-get install slurm-wlm munge (.ci/run does it when it can)");
        LocalSlurm s = new LocalSlurm(Files.createDirectories(dir));
        Runtime.getRuntime().addShutdownHook(s.cleanup);
        try {
            s.boot();
        } catch (Exception | AssertionError e) {
            String logs = s.logs();
            s.stop();
            Assumptions.abort("a local Slurm could not be started (" + e.getMessage() + ")\n" + logs);
        }
        return s;
    }

    private void boot() throws Exception {
        // munged wants its socket folder (and the folders above it) searchable by all, its key private.
        Path munge = Files.createDirectories(dir.resolve("munge")), keys = Files.createDirectories(dir.resolve("munge-key"));
        Files.setPosixFilePermissions(dir.getParent(), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(munge, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString("rwx------"));
        byte[] key = new byte[1024];
        new SecureRandom().nextBytes(key);
        Path keyFile = Files.write(keys.resolve("munge.key"), key);
        Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-------"));
        Path socket = munge.resolve("munge.socket");
        if (socket.toString().length() > 100) throw new IOException("munge socket path too long for a UNIX socket: " + socket);
        Files.createDirectories(dir.resolve("state"));
        Files.createDirectories(dir.resolve("spool"));
        Files.createDirectories(dir.resolve("log"));
        Files.writeString(conf, conf(socket), StandardCharsets.UTF_8);

        daemon("munged", which("munged").toString(), "-F", "--key-file=" + keyFile, "--socket=" + socket,
                "--pid-file=" + munge.resolve("munged.pid"), "--seed-file=" + munge.resolve("munged.seed"),
                "--log-file=" + dir.resolve("log/munged.log"));
        await("munged's socket", () -> Files.exists(socket));
        daemon("slurmctld", which("slurmctld").toString(), "-D", "-f", conf.toString());
        daemon("slurmd", which("slurmd").toString(), "-D", "-N", "localhost", "-f", conf.toString());
        await("the node idle in sinfo", () -> {
            Result r = exec(10, "sinfo", "-h", "-n", "localhost", "-o", "%t");
            return r.code() == 0 && r.out().strip().equals("idle");
        });
    }

    /** slurm.conf of Slurm 22.05 (Debian 12) for one node, every path in this cluster's folder. */
    private String conf(Path mungeSocket) throws IOException {
        long memMb = 1024;
        for (String l : Files.readAllLines(Path.of("/proc/meminfo")))
            if (l.startsWith("MemTotal:")) memMb = Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024 / 2;
        int ctld, slurmd;
        try (ServerSocket a = new ServerSocket(0); ServerSocket b = new ServerSocket(0)) {
            ctld = a.getLocalPort();
            slurmd = b.getLocalPort();
        }
        return String.join("\n",
                "# generated by the hmsim itests (LocalSlurm): a private one-node cluster",
                "ClusterName=hmsimtest",
                "SlurmctldHost=localhost",
                "SlurmctldPort=" + ctld,
                "SlurmdPort=" + slurmd,
                "SlurmUser=root",
                "SlurmdUser=root",
                "AuthType=auth/munge",
                "AuthInfo=socket=" + mungeSocket,
                "CredType=cred/munge",
                "MpiDefault=none",
                "MailProg=/bin/true",
                // no cgroups: works in a container; slurmd tracks a task's processes by parent pid
                "ProctrackType=proctrack/linuxproc",
                "TaskPlugin=task/none",
                "SelectType=select/cons_tres",
                "SelectTypeParameters=CR_CPU",
                // the node as configured, whatever the hardware (a 1-core CI runner would drain it otherwise)
                "SlurmdParameters=config_overrides",
                "JobAcctGatherType=jobacct_gather/none",
                "AccountingStorageType=accounting_storage/none",
                "JobCompType=jobcomp/none",
                "ReturnToService=2",
                "KillWait=5",
                "StateSaveLocation=" + dir.resolve("state"),
                "SlurmdSpoolDir=" + dir.resolve("spool"),
                "SlurmctldPidFile=" + dir.resolve("slurmctld.pid"),
                "SlurmdPidFile=" + dir.resolve("slurmd.pid"),
                "SlurmctldLogFile=" + dir.resolve("log/slurmctld.log"),
                "SlurmdLogFile=" + dir.resolve("log/slurmd.log"),
                "NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 RealMemory=" + memMb + " State=UNKNOWN",
                "PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP",
                "");
    }

    /** What a client command (sbatch, hmsim) needs in its environment to reach this cluster. */
    Map<String, String> env() { return Map.of("SLURM_CONF", conf.toString()); }

    record Result(int code, String out) {}

    /** Runs a Slurm client command against this cluster (bounded in time). */
    Result exec(long timeoutS, String... command) throws IOException, InterruptedException {
        Path out = Files.createTempFile(dir, "cmd", ".out");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.environment().putAll(env());
            Process p = pb.start();
            if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(-1, String.join(" ", command) + " did not answer within " + timeoutS + " s");
            }
            return new Result(p.exitValue(), Files.readString(out));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** The state of each task of job {@code id} squeue knows, ended ones too ({@code 12_2,CANCELLED} lines). */
    String tasks(String id) throws Exception {
        Result r = exec(30, "squeue", "-h", "-t", "all", "-j", id, "-o", "%i,%T");
        return r.code() == 0 ? r.out().strip() : "";
    }

    /** Waits until no task of job {@code id} is pending or running (bounded). */
    void awaitJob(String id, long timeoutS) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        while (true) {
            Result r = exec(30, "squeue", "-h", "-t", "PENDING,RUNNING,CONFIGURING,COMPLETING,SUSPENDED", "-j", id, "-o", "%i,%T");
            if (r.code() == 0 && r.out().isBlank()) return;
            if (System.nanoTime() > deadline)
                fail("Slurm job " + id + " did not end within " + timeoutS + " s: " + r.out() + "\n" + logs());
            Thread.sleep(200);
        }
    }

    /** The tail of each daemon's log (for messages). */
    String logs() {
        StringBuilder b = new StringBuilder();
        try (var files = Files.list(dir.resolve("log"))) {
            for (Path f : files.sorted().toList()) {
                List<String> lines = Files.readAllLines(f, StandardCharsets.ISO_8859_1);
                b.append("--- ").append(f.getFileName()).append('\n');
                for (String l : lines.subList(Math.max(0, lines.size() - 15), lines.size())) b.append(l).append('\n');
            }
        } catch (IOException e) {
            b.append("(no logs: ").append(e.getMessage()).append(")\n");
        }
        return b.toString();
    }

    /** Cancels every job left on this private cluster, then stops slurmd, slurmctld and munged by pid. */
    void stop() {
        try {
            if (daemons.size() == 3) {
                Result jobs = exec(10, "squeue", "-h", "-o", "%A");
                for (String id : jobs.code() == 0 ? jobs.out().strip().split("\\s+") : new String[0])
                    if (!id.isBlank()) exec(10, "scancel", id);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
                while (System.nanoTime() < deadline && !exec(10, "squeue", "-h", "-o", "%A").out().isBlank()) Thread.sleep(200);
            }
        } catch (IOException e) {
            // stop the daemons anyway
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        destroyAll();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException e) {
            // already shutting down: the hook does it
        }
    }

    /** SIGTERM to each daemon by its pid (slurmd first), then SIGKILL to any that did not end. */
    private void destroyAll() {
        List<Process> reversed = new ArrayList<>(daemons);
        java.util.Collections.reverse(reversed);
        for (Process p : reversed) {
            p.destroy();
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    private void daemon(String name, String... command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("log/" + name + ".out").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().putAll(env());
        daemons.add(pb.start());
    }

    private interface Check {
        boolean ok() throws Exception;
    }

    private void await(String what, Check check) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_S);
        while (!check.ok()) {
            for (Process p : daemons)
                if (!p.isAlive()) throw new IOException(p.info().command().orElse("a daemon") + " exited with " + p.exitValue());
            if (System.nanoTime() > deadline) throw new IOException("no " + what + " within " + START_S + " s");
            Thread.sleep(200);
        }
    }

    /** The tool on PATH, or in an sbin folder (daemons), or null. */
    static Path which(String tool) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
        dirs.addAll(SBIN);
        for (String d : dirs) {
            if (d.isBlank()) continue;
            Path p = Path.of(d, tool);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) return p;
        }
        return null;
    }
}
