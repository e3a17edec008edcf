package org.hmsim.platform.kernel.executor;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Finding and calling a scheduler's command-line tools (sbatch, squeue, sacct). */
final class SchedulerTools {
    /** A scheduler command that hangs (controller down) must not hang hmsim. */
    private static final long TIMEOUT_S = 60;

    record Result(int code, String out, String err) {}

    private SchedulerTools() {}

    /**
     * The tool in the folder {@code -Dhmsim.slurm.bin} or {@code HMSIM_SLURM_BIN} if set, else on PATH;
     * null if it is nowhere.
     */
    static Path find(String tool) {
        String bin = System.getProperty("hmsim.slurm.bin");
        if (bin == null || bin.isBlank()) bin = System.getenv("HMSIM_SLURM_BIN");
        if (bin != null && !bin.isBlank()) {
            Path p = Path.of(bin, tool);
            return Files.isExecutable(p) ? p : null;
        }
        String path = System.getenv("PATH");
        if (path == null) return null;
        for (String d : path.split(File.pathSeparator)) {
            if (d.isBlank()) continue;
            Path p = Path.of(d, tool);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) return p;
        }
        return null;
    }

    static Result exec(Path dir, List<String> command) throws IOException, InterruptedException {
        Path out = Files.createTempFile("hmsim-sched", ".out"), err = Files.createTempFile("hmsim-sched", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            if (dir != null) pb.directory(dir.toFile());
            Process p = pb.start();
            if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(command.get(0) + " did not answer within " + TIMEOUT_S + " s");
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** Like {@link #exec}, null instead of an exception (status queries are best effort). */
    static Result execQuietly(List<String> command) {
        try {
            return exec(null, command);
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
