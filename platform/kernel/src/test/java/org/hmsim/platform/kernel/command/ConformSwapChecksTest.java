package org.hmsim.platform.kernel.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hmsim.platform.machine.SwapRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * conform's swap checks read the swap run's swaps.csv and files. Two trials' plugins passed them broken: one swapped in
 * and failed the run at its next L2 miss ("PASS swap in mid-run"), one whose exportState always threw (every check
 * passed); and a failed run was quoted by error.txt's header line, without its exception.
 */
class ConformSwapChecksTest {
    @TempDir
    Path run;

    private static final String IN = "10000,t,cta-scheduler,round-robin@1.0.0,mine@1.0.0,b,b,,scripted,0,1,-,ok";
    private static final String SELF = "20000,t,cta-scheduler,mine@1.0.0,mine@1.0.0,b,b,,scripted,0,1,0 state keys handed over,ok";
    private static final String SELF_NO_STATE = "20000,t,cta-scheduler,mine@1.0.0,mine@1.0.0,b,b,,scripted,0,1,\"exportState of the old policy failed"
            + " (java.lang.IllegalStateException: broken), the new one starts without state; 0 state keys handed over\",ok";

    private Path failed(String exception) throws Exception {
        return Files.writeString(run.resolve("error.txt"), "run 0001 (stream(elements=65536)) failed:\n" + exception + "\n\tat org.example.Mine.pickSm(Mine.java:12)\n");
    }


    @Test
    void aSwapInAfterWhichTheRunFailedFailsWithTheRunsException() throws Exception {
        failed("java.lang.IllegalStateException: the cta-scheduler policy picked SM 19");
        assertEquals("taken, then the run failed under it: java.lang.IllegalStateException: the cta-scheduler policy picked SM 19 (whole trace: "
                + run.resolve("error.txt") + ")", ConformCommand.swapInFailure(List.of(SwapRecord.HEADER, IN), run));
        assertNull(ConformCommand.swapInFailure(List.of(SwapRecord.HEADER, IN, SELF), run), "the run went on to the next swap");
        Files.writeString(run.resolve("stats.json"), "{}");
        assertNull(ConformCommand.swapInFailure(List.of(SwapRecord.HEADER, IN), run), "the run completed under it");
    }

    @Test
    void aSelfSwapWhoseExportStateThrewFails() {
        assertNull(ConformCommand.selfSwapFailure(List.of(SwapRecord.HEADER, IN, SELF)));
        assertEquals("exportState of the old policy failed (java.lang.IllegalStateException: broken)",
                ConformCommand.selfSwapFailure(List.of(SwapRecord.HEADER, IN, SELF_NO_STATE)));
        assertEquals("no such swap in swaps.csv (the run failed or ended first)", ConformCommand.selfSwapFailure(List.of(SwapRecord.HEADER, IN)));
    }

    @Test
    void aFailedRunIsQuotedByItsExceptionNotErrorTxtsHeader() throws Exception {
        failed("java.lang.IllegalArgumentException: no pool 'hbm'");
        assertEquals("java.lang.IllegalArgumentException: no pool 'hbm' (whole trace: " + run.resolve("error.txt") + ")", ConformCommand.failure(run.resolve("error.txt")));
    }
}
