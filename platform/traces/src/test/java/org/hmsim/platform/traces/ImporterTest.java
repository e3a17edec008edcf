package org.hmsim.platform.traces;

import org.hmsim.platform.machine.ClasspathPolicies;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.hmsim.api.policy.Params;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.traces.importer.AccelSimImporter;
import org.hmsim.platform.traces.importer.LackeyImporter;
import org.hmsim.platform.traces.importer.NvbitImporter;
import org.hmsim.platform.traces.text.TextTraceWriter;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The importers: small inputs written here, a malformed line in the middle of each, and the real Accel-Sim trace. */
class ImporterTest {
    @TempDir
    Path dir;

    static final String KERNEL_HEADER = String.join("\n",
            "-kernel name = vecadd", "-kernel id = 1", "-grid dim = (2,1,1)", "-block dim = (64,1,1)", "-shmem = 0",
            "-nregs = 8", "-binary version = 70", "-cuda stream id = 0", "-accelsim tracer version = 5", "-enable lineinfo = 0", "",
            "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate", "");

    private static String warp(int w, int cta) {
        long base = 0x7f0000000000L + cta * 256 + w * 128;
        return String.join("\n", "warp = " + w, "insts = 6",
                "0000 ffffffff 1 R1 MOV 0 0 0 ",
                "0010 ffffffff 1 R2 LDG.E.SYS 1 R4 4 1 0x" + Long.toHexString(base) + " 4 0 ",
                "0020 0000000f 1 R3 LDG.E.64.SYS 1 R4 8 2 0x" + Long.toHexString(base + 4096) + " 8 -16 1024 0 ",
                "0030 ffffffff 1 R5 FADD 2 R2 R1 0 0 ",
                "0040 00000003 0 STG.E.SYS 2 R4 R5 4 0 0x" + Long.toHexString(base + 8192) + " 0x" + Long.toHexString(base + 8200) + " 0 ",
                "0050 ffffffff 0 EXIT 0 0 0 ", "");
    }

    private Path accelSim(String badLine) throws IOException {
        Path d = dir.resolve("app");
        Files.createDirectories(d);
        Files.writeString(d.resolve("kernelslist.g"), "MemcpyHtoD,0x00007f0000000000,65536\nkernel-1.traceg\n");
        StringBuilder b = new StringBuilder(KERNEL_HEADER);
        for (int c = 0; c < 2; c++) {
            b.append("\n#BEGIN_TB\n\nthread block = ").append(c).append(",0,0\n\n");
            b.append(warp(0, c));
            if (c == 1 && badLine != null) b.append(badLine).append('\n');
            b.append(warp(1, c)).append("\n#END_TB\n");
        }
        Files.writeString(d.resolve("kernel-1.traceg"), b.toString());
        return d;
    }

    @Test
    void accelSimAddressModesAndDependencies() throws IOException {
        CollectingSink s = new CollectingSink();
        AccelSimImporter.importTrace(accelSim(null), s);
        List<String> e = s.events;
        assertEquals("kernel KernelShape[name=vecadd, gridX=2, gridY=1, gridZ=1, blockX=64, blockY=1, blockZ=1, sharedBytes=0]", e.get(1));
        // warp 0 of CTA 0: MOV -> compute 1; LDG base_stride; LDG.64 base_delta (lanes 0-3); FADD reads R2 (loaded) -> waits; STG list_all
        assertEquals("0/0 COMPUTE 1", e.get(2));
        assertEquals("0/0 LOAD size=4 mask=ffffffff 7f0000000000 7f0000000004", e.get(3).substring(0, e.get(3).indexOf(" 7f0000000008")));
        assertEquals("0/0 LOAD size=8 mask=f 7f0000001000 7f0000001008 7f0000000ff8 7f00000013f8", e.get(4));
        assertEquals("0/0 COMPUTE wait 1", e.get(5));
        assertEquals("0/0 STORE size=4 mask=3 7f0000002000 7f0000002008", e.get(6));
        assertEquals("0/1 COMPUTE 1", e.get(7));
        assertTrue(e.get(e.size() - 1).startsWith("alloc TraceAllocation[name=region0, bytes=65536"), e.get(e.size() - 1));
    }

    /**
     * The tracer writes {@code active & predicate}: a guarded {@code @P0 EXIT} of threads beyond the data shows as an
     * EXIT with mask 0 (or part of the warp), and the warp goes on. A review found every instruction after any EXIT
     * dropped, exit 0 and no message: such a kernel imported as almost pure compute.
     */
    @Test
    void accelSimInstructionsAfterAPartialOrEmptyExitAreKept() throws IOException {
        Path d = dir.resolve("exit");
        Files.createDirectories(d);
        Files.writeString(d.resolve("kernelslist.g"), "kernel-1.traceg\n");
        Files.writeString(d.resolve("kernel-1.traceg"), KERNEL_HEADER.replace("(2,1,1)", "(1,1,1)").replace("(64,1,1)", "(32,1,1)")
                + "\n#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = 5\n"
                + "0000 00000000 0 EXIT 0 0 0 \n"
                + "0010 ffffffff 1 R2 LDG.E.SYS 1 R4 4 1 0x7f0000000000 4 0 \n"
                + "0020 ffff0000 0 EXIT 0 0 0 \n"
                + "0030 0000ffff 0 STG.E.SYS 2 R4 R2 4 1 0x7f0000001000 4 0 \n"
                + "0040 0000ffff 0 EXIT 0 0 0 \n#END_TB\n");
        CollectingSink s = new CollectingSink();
        AccelSimImporter.importTrace(d, s);
        assertTrue(s.events.stream().anyMatch(e -> e.startsWith("0/0 LOAD size=4 mask=ffffffff 7f0000000000")), s.events.toString());
        assertTrue(s.events.stream().anyMatch(e -> e.startsWith("0/0 STORE wait size=4 mask=ffff 7f0000001000")), s.events.toString());
    }

    @Test
    void accelSimMalformedLineNamesFileAndLine() throws IOException {
        Path d = accelSim("0060 ffffffff 1 R2 LDG.E.SYS 1 R4 4 7 0x10 0 ");
        TraceException e = assertThrows(TraceException.class, () -> AccelSimImporter.importTrace(d, new CollectingSink()));
        assertTrue(e.getMessage().startsWith(d.resolve("kernel-1.traceg") + ":"), e.getMessage());
        long line = e.line();
        assertEquals("0060 ffffffff 1 R2 LDG.E.SYS 1 R4 4 7 0x10 0 ", Files.readAllLines(d.resolve("kernel-1.traceg")).get((int) line - 1));
        assertTrue(e.getMessage().endsWith("address compression mode 7 out of range [0, 2]"), e.getMessage());
        Path wide = accelSim("0060 1ffffffff 1 R2 LDG.E.SYS 1 R4 4 1 0x10 4 0 ");
        assertTrue(assertThrows(TraceException.class, () -> AccelSimImporter.importTrace(wide, new CollectingSink())).getMessage()
                .endsWith("bad active mask '1ffffffff' (a warp has 32 lanes: at most 8 hexadecimal digits of lanes)"), "not silently cut to 32 bits");
        // kernels compressed by the tracer are named as such, with what to do (a trace trial was told "unknown command")
        Path xz = accelSim(null);
        Files.writeString(xz.resolve("kernelslist.g"), "kernel-1.traceg.xz\n");
        assertTrue(assertThrows(TraceException.class, () -> AccelSimImporter.importTrace(xz, new CollectingSink())).getMessage()
                .endsWith("kernel trace 'kernel-1.traceg.xz' is xz-compressed: decompress the folder's kernels first (xz -d *.xz), then name them"
                        + " without .xz in kernelslist.g"));
        // a negative shared-memory size was read as 0 (a bad-input trial)
        Path neg = accelSim(null);
        Files.writeString(neg.resolve("kernel-1.traceg"), Files.readString(neg.resolve("kernel-1.traceg")).replace("-shmem = 0", "-shmem = -5"));
        assertTrue(assertThrows(TraceException.class, () -> AccelSimImporter.importTrace(neg, new CollectingSink())).getMessage()
                .endsWith(":5: shmem -5 out of range [0, 2147483647]"));
    }

    /** A copy of no bytes or fewer, and a memory width that is not an access size, are refused at their line (an audit). */
    @Test
    void accelSimCopySizesAndMemoryWidthsAreChecked() throws IOException {
        Path d = accelSim("0060 ffffffff 1 R2 LDG.E.SYS 1 R4 999 1 0x10 4 0 ");
        assertTrue(assertThrows(TraceException.class, () -> AccelSimImporter.importTrace(d, new CollectingSink())).getMessage()
                .endsWith("memory width 999 is not 0 or a power of two (bytes per thread)"));
        Path odd = accelSim("0060 ffffffff 1 R2 LDG.E.SYS 1 R4 12 1 0x10 4 0 ");
        assertTrue(assertThrows(TraceException.class, () -> AccelSimImporter.importTrace(odd, new CollectingSink())).getMessage()
                .endsWith("memory width 12 is not 0 or a power of two (bytes per thread)"));
        Path c = accelSim(null);
        Files.writeString(c.resolve("kernelslist.g"), "MemcpyHtoD,0x1000,-5000\nkernel-1.traceg\n");
        TraceException e = assertThrows(TraceException.class, () -> AccelSimImporter.importTrace(c, new CollectingSink()));
        assertEquals(c.resolve("kernelslist.g") + ":1: size -5000: a copy moves no fewer than zero bytes", e.getMessage());
        Files.writeString(c.resolve("kernelslist.g"), "MemcpyHtoD,0x00007f0000000000,65536\nMemcpyHtoD,0x1000,0\nkernel-1.traceg\n");
        AccelSimImporter.importTrace(c, new CollectingSink()); // a copy of 0 bytes is a no-op, not an error
        Files.writeString(d.resolve("kernelslist.g"), "MemcpyHtoD,0xffffffffffffff00,4096\nkernel-1.traceg\n");
        assertEquals(d.resolve("kernelslist.g") + ":1: size 4096: the copy at 0xffffffffffffff00 passes the end of the 64-bit address space",
                assertThrows(TraceException.class, () -> AccelSimImporter.importTrace(d, new CollectingSink())).getMessage(), "did not wrap to address 0");
    }

    /**
     * FIFOs are refused at once, not opened: a FIFO left at {@code OUT.part} blocked both writers for ever, and an Accel-Sim
     * kernelslist.g or kernel file that is a FIFO was reported "not found" (an audit). Bounded in time: without the checks
     * the writers hang.
     */
    @Test
    void fifosAreRefusedNotOpened() throws Exception {
        Path out = dir.resolve("out.hmt");
        Assumptions.assumeTrue(mkfifo(dir.resolve("out.hmt.part")), "mkfifo is not available");
        String part = dir.resolve("out.hmt.part") + ": not a regular file";
        TraceException b = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(TraceException.class, () -> new TraceWriter(out)));
        assertTrue(b.getMessage().startsWith(part), b.getMessage());
        TraceException t = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(TraceException.class, () -> new TextTraceWriter(out)));
        assertTrue(t.getMessage().startsWith(part), t.getMessage());
        assertTrue(Files.exists(dir.resolve("out.hmt.part")) && !Files.exists(out), "nothing replaced, nothing written");

        Path acc = Files.createDirectories(dir.resolve("acc"));
        mkfifo(acc.resolve("kernelslist.g"));
        assertTrue(assertThrows(TraceException.class, () -> AccelSimImporter.importTrace(acc, new CollectingSink())).getMessage()
                .startsWith(acc.resolve("kernelslist.g") + ": not a regular file"));
        Path acc2 = Files.createDirectories(dir.resolve("acc2"));
        Files.writeString(acc2.resolve("kernelslist.g"), "kernel-1.traceg\n");
        mkfifo(acc2.resolve("kernel-1.traceg"));
        assertEquals(acc2.resolve("kernelslist.g") + ":1: kernel trace 'kernel-1.traceg' is not a regular file (a folder, FIFO or device)",
                assertThrows(TraceException.class, () -> AccelSimImporter.importTrace(acc2, new CollectingSink())).getMessage());
    }

    private static boolean mkfifo(Path p) throws IOException, InterruptedException {
        try {
            return new ProcessBuilder("mkfifo", p.toString()).start().waitFor() == 0;
        } catch (IOException e) {
            return false; // no mkfifo (not a POSIX system)
        }
    }

    /** Paths that are not regular files: an output would be replaced by the rename, an input (a FIFO) would block (an audit). */
    @Test
    void tracesAreReadFromAndWrittenToRegularFilesOnly() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("a-folder"));
        TraceException out = assertThrows(TraceException.class, () -> new org.hmsim.platform.traces.TraceWriter(folder));
        assertTrue(out.getMessage().startsWith(folder + ": not a regular file"), out.getMessage());
        assertTrue(Files.isDirectory(folder), "the folder is still there");
        TraceException in = assertThrows(TraceException.class, () -> org.hmsim.platform.traces.TraceWorkloadProvider.open(folder));
        assertTrue(in.getMessage().startsWith(folder + ": not a regular file"), in.getMessage());
    }

    /** An output in folders that do not exist yet: they are created, as {@code run --out} creates its folder (a trial: "cannot write FILE: FILE.part"). */
    @Test
    void anImportCreatesTheFoldersAboveItsOutput() throws IOException {
        Path d = accelSim(null);
        Path binary = dir.resolve("new/deeper/t.hmt"), text = dir.resolve("other/t.hmtt");
        Traces.convert("accel-sim", d, binary, false);
        Traces.convert("accel-sim", d, text, true);
        try (TraceFile f = TraceFile.open(binary)) {
            assertEquals(1, f.kernels().size());
        }
        assertTrue(Files.readString(text).startsWith(org.hmsim.platform.traces.TraceFormat.TEXT_MAGIC), "the text twin is written");
        assertTrue(Files.notExists(binary.resolveSibling("t.hmt.part")) && Files.notExists(text.resolveSibling("t.hmtt.part")), "no .part left");
    }

    @Test
    void accelSimTruncatedWarpIsReported() throws IOException {
        Path d = accelSim(null);
        String text = Files.readString(d.resolve("kernel-1.traceg"));
        Files.writeString(d.resolve("kernel-1.traceg"), text.substring(0, text.lastIndexOf("0040")));
        TraceException e = assertThrows(TraceException.class, () -> AccelSimImporter.importTrace(d, new CollectingSink()));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    }

    @Test
    void accelSimBlocksMayBeMissingButNotTwice() throws IOException {
        Path d = accelSim(null);
        String text = Files.readString(d.resolve("kernel-1.traceg"));
        // Accel-Sim's post-processor leaves out blocks with no traced instruction: one block of two is a valid trace
        Files.writeString(d.resolve("kernel-1.traceg"), text.substring(0, text.indexOf("#END_TB") + "#END_TB\n".length()));
        AccelSimImporter.importTrace(d, new CollectingSink());
        Files.writeString(d.resolve("kernel-1.traceg"), text.replace("thread block = 1,0,0", "thread block = 0,0,0"));
        assertTrue(assertThrows(TraceException.class, () -> AccelSimImporter.importTrace(d, new CollectingSink())).getMessage()
                .endsWith("thread block 0,0,0 appears twice"));
    }

    /** One kernel of one warp whose instructions are {@code lines}, with {@code header} (a test's own). */
    private Path accelSimWarp(String header, String... lines) throws IOException {
        Path d = dir.resolve("one");
        Files.createDirectories(d);
        Files.writeString(d.resolve("kernelslist.g"), "kernel-1.traceg\n");
        Files.writeString(d.resolve("kernel-1.traceg"), header + "\n#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = " + lines.length + "\n"
                + String.join("\n", lines) + "\n#END_TB\n");
        return d;
    }

    private static String oneWarpHeader() { return KERNEL_HEADER.replace("(2,1,1)", "(1,1,1)").replace("(64,1,1)", "(32,1,1)"); }

    private String accelSimError(Path d) {
        return assertThrows(TraceException.class, () -> AccelSimImporter.importTrace(d, new CollectingSink())).getMessage();
    }

    /** An address past 2^64 - 1 (base + stride, base + deltas, or an access's last byte) wrapped to a small one, exit 0 (a bad-input review). */
    @Test
    void accelSimAddressesPastTheAddressSpaceAreRefused() throws IOException {
        String k = "kernel-1.traceg:20: ";
        Path d = accelSimWarp(oneWarpHeader(), "0000 ffffffff 1 R2 LDG.E.SYS 1 R4 4 1 0xfffffffffffffff0 4 0 ");
        assertTrue(accelSimError(d).endsWith(k + "address of lane 4 (base address 0xfffffffffffffff0 + 4 x stride 4) is past the end of the 64-bit address space"),
                accelSimError(d));
        d = accelSimWarp(oneWarpHeader(), "0000 00000003 1 R2 LDG.E.SYS 1 R4 4 2 0xfffffffffffffff0 32 0 ");
        assertTrue(accelSimError(d).endsWith(k + "address of lane 1 (0xfffffffffffffff0 + address delta 32) is past the end of the 64-bit address space"),
                accelSimError(d));
        d = accelSimWarp(oneWarpHeader(), "0000 00000003 1 R2 LDG.E.SYS 1 R4 4 2 0x10 -32 0 ");
        assertTrue(accelSimError(d).endsWith(k + "address of lane 1 (0x10 + address delta -32) is below 0"), accelSimError(d));
        d = accelSimWarp(oneWarpHeader(), "0000 00000001 1 R2 LDG.E.64.SYS 1 R4 8 0 0xfffffffffffffffc 0 ");
        assertTrue(accelSimError(d).endsWith(k + "lane 0's 8-byte access at address 0xfffffffffffffffc passes the end of the 64-bit address space"),
                accelSimError(d));
        d = accelSimWarp(oneWarpHeader(), "0000 00000001 1 R2 LDG.E.SYS 1 R4 4 0 0x10000000000000000 0 ");
        assertTrue(accelSimError(d).endsWith(k + "bad address '0x10000000000000000' (expected a hexadecimal number)"), accelSimError(d));
        AccelSimImporter.importTrace(accelSimWarp(oneWarpHeader(), "0000 00000001 1 R2 LDG.E.SYS 1 R4 4 0 0xfffffffffffffffc 0 "), new CollectingSink());
    }

    /** A header key given twice took the later value without a word (a bad-input review): two files run together, or an edit. */
    @Test
    void accelSimHeaderKeyGivenTwiceIsRefusedNamingBothLines() throws IOException {
        Path d = accelSimWarp(oneWarpHeader().replace("-kernel id = 1", "-kernel id = 1\n-kernel name = other"), "0000 ffffffff 0 EXIT 0 0 0 ");
        assertTrue(accelSimError(d).endsWith("kernel-1.traceg:3: header key '-kernel name' given twice (lines 1 and 3)"), accelSimError(d));
        d = accelSimWarp(oneWarpHeader() + "-nregs = 9\n", "0000 ffffffff 0 EXIT 0 0 0 ");
        assertTrue(accelSimError(d).endsWith("kernel-1.traceg:13: header key '-nregs' given twice (lines 6 and 13)"), accelSimError(d));
    }

    /**
     * An opcode with addresses that is in neither table (global/local memory, or kept in the SM) was counted as compute: its
     * accesses vanished from the import without a word (a bad-input review). Shared-memory opcodes are still compute.
     */
    @Test
    void accelSimUnknownMemoryOpcodeIsRefused() throws IOException {
        Path d = accelSimWarp(oneWarpHeader(), "0000 ffffffff 1 R2 LDX.E.SYS 1 R4 4 1 0x7f0000000000 4 0 ");
        assertTrue(accelSimError(d).endsWith("kernel-1.traceg:20: unknown memory opcode 'LDX.E.SYS' (it has addresses, but it is neither a global or local "
                + "load, store or atomic nor a shared-memory, constant or cache-control instruction the importer knows): its accesses cannot be placed"),
                accelSimError(d));
        CollectingSink s = new CollectingSink();
        AccelSimImporter.importTrace(accelSimWarp(oneWarpHeader(), "0000 ffffffff 1 R2 LDS.U.128 1 R4 4 1 0x100 16 0 ",
                "0010 ffffffff 0 STS 2 R4 R2 4 1 0x100 4 0 "), s);
        assertEquals("0/0 COMPUTE 2", s.events.get(2), s.events.toString());
    }

    /** A tracer version the importer does not know (9) was read as if it were 4 (a bad-input review). */
    @Test
    void accelSimUnknownTracerVersionIsRefused() throws IOException {
        Path d = accelSimWarp(oneWarpHeader().replace("tracer version = 5", "tracer version = 9"), "0000 ffffffff 0 EXIT 0 0 0 ");
        assertTrue(accelSimError(d).endsWith("kernel-1.traceg:9: accelsim tracer version 9 is not one this importer knows (3, 4, 5)"), accelSimError(d));
        for (String v : new String[] {"3", "4"})
            AccelSimImporter.importTrace(accelSimWarp(oneWarpHeader().replace("tracer version = 5", "tracer version = " + v), "0000 ffffffff 0 EXIT 0 0 0 "),
                    new CollectingSink());
    }

    /** The repository root's sibling 'shared' folder, found by walking up from the working directory. */
    static Path shared() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent())
            if (Files.isDirectory(p.resolve("examples/machines"))) return p.resolveSibling("shared");
        return null;
    }

    @Test
    void realAccelSimTraceImportsAndRuns() throws IOException {
        Path shared = shared();
        Path real = shared == null ? null : shared.resolve("data/traces/accel-sim-my_app");
        Assumptions.assumeTrue(real != null && Files.isRegularFile(real.resolve("kernelslist.g")),
                "skipped: the real Accel-Sim trace is not present (expected ../shared/data/traces/accel-sim-my_app beside the repository)");
        Path out = dir.resolve("my_app.hmt");
        Traces.convert("accel-sim", real, out, false);
        try (TraceFile f = TraceFile.open(out)) {
            assertEquals(1, f.kernels().size());
            TraceFile.KernelItem k = f.kernels().get(0);
            assertEquals(55, k.shape().ctas());
            assertEquals(128, k.shape().threadsPerCta());
            // 440 LDG.E.128 + 440 STG.E.128 in the file (grep), all full-mask base_stride
            assertEquals(880, k.memoryInstructions());
        }
        RunResult r = TestMachines.run(TestMachines.machine("small"), TraceWorkloadProvider.open(out).create(Params.empty(), 1), new ClasspathPolicies());
        assertTrue(r.simTimePs() > 0);
        // labelled by its file name, extension kept: no trace shares a label with a built-in workload of its stem
        assertEquals(out.getFileName().toString(), TraceWorkloadProvider.open(out).name());
        assertTrue(TraceWorkloadProvider.open(out).name().contains("."));
    }

    private static String nvbitLine(int cta, int warp, String op, long base, int activeLanes) {
        StringBuilder b = new StringBuilder("MEMTRACE: CTX 0x00005581e8b0a8e0 - grid_launch_id 0 - CTA " + cta + ",0,0 - warp " + warp + " - " + op + " - ");
        for (int l = 0; l < 32; l++) b.append(String.format("0x%016x ", l < activeLanes ? base + 4L * l : 0));
        return b.toString();
    }

    private Path nvbit(String bad) throws IOException {
        StringBuilder b = new StringBuilder("------------- NVBit (NVidia Binary Instrumentation Tool) banner\n");
        b.append("MEMTRACE: CTX 0x00005581e8b0a8e0 - LAUNCH - Kernel pc 0x00007f1c7ee00000 - Kernel name vecAdd - grid launch id 0 - grid size 2,1,1 - block size 64,1,1 - nregs 16 - shmem 0 - cuda stream id 0\n");
        b.append(nvbitLine(1, 9, "LDG.E", 0x7f1c60000000L, 32)).append('\n');
        b.append(nvbitLine(0, 4, "LDG.E", 0x7f1c60000100L, 32)).append('\n');
        b.append(nvbitLine(1, 12, "LDG.E.64", 0x7f1c60001000L, 16)).append('\n');
        b.append("program output in between\n");
        if (bad != null) b.append(bad).append('\n');
        b.append(nvbitLine(1, 9, "STG.E", 0x7f1c60002000L, 32)).append('\n');
        b.append(nvbitLine(0, 4, "LDS", 0x100L, 32)).append('\n');
        Path p = dir.resolve("mem_trace.txt");
        Files.writeString(p, b.toString());
        return p;
    }

    @Test
    void nvbitLinesBecomePerWarpStreams() throws IOException {
        CollectingSink s = new CollectingSink();
        assertEquals(5, NvbitImporter.importTrace(nvbit(null), s));
        List<String> e = s.events;
        assertEquals("1/0 LOAD size=4 mask=ffffffff", e.get(2).substring(0, 29));
        assertEquals("0/0 LOAD size=4 mask=ffffffff", e.get(3).substring(0, 29));
        assertTrue(e.get(4).startsWith("1/1 LOAD size=8 mask=ffff 7f1c60001000"), e.get(4));
        assertTrue(e.get(5).startsWith("1/0 STORE size=4"), e.get(5));
        assertEquals("end kernel", e.get(6)); // LDS (shared memory) is not a memory-system access
        // and through the binary writer: warp streams regrouped
        Path out = dir.resolve("nv.hmt");
        Traces.convert("nvbit", nvbit(null), out, false);
        try (TraceFile f = TraceFile.open(out)) {
            assertEquals(4, f.kernels().get(0).memoryInstructions());
        }
        // without the MEMTRACE: and CTX prefixes, as the documented syntax allows (a bare LAUNCH line was skipped: a trial)
        Path bare = nvbit(null);
        Files.writeString(bare, Files.readString(bare).replace("MEMTRACE: CTX 0x00005581e8b0a8e0 - ", ""));
        assertEquals(5, NvbitImporter.importTrace(bare, new CollectingSink()));
    }

    /** NVBit 1.5's mem_trace prints a launch's id one above its records' (it counts first): accepted (a trace review). */
    @Test
    void nvbit15sLaunchIdOneAboveItsRecordsIsAccepted() throws IOException {
        Path p = nvbit(null);
        String text = Files.readString(p).replace("grid launch id 0", "grid launch id 1");
        Files.writeString(p, text);
        CollectingSink s = new CollectingSink();
        assertEquals(5, NvbitImporter.importTrace(p, s));
        assertTrue(s.events.get(5).startsWith("1/0 STORE size=4"), s.events.toString());
        // a record of another launch is still refused
        Files.writeString(p, text + nvbitLine(0, 4, "LDG.E", 0x7f1c60000100L, 32).replace("grid_launch_id 0", "grid_launch_id 1") + "\n");
        TraceException e = assertThrows(TraceException.class, () -> NvbitImporter.importTrace(p, new CollectingSink()));
        assertTrue(e.getMessage().endsWith("no LAUNCH line for grid_launch_id 1 before its accesses"), e.getMessage());
    }

    @Test
    void nvbitMalformedLineNamesFileAndLine() throws IOException {
        Path p = nvbit("MEMTRACE: CTX 0x00005581e8b0a8e0 - grid_launch_id 0 - CTA 1,0,0 - warp 9 - LDG.E - 0x10 0x20");
        TraceException e = assertThrows(TraceException.class, () -> NvbitImporter.importTrace(p, new CollectingSink()));
        assertEquals(p + ":7: expected 32 addresses, found 2", e.getMessage());
    }

    /**
     * A file cut inside its last record (no final newline) was imported, a cut address read as a short one or 0 (an
     * inactive lane) (a bad-input review). mem_trace prints every address as 0x and 16 digits followed by a space: a last
     * line without newline is whole when it parses and its last address is complete.
     */
    @Test
    void nvbitLastRecordCutShortIsRefused() throws IOException {
        String text = Files.readString(nvbit(null));
        Path p = dir.resolve("cut.txt");
        Files.writeString(p, text.substring(0, text.length() - 6)); // inside the 32nd address
        TraceException e = assertThrows(TraceException.class, () -> NvbitImporter.importTrace(p, new CollectingSink()));
        assertEquals(p + ":8: cut short: the last line has no newline and its last address '0x000000000000' is not complete (0x and 16 digits)", e.getMessage());
        Files.writeString(p, text.substring(0, text.length() - 300)); // some addresses missing
        e = assertThrows(TraceException.class, () -> NvbitImporter.importTrace(p, new CollectingSink()));
        assertTrue(e.getMessage().startsWith(p + ":8: cut short (the last line has no newline): expected 32 addresses, found "), e.getMessage());
        Files.writeString(p, text + "MEMTR"); // a record's start: not program output
        e = assertThrows(TraceException.class, () -> NvbitImporter.importTrace(p, new CollectingSink()));
        assertEquals(p + ":9: cut short: the last line has no newline and 'MEMTR' is the start of a record", e.getMessage());
        // a LAUNCH line (a kernel with no records) whose last field is one the importer reads: mem_trace ends it with 'cuda stream id'
        String launch = text.lines().filter(l -> l.contains("LAUNCH")).findFirst().orElseThrow().replace("grid launch id 0", "grid launch id 1");
        Files.writeString(p, text + launch.substring(0, launch.indexOf(" - cuda stream id")));
        e = assertThrows(TraceException.class, () -> NvbitImporter.importTrace(p, new CollectingSink()));
        assertEquals(p + ":9: cut short: the last line has no newline and its last field 'shmem 0' may be cut (mem_trace ends a LAUNCH line with "
                + "'cuda stream id', a field the importer does not read)", e.getMessage());
        // whole last lines without a newline: with or without the space after the last address; program output; a whole LAUNCH line
        for (String whole : new String[] {text.substring(0, text.length() - 1), text.substring(0, text.length() - 2), text + "done.", text + launch}) {
            Files.writeString(p, whole);
            assertEquals(5, NvbitImporter.importTrace(p, new CollectingSink()));
        }
    }

    /** The opcode table of the Accel-Sim importer applies: an opcode with addresses that is in neither table is refused. */
    @Test
    void nvbitUnknownMemoryOpcodeIsRefused() throws IOException {
        Path p = nvbit(nvbitLine(0, 4, "LDX.E", 0x7f1c60000100L, 32));
        TraceException e = assertThrows(TraceException.class, () -> NvbitImporter.importTrace(p, new CollectingSink()));
        assertTrue(e.getMessage().startsWith(p + ":7: unknown memory opcode 'LDX.E'"), e.getMessage());
    }

    /** A block of 16 threads has no lane 16..31 in any warp: a record with such a lane is refused at its line. */
    @Test
    void nvbitLanesBeyondASmallBlocksThreadsAreRefused() throws IOException {
        Path p = nvbit(null);
        Files.writeString(p, Files.readString(p).replace("block size 64,1,1", "block size 16,1,1"));
        TraceException e = assertThrows(TraceException.class, () -> NvbitImporter.importTrace(p, new CollectingSink()));
        assertEquals(p + ":3: lane 31 is active but the block has 16 threads (block size 16,1,1)", e.getMessage());
    }

    private Path lackey(String bad) throws IOException {
        StringBuilder b = new StringBuilder("==1234== Lackey, an example Valgrind tool\n==1234== Command: ./a.out\n");
        b.append("I  04000000,3\n L 04222cac,8\n S 7ff000008,8\n M 0421e2d0,4\nI  04000003,5\n");
        if (bad != null) b.append(bad).append('\n');
        b.append(" L 04222cb4,8\n==1234== \n");
        Path p = dir.resolve("lackey.out");
        Files.writeString(p, b.toString());
        return p;
    }

    @Test
    void lackeyLinesBecomeACpuPhase() throws IOException {
        CollectingSink s = new CollectingSink();
        assertEquals(6, LackeyImporter.importTrace(lackey(null), s));
        assertEquals(List.of("workload lackey.out", "cpu lackey.out", "I 4000000 3", "L 4222cac 8", "S 7ff000008 8", "M 421e2d0 4", "I 4000003 5",
                "L 4222cb4 8", "end cpu"), s.events);
    }

    /** A sequential import reads a pipe (valgrind | hmsim): only the binary reader, which seeks, needs a regular file (a review). */
    @Test
    void aLackeyImportReadsAFifo() throws Exception {
        Path text = lackey(null), fifo = dir.resolve("lackey.fifo");
        Assumptions.assumeTrue(mkfifo(fifo), "mkfifo is not available");
        Process writer = new ProcessBuilder("sh", "-c", "cat '" + text + "' > '" + fifo + "'").start();
        try {
            CollectingSink s = new CollectingSink();
            assertEquals(6, assertTimeoutPreemptively(Duration.ofSeconds(20), () -> LackeyImporter.importTrace(fifo, s)));
            assertEquals(0, writer.waitFor());
            assertEquals(9, s.events.size(), s.events.toString());
        } finally {
            writer.destroyForcibly(); // a writer nobody read would wait on the FIFO for ever
        }
    }

    @Test
    void lackeyMalformedLineNamesFileAndLine() throws IOException {
        Path p = lackey(" L 0422zz00,8");
        TraceException e = assertThrows(TraceException.class, () -> LackeyImporter.importTrace(p, new CollectingSink()));
        assertEquals(p + ":8: bad address '0422zz00' (expected a hexadecimal number)", e.getMessage());
        Path q = lackey("hello world");
        e = assertThrows(TraceException.class, () -> LackeyImporter.importTrace(q, new CollectingSink()));
        assertTrue(e.getMessage().startsWith(q + ":8: not a lackey line"), e.getMessage());
        // it wrapped to address 0 and imported "ok" (a CPU-side trial); the last byte of the address space is fine
        Path w = lackey(" L ffffffffffffffff,8");
        e = assertThrows(TraceException.class, () -> LackeyImporter.importTrace(w, new CollectingSink()));
        assertTrue(e.getMessage().startsWith(w + ":8: the access at ffffffffffffffff of 8 bytes runs past the top"), e.getMessage());
        assertEquals(7, LackeyImporter.importTrace(lackey(" L fffffffffffffff8,8"), new CollectingSink()));
    }

    /**
     * A last line without newline is whole when it parses (a file edited by hand); one cut inside its record does not parse
     * and is reported as cut short (a bad-input review). A cut inside the size's digits cannot be told (documented).
     */
    @Test
    void lackeyLastLineCutShortIsRefused() throws IOException {
        Path p = dir.resolve("cut.out");
        for (String cut : new String[] {" L 04222c", " L 04222cac,", "I", "="}) {
            Files.writeString(p, "I  04000000,3\n" + cut);
            TraceException e = assertThrows(TraceException.class, () -> LackeyImporter.importTrace(p, new CollectingSink()));
            assertTrue(e.getMessage().startsWith(p + ":2: cut short (the last line has no newline): "), e.getMessage());
        }
        Files.writeString(p, "I  04000000,3\n L 04222cac,8");
        assertEquals(2, LackeyImporter.importTrace(p, new CollectingSink()));
        Files.writeString(p, "I  04000000,3\r\n L 04222cac,8\r\n==1== done\r"); // CR LF and CR line ends
        assertEquals(2, LackeyImporter.importTrace(p, new CollectingSink()));
    }

    @Test
    void anImportWithNothingInItIsRefusedAndWritesNothing() throws IOException {
        Path empty = dir.resolve("empty");
        Files.createDirectories(empty);
        Files.writeString(empty.resolve("kernelslist.g"), "");
        Path out = dir.resolve("x.hmt");
        TraceException e = assertThrows(TraceException.class, () -> Traces.convert("accel-sim", empty, out, false));
        assertTrue(e.getMessage().contains("nothing to import"), e.getMessage());
        assertTrue(!Files.exists(out), "no output for a failed import");
        Path blank = Files.writeString(dir.resolve("blank.out"), "==1== valgrind banner only\n");
        assertThrows(TraceException.class, () -> Traces.convert("lackey", blank, out, false));
    }

    @Test
    void aCpuOnlyTraceImportsButIsNoStudyWorkload() throws IOException {
        Path out = dir.resolve("cpu.hmt");
        Traces.convert("lackey", lackey(null), out, false);
        TraceException e = assertThrows(TraceException.class, () -> TraceWorkloadProvider.open(out));
        assertTrue(e.getMessage().contains("has no kernel launch"), e.getMessage());
    }
}
