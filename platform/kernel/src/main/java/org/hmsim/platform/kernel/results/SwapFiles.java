package org.hmsim.platform.kernel.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.machine.ScriptedSwap;
import org.hmsim.platform.machine.ScriptedSwap.Choice;
import org.hmsim.platform.machine.ScriptedSwap.When;
import org.hmsim.platform.machine.SwapRecord;
import org.hmsim.platform.report.Csv;

/**
 * runs/&lt;run&gt;/swaps.csv: one row per live swap ({@link SwapRecord#HEADER}; the report draws a marker at
 * each {@code sim_time_ns}), written atomically after the run; and reading it back as swaps to replay.
 */
public final class SwapFiles {
    public static final String SWAPS = "swaps.csv";

    private SwapFiles() {}

    /** Writes the run's swaps (removes a stale file if there were none). */
    public static void write(Path runDir, List<SwapRecord> records) {
        Path f = runDir.resolve(SWAPS);
        if (records.isEmpty()) {
            try {
                Files.deleteIfExists(f);
            } catch (IOException e) {
                throw new ResultsWriteException("cannot remove", f, e); // the folder's fault, as a failed write is
            }
            return;
        }
        Csv csv = new Csv().row(List.of(SwapRecord.HEADER.split(",")));
        for (SwapRecord r : records) csv.row(r.cells());
        AtomicFiles.write(f, csv.toString());
    }

    /**
     * The swaps of a recorded run that its study's script does not reproduce (cause shell, bundle or
     * replay; outcome ok), as swaps at the end of the epoch where they were taken: outside requests enter
     * a run only at epoch ends, so the replay takes them at the same point of the event order. A file hmsim
     * could not have written (edited, truncated) throws {@link ResultsFolderException} naming its line and column.
     */
    public static List<ScriptedSwap> toReplay(Path runDir, long epochPs) {
        Path f = runDir.resolve(SWAPS);
        List<ScriptedSwap> out = new ArrayList<>();
        if (!Files.isRegularFile(f)) return out;
        List<List<String>> rows;
        try {
            rows = Csv.read(f);
        } catch (RuntimeException e) {
            throw new ResultsFolderException("cannot read " + f + ": " + e.getMessage());
        }
        if (rows.isEmpty()) return out;
        List<String> head = rows.get(0);
        int time = column(f, head, "sim_time_ns"), slot = column(f, head, "slot"), to = column(f, head, "to"),
                params = column(f, head, "params"), cause = column(f, head, "cause"), outcome = column(f, head, "outcome"),
                drain = column(f, head, "drain_sim_ns");
        // a swap waits for the drain of the one before it: until then its time may lie past the epoch end it was taken at
        long busyUntilPs = 0;
        for (int line = 2; line <= rows.size(); line++) {
            List<String> c = rows.get(line - 1);
            if (c.size() != head.size()) throw bad(f, line, "row", "has " + c.size() + " fields, the header " + head.size());
            double ns = time(f, line, "sim_time_ns", c.get(time));
            long rowPs = Math.round(ns * 1000);
            long rowDrainPs = c.get(drain).isEmpty() ? 0 : Math.round(time(f, line, "drain_sim_ns", c.get(drain)) * 1000);
            boolean outside = !"script".equals(c.get(cause));
            // an outside request is taken at an epoch end only: another time is a file hmsim did not write (or another epoch)
            if (outside && "ok".equals(c.get(outcome)) && rowPs % epochPs != 0 && rowPs > busyUntilPs)
                throw bad(f, line, "sim_time_ns", ns + " is not at an epoch end (the study's epoch is " + epochPs / 1000.0
                        + " ns), where a " + c.get(cause) + " swap is taken, so it cannot be replayed at the same point");
            busyUntilPs = Math.max(busyUntilPs, rowPs + rowDrainPs);
            if (refusedAfterDraining(c.get(outcome), rowDrainPs)) throw unreplayable(f, line, c.get(slot), c.get(to), ns, c.get(outcome));
            if (!"ok".equals(c.get(outcome)) || !outside) continue;
            Slot s = Slot.byId(c.get(slot));
            if (s == null) throw bad(f, line, "slot", "unknown slot '" + c.get(slot) + "'");
            if (c.get(to).isBlank()) throw bad(f, line, "to", "no policy named");
            long ps = Math.round(ns * 1000);
            Map<String, Object> p = new LinkedHashMap<>();
            if (!c.get(params).isEmpty()) for (String kv : c.get(params).split(";")) {
                int eq = kv.indexOf('=');
                if (eq <= 0) throw bad(f, line, "params", "'" + kv + "' is not NAME=VALUE");
                p.put(kv.substring(0, eq), value(kv.substring(eq + 1)));
            }
            // a ranking swap before anything ran (a better-ranked provider installed when the run started) is at time 0, and
            // one taken after its drain, before the first epoch end, too (as epoch 0, which never comes, it was lost: a review)
            boolean atStart = ps < epochPs;
            out.add(new ScriptedSwap(atStart ? When.TIME : When.EPOCH, atStart ? 0 : ps / epochPs, s, List.of(new Choice(c.get(to), p)), "replay"));
        }
        return out;
    }

    /**
     * Whether a row is a swap refused once its drain had stalled the GPUs or flushed the caches: the run's timing changed
     * although no policy did. Written {@code refused after draining: ...} since 2026-11-28; before, any refusal was
     * {@code refused: ...}, and one that drained shows a drain time.
     */
    static boolean refusedAfterDraining(String outcome, long drainPs) {
        return outcome.startsWith("refused after draining") || (outcome.startsWith("refused") && drainPs > 0);
    }

    /**
     * A replay carries out the swaps that took effect; a swap refused after its drain took none, but its drain changed the
     * timing, so the replay would give other numbers than the recorded run's without saying so.
     */
    private static ResultsFolderException unreplayable(Path f, int line, String slot, String to, double ns, String outcome) {
        return new ResultsFolderException(f + ":" + line + ": the " + slot + " swap to " + to + " at " + ns + " ns was refused after its drain ("
                + outcome + "); the drain changed the run's timing, which a replay (it carries out only the swaps that took effect) "
                + "does not reproduce, so this run cannot be replayed to the same numbers");
    }

    private static double time(Path f, int line, String field, String cell) {
        double ns;
        try {
            ns = Double.parseDouble(cell);
        } catch (NumberFormatException e) {
            throw bad(f, line, field, "'" + cell + "' is not a number");
        }
        if (!(ns >= 0) || Double.isInfinite(ns)) throw bad(f, line, field, ns + " is not a time in the run");
        return ns;
    }

    private static int column(Path f, List<String> head, String name) {
        int i = head.indexOf(name);
        if (i < 0) throw bad(f, 1, name, "the header has no such column (expected " + SwapRecord.HEADER + ")");
        return i;
    }

    private static ResultsFolderException bad(Path f, int line, String field, String problem) {
        return new ResultsFolderException(f + ":" + line + ": " + field + ": " + problem + " (not as hmsim wrote it)");
    }

    private static Object value(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            try {
                return Double.parseDouble(s);
            } catch (NumberFormatException e2) {
                return "true".equals(s) || "false".equals(s) ? Boolean.valueOf(s) : s;
            }
        }
    }
}
