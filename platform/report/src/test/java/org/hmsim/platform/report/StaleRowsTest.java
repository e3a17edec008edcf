package org.hmsim.platform.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A runs.csv whose rows are other runs than their ids name (copied from the same study with its sweep reordered) is
 * refused naming the row, the run, the column, what the run's config.json records and what the row holds: only a
 * missing row was caught, and the report drew run 0001's series (local) under the row's label (ratio).
 */
class StaleRowsTest {
    @TempDir
    Path dir;

    /** Run 0001 of {@link Synthetic}: stream, small, local, lru, 40GB/s, seed 1, as hmsim records it. */
    private static String config(String placement, String bandwidth, long seed, String label) {
        return config(placement, bandwidth, seed, label, "stream");
    }

    private static String config(String placement, String bandwidth, long seed, String label, String workload) {
        return "{\"run\":\"0001\",\"label\":\"" + label + "\",\"seed\":" + seed + ",\"sweep\":{\"pools.ddr.bandwidth\":\"" + bandwidth + "\"},"
                + "\"machine\":{\"name\":\"small\"},\"workload\":{\"name\":\"" + workload + "\",\"params\":{}},"
                + "\"policies\":{\"placement\":{\"name\":\"" + placement + "\",\"params\":{}},\"replacement\":{\"name\":\"lru\",\"params\":{}}}}";
    }

    @Test
    void rowsThatMatchTheirRunsConfigurationLoad() throws Exception {
        Path f = Synthetic.folder(dir.resolve("a"), null);
        Files.writeString(f.resolve("runs/0001/config.json"), config("local", "40GB/s", 1, "stream placement=local pools.ddr.bandwidth=40GB/s"));
        assertNull(Results.staleRow(f));
        assertEquals(8, Results.load(f).runs().size());
        // a damaged config.json is not this check's to name (--resume and collect do)
        Files.writeString(f.resolve("runs/0001/config.json"), "{\"run\":");
        assertNull(Results.staleRow(f));
    }

    @Test
    void aRowOfAnotherRunIsRefusedNamingRowRunColumnAndBothValues() throws Exception {
        Path f = Synthetic.folder(dir.resolve("a"), null);
        Path config = f.resolve("runs/0001/config.json");
        Files.writeString(config, config("interleave", "40GB/s", 1, "stream placement=interleave pools.ddr.bandwidth=40GB/s"));
        BadResultsException e = assertThrows(BadResultsException.class, () -> Results.load(f));
        assertEquals(f.resolve("runs.csv") + ": row 1 (after the header), run 0001, column slot.placement: runs/0001/config.json records policy"
                + " interleave, the row holds 'local': the file is out of date or another folder's (hmsim collect " + f + ", or hmsim run STUDY"
                + " --out " + f + " --resume, rebuilds it from runs/)", e.getMessage());
        assertThrows(BadResultsException.class, () -> Report.write(f, f));
        assertTrue(!Files.exists(f.resolve(Report.HTML)), "nothing written");

        Files.writeString(config, config("local", "80GB/s", 1, "stream placement=local pools.ddr.bandwidth=80GB/s"));
        assertTrue(Results.staleRow(f).contains("column pools.ddr.bandwidth: runs/0001/config.json records '80GB/s', the row holds '40GB/s'"),
                Results.staleRow(f));
        Files.writeString(config, config("local", "40GB/s", 2, "stream placement=local pools.ddr.bandwidth=40GB/s seed=2"));
        assertTrue(Results.staleRow(f).contains("column seed: runs/0001/config.json records 2, the row holds '1'"), Results.staleRow(f));
        Files.writeString(config, config("local", "40GB/s", 1, "bfs(nodes=64,x=1) placement=local pools.ddr.bandwidth=40GB/s", "bfs"));
        assertTrue(Results.staleRow(f).contains("column workload: runs/0001/config.json records workload bfs, the row holds 'stream'"),
                Results.staleRow(f));
        // a name that only begins with the same letters is another workload too
        Files.writeString(config, config("local", "40GB/s", 1, "streamx placement=local", "streamx"));
        assertTrue(Results.staleRow(f).contains("column workload: "), Results.staleRow(f));
        // the workload's parameters as another build labelled them (1e3 was 1000.0 before 2026-11-27) are no mismatch:
        // a folder collected by today's build from an older one's runs could otherwise never be reported (a review)
        Files.writeString(config, config("local", "40GB/s", 1, "stream(elements=1000.0) placement=local pools.ddr.bandwidth=40GB/s"));
        assertNull(Results.staleRow(f));
    }
}
