package org.hmsim.platform.kernel.results;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hmsim.platform.kernel.study.Study;

/**
 * study.json: what produced the results — hmsim's version, every installed bundle, the Java runtime, the
 * study file's hash, the seeds, and when it ran (wall time is allowed here, never in runs.csv).
 */
public final class Provenance {
    private Provenance() {}

    /** As the execution that began {@code dir} recorded it: the swaps it replayed, if any, stay recorded (collect rewrites it). */
    public static void write(Path dir, Study study, Environment env, Instant started, Instant finished, String status) {
        write(dir, study, env, started, finished, status, recordedReplaySource(dir));
    }

    /**
     * {@code replaySource}: the results folder whose recorded swaps the execution replays ({@code --replay-swaps}), or
     * null; a resume must name the same (a resume without it had run the rest unswapped: a determinism trial).
     */
    public static void write(Path dir, Study study, Environment env, Instant started, Instant finished, String status, String replaySource) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("study", study.name());
        p.put("study_file", study.display());
        p.put("study_sha256", study.sha256());
        p.put("hmsim_version", env.hmsimVersion());
        p.put("source_commit", env.sourceCommit()); // the checkout the kernel was built from ("" where the build had no git)
        p.put("java_version", System.getProperty("java.version"));
        p.put("java_vendor", System.getProperty("java.vendor"));
        p.put("seeds", study.seeds());
        p.put("runs", study.runs().size());
        p.put("shape", study.shape());
        p.put("notes", study.notes()); // what validation noted: runs that act on nothing, or repeat others
        // the machine files as read (a preset edited between two executions shows here)
        Map<String, String> machines = new LinkedHashMap<>();
        for (org.hmsim.platform.kernel.study.PlannedRun r : study.runs())
            machines.putIfAbsent(r.machine().file(), r.machine().fileSha256());
        List<Map<String, String>> machineFiles = new ArrayList<>();
        machines.forEach((f, sha) -> {
            Map<String, String> m = new LinkedHashMap<>();
            m.put("file", f);
            m.put("sha256", sha);
            machineFiles.add(m);
        });
        p.put("machine_files", machineFiles);
        List<Map<String, String>> bundles = new ArrayList<>();
        for (Environment.BundleInfo b : env.bundles()) {
            Map<String, String> m = new LinkedHashMap<>();
            m.put("symbolic_name", b.symbolicName());
            m.put("version", b.version());
            bundles.add(m);
        }
        p.put("bundles", bundles);
        p.put("swaps", study.swaps());
        p.put("replay_swaps_from", replaySource);
        p.put("report", study.report());
        p.put("started", started.toString());
        // a resumed folder keeps when its first execution started and counts the executions that wrote it: study.json
        // described the last one alone, and an artifact reader could not tell the folder was made in several (a trial)
        Map<String, Object> earlier = recorded(dir);
        String then = text(earlier.get("started")), first = text(earlier.get("first_started")), count = text(earlier.get("executions"));
        p.put("first_started", first != null ? first : then != null ? then : started.toString());
        int executions = count == null ? 1 : (int) Double.parseDouble(count);
        p.put("executions", then != null && !then.equals(started.toString()) ? executions + 1 : executions);
        p.put("finished", finished == null ? null : finished.toString());
        p.put("status", status);
        AtomicFiles.write(dir.resolve(ResultsFolder.PROVENANCE), Json.write(p));
    }

    /** The study hash recorded by an earlier execution in {@code dir}, or null. */
    public static String recordedSha(Path dir) { return recorded(dir, "study_sha256"); }

    /** The hmsim build (the kernel bundle's version, which carries its build time) that wrote {@code dir}'s study.json, or null. */
    public static String recordedVersion(Path dir) { return recorded(dir, "hmsim_version"); }

    /**
     * How the build {@code env} differs from the one that wrote {@code dir}'s study.json, or null: its version (the kernel
     * bundle's, whose qualifier is its build time to the minute) and the commit it was built from ({@code git describe},
     * "-dirty" with local changes), as far as study.json records them: two builds of one minute from other sources, or a
     * clean and a dirty build of one commit, had passed as one. A study.json of a build before source_commit was recorded
     * says nothing of it. Two dirty builds of one commit made in one minute stay indistinguishable: nothing records more.
     */
    public static String buildDifference(Path dir, Environment env) {
        List<String> differ = new ArrayList<>();
        String version = recordedVersion(dir), commit = recorded(dir, "source_commit");
        if (version != null && !version.equals(env.hmsimVersion())) differ.add("hmsim_version " + version + " then, " + env.hmsimVersion() + " now");
        // an empty commit is unknown (built without git, or a kernel outside OSGi): nothing to tell a build by, the version
        // still compared (a review: a folder with a commit was called another build by a kernel that knew none)
        if (commit != null && !commit.isEmpty() && !env.sourceCommit().isEmpty() && !commit.equals(env.sourceCommit()))
            differ.add("source_commit " + commit + " then, " + env.sourceCommit() + " now");
        return differ.isEmpty() ? null : String.join("; ", differ);
    }

    /** The folder whose swaps the execution that began {@code dir} replayed ({@code --replay-swaps}), or null. */
    public static String recordedReplaySource(Path dir) { return recorded(dir, "replay_swaps_from"); }

    /** The shape of the study ("1 machine x 2 workloads x ... = N runs") study.json records, or null. */
    public static String recordedShape(Path dir) { return recorded(dir, "shape"); }

    /** The study's name study.json records, or null (none, or unreadable). */
    public static String recordedStudy(Path dir) { return recorded(dir, "study"); }

    private static String recorded(Path dir, String key) { return text(recorded(dir).get(key)); }

    /** {@code dir}'s study.json as read (empty: none, or unreadable). */
    private static Map<String, Object> recorded(Path dir) {
        Path f = dir.resolve(ResultsFolder.PROVENANCE);
        if (!java.nio.file.Files.isRegularFile(f)) return Map.of();
        try {
            return Json.read(f);
        } catch (RuntimeException e) {
            return Map.of();
        }
    }

    private static String text(Object v) { return v == null ? null : v.toString(); }
}
