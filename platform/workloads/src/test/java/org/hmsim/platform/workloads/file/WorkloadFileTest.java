package org.hmsim.platform.workloads.file;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.WarpInstruction.Kind;
import org.hmsim.api.workload.Workload;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.workloads.WorkloadInspector;
import org.junit.jupiter.api.Test;

class WorkloadFileTest {
    static final String GOOD = """
            name: test-wl
            description: a test
            params:
              n: 4096
              stride: {default: 2, min: 1, max: 16, doc: "element stride"}
            allocations:
              - {name: a, size: 64KB, hint: BO, read_only: true}
              - name: idx
                size: "n*4"
                contents: {dist: zipf, s: 1.2, range: 1000}
              - {name: out, size: "n*4", hint: co}
            kernels:
              - name: k1
                grid: [4, 2]
                block: 64
                loop: 2
                steps:
                  - load: {alloc: a, index: "cta*64 + tid + i*512"}
                  - load: {alloc: a, strided: {stride: stride, step: 1}, wrap: true}
                  - compute: {cycles: 5, wait: true}
                  - barrier
                  - store: {alloc: out, index: "ctay*1000 + ctax*64 + tid", when: "lane < 16"}
              - name: k2
                grid: "n / 128"
                block: 128
                repeat: 2
                steps:
                  - load: {alloc: a, indirect: {through: idx, index: "cta*128 + tid"}}
                  - atomic: {alloc: out, random: {dist: uniform}}
                  - wait
            """;

    static WorkloadProvider parse(String text) { return WorkloadFile.parse(text, "wl.yaml"); }

    static Workload create(WorkloadProvider p, Map<String, Object> params, long seed) {
        return p.create(Params.validate(p.parameters(), params), seed);
    }

    @Test
    void goodFileLoadsWithParamsAllocationsAndKernels() {
        WorkloadProvider p = parse(GOOD);
        assertEquals("test-wl", p.name());
        assertEquals(2, p.parameters().size());
        Workload w = create(p, Map.of(), 1);
        assertEquals(3, w.allocations().size());
        assertEquals(65536, w.allocations().get(0).bytes());
        assertEquals(AllocationHint.BO, w.allocations().get(0).hint());
        assertTrue(w.allocations().get(0).readOnly());
        assertEquals(AllocationHint.CO, w.allocations().get(2).hint());
        assertEquals(16384, w.allocations().get(1).bytes());
        var ks = w.kernels(WorkloadInspector.layout(w.allocations()));
        assertEquals(3, ks.size(), "k1 once, k2 repeated twice");
        assertEquals(8, ks.get(0).ctas());
        assertEquals(32, ks.get(1).ctas());
        // parameters override
        assertEquals(64, create(p, Map.of("n", 8192), 1).kernels(WorkloadInspector.layout(create(p, Map.of("n", 8192), 1).allocations())).get(1).ctas());
    }

    @Test
    void programsComputeTheirAddressesPerThread() {
        Workload w = create(parse(GOOD), Map.of(), 1);
        long[] base = WorkloadInspector.layout(w.allocations());
        int[] seen = new int[6];
        java.util.Map<Integer, Integer> loads = new java.util.HashMap<>();
        var s = WorkloadInspector.inspect(w, 1_000_000, (k, cta, warp, in, owner) -> {
            if (k != 0) {
                if (in.kind == Kind.LOAD && owner[Integer.numberOfTrailingZeros(in.activeMask)] == 0) {
                    assertTrue(in.waitsForLoads, "a gather waits for its index");
                    seen[4]++;
                }
                if (in.kind == Kind.ATOMIC) seen[5]++;
                return;
            }
            switch (in.kind) {
                case LOAD -> {
                    int n = loads.merge(cta * 2 + warp, 1, Integer::sum) - 1, i = n / 2;
                    long gtid = cta * 64L + warp * 32L;
                    for (int l = 0; l < 32; l++) {
                        long index = n % 2 == 0 ? gtid + l + i * 512L   // index: "cta*64 + tid + i*512"
                                : (gtid + l) * 2 + i;                 // strided: {stride: 2, step: 1}
                        assertEquals(base[0] + 4 * index, in.addresses[l]);
                    }
                    assertEquals(-1, in.activeMask);
                    seen[0]++;
                }
                case STORE -> {
                    assertEquals(0xFFFF, in.activeMask, "when: lane < 16");
                    long expect = base[2] + 4L * ((cta / 4) * 1000 + (cta % 4) * 64 + warp * 32);
                    assertEquals(expect, in.addresses[0]);
                    seen[1]++;
                }
                case COMPUTE -> { assertEquals(5, in.cycles); assertTrue(in.waitsForLoads); seen[2]++; }
                case BARRIER -> seen[3]++;
                default -> { }
            }
        });
        assertEquals(8 * 2 * 2 * 2, seen[0], "8 CTAs x 2 warps x 2 iterations x 2 loads");
        assertEquals(8 * 2 * 2, seen[1]);
        assertEquals(seen[1], seen[2]);
        assertEquals(seen[1], seen[3]);
        assertEquals(2 * 32 * 4, seen[4], "2 launches x 32 CTAs x 4 warps gathers");
        assertEquals(seen[4], seen[5]);
        assertTrue(s.threadAccesses()[1] > 0, "index array loaded");
    }

    @Test
    void affineIndexIsExact() {
        String text = """
                name: affine
                allocations: [{name: a, size: 1MB}]
                kernels:
                  - {name: k, grid: 4, block: 256, loop: 3, steps: [{load: {alloc: a, index: "cta*256 + tid + i*1024"}}]}
                """;
        Workload w = create(parse(text), Map.of(), 1);
        long base = WorkloadInspector.layout(w.allocations())[0];
        java.util.Map<Integer, Integer> iteration = new java.util.HashMap<>();
        var s = WorkloadInspector.inspect(w, 100_000, (k, cta, warp, in, owner) -> {
            int i = iteration.merge(cta * 8 + warp, 1, Integer::sum) - 1;
            for (int l = 0; l < 32; l++) assertEquals(base + 4L * (cta * 256 + warp * 32 + l + i * 1024), in.addresses[l]);
        });
        assertEquals(4 * 8 * 3, s.instructions());
    }

    @Test
    void zipfContentsAreSkewedAndSeeded() {
        String text = """
                name: z
                allocations:
                  - {name: idx, size: 64KB, contents: {dist: zipf, s: 1.0}}
                  - {name: t, size: 4MB}
                kernels:
                  - {name: g, grid: 64, block: 256, steps: [{load: {alloc: t, indirect: {through: idx, index: "cta*256+tid"}, elem: 4}}]}
                """;
        WorkloadProvider p = parse(text);
        Workload w = create(p, Map.of(), 3);
        long base = WorkloadInspector.layout(w.allocations())[1];
        long[] low = {0, 0};
        WorkloadInspector.inspect(w, 100_000, (k, c, wp, in, owner) -> {
            if (owner[0] != 1) return;
            for (int l = 0; l < 32; l++) {
                low[1]++;
                if (in.addresses[l] - base < 4 * 164) low[0]++; // the hottest 1% of the 16384 values
            }
        });
        assertTrue(low[0] > 0.3 * low[1], "zipf(1): the top 1% of values gets a large share: " + low[0] + "/" + low[1]);
        long c3 = WorkloadInspector.inspect(w, 100_000).checksum();
        assertEquals(c3, WorkloadInspector.inspect(create(p, Map.of(), 3), 100_000).checksum());
        assertNotEquals(c3, WorkloadInspector.inspect(create(p, Map.of(), 4), 100_000).checksum());
    }

    // ---- errors -----------------------------------------------------------------------------------

    /** A parameter no expression reads would give identical runs under different labels: refused at its line. */
    @Test
    void aParameterNoExpressionUsesIsRefused() {
        String text = """
                name: x
                params: {n: {default: 4096}, blocks: {default: 16}}
                allocations: [{name: a, size: "n*4"}]
                kernels:
                  - {name: k, grid: 8, block: 128, steps: [{load: {alloc: a, index: "cta*128 + tid"}}]}
                """;
        WorkloadFileException e = assertThrows(WorkloadFileException.class, () -> parse(text));
        assertTrue(e.getMessage().contains("params.blocks: no expression of this file uses parameter 'blocks'"), e.getMessage());
        parse(text.replace("grid: 8", "grid: blocks"));
    }

    private static WorkloadFileException bad(String text) {
        return assertThrows(WorkloadFileException.class, () -> create(parse(text), Map.of(), 1));
    }

    @Test
    void badPartsOfAFileAreReportedTogetherEachAtItsLine() {
        WorkloadFileException e = bad("""
                name: x
                allocations:
                  - {name: a, size: 4XB}
                  - {name: b, size: 4KB, hint: fast}
                  - {name: c, size: 4KB}
                kernels:
                  - name: k
                    grid: 1
                    block: 32
                    steps:
                      - load: {alloc: a, index: tid}
                      - jump: 3
                      - load: {alloc: c, index: "tid +"}
                  - {name: l, grid: 1, block: 32, steps: [barrier]}
                """);
        // the load of the broken allocation 'a' is not reported again
        assertEquals(List.of("3:allocations[0].size", "4:allocations[1].hint", "12:kernels[0].steps[1].jump", "13:kernels[0].steps[2].load.index"),
                e.all().stream().map(x -> x.line() + ":" + x.field()).toList(), e.getMessage());
        assertEquals(3, e.line(), "located at the first");
        assertEquals(4, e.getMessage().lines().count(), e.getMessage());
    }

    /** A kernel's misspelt field hid its other mistakes, the missing field it was meant to be among them (a researcher's trial). */
    @Test
    void anUnknownKernelFieldDoesNotHideTheKernelsOtherMistakes() {
        WorkloadFileException e = bad("""
                name: x
                allocations: [{name: a, size: 4KB}]
                kernels:
                  - name: k
                    grid: 1
                    blok: 32
                    loop: kk
                    steps:
                      - load: {alloc: xx, index: tid}
                """);
        assertEquals(List.of("6:kernels[0].blok", "4:kernels[0]", "7:kernels[0].loop", "9:kernels[0].steps[0].load.alloc"),
                e.all().stream().map(x -> x.line() + ":" + x.field()).toList(), e.getMessage());
        assertTrue(e.all().get(1).problem().contains("missing field 'block'"), e.getMessage());
    }

    @Test
    void badLaunchesOfSeveralKernelsAreReportedTogether() {
        WorkloadFileException e = bad("""
                name: x
                params: {b: 2048}
                allocations: [{name: a, size: 4KB}]
                kernels:
                  - {name: k, grid: 1, block: b, steps: [barrier]}
                  - {name: l, grid: 1, block: 32, steps: [{compute: {cycles: "0 - 2"}}]}
                  - {name: m, grid: 1, block: 32, steps: [barrier]}
                """);
        assertEquals(List.of("5:kernels[0].block", "6:kernels[1].steps[0].compute"), e.all().stream().map(x -> x.line() + ":" + x.field()).toList(), e.getMessage());
        assertTrue(e.all().get(0).problem().contains("block must have 1..1024 threads, is 2048 x 1"), e.getMessage());
    }

    /** How well an allocation's data compress (capacity compression's declared ratios): 0 where not said; out of [1, 64] refused at its line. */
    @Test
    void compressionRatioIsDeclaredPerAllocation() {
        String ok = "name: x\nallocations:\n  - {name: a, size: 4KB, compression_ratio: 1.75}\n  - {name: b, size: 4KB}\nkernels:\n  - {name: k, grid: 1, block: 32, steps: [barrier]}\n";
        Workload w = create(parse(ok), Map.of(), 1);
        assertEquals(1.75, w.allocations().get(0).compressionRatio());
        assertEquals(0, w.allocations().get(1).compressionRatio(), "not declared");
        for (String v : List.of("0.9", "65", "two", "-1")) {
            WorkloadFileException e = assertThrows(WorkloadFileException.class, () -> parse(ok.replace("1.75", v)));
            assertEquals("3:allocations[0].compression_ratio", e.line() + ":" + e.field(), e.getMessage());
        }
    }

    /** Booleans are YAML 1.2's (true/false), as in study and machine files: 'yes' or 'on' is an error at its field (an audit). */
    @Test
    void booleansAreTrueOrFalse() {
        WorkloadFileException e = bad("name: x\nallocations: [{name: a, size: 4KB, read_only: yes}]\nkernels:\n  - {name: k, grid: 1, block: 32, steps: [barrier]}\n");
        assertEquals("2:allocations[0].read_only", e.line() + ":" + e.field(), e.getMessage());
        assertTrue(e.getMessage().contains("'yes' is not true or false"), e.getMessage());
    }

    /** A launch-time error about a kernel's block, shared memory, repeat or loop points at that field's line. */
    @Test
    void aKernelFieldsLaunchErrorPointsAtTheField() {
        WorkloadFileException e = bad("""
                name: x
                params: {b: 2048}
                allocations: [{name: a, size: 4KB}]
                kernels:
                  - name: k
                    grid: 1
                    block: b
                    steps: [barrier]
                """);
        assertEquals(List.of("7:kernels[0].block"), e.all().stream().map(x -> x.line() + ":" + x.field()).toList(), e.getMessage());
        e = bad("name: x\nallocations: [{name: a, size: 4KB}]\nkernels:\n  - name: k\n    grid: 1\n    block: 32\n    repeat: \"0 - 1\"\n    steps: [barrier]\n");
        assertEquals("7:kernels[0].repeat", e.line() + ":" + e.field(), e.getMessage());
    }

    @Test
    void unknownFieldIsReportedAtItsKey() {
        WorkloadFileException e = bad("""
                name: x
                allocations:
                  - {name: a, size: 4KB}
                kernels:
                  - name: k
                    grid: 1
                    blok: 32
                    steps: [barrier]
                """);
        assertEquals(7, e.line());
        assertEquals(5, e.column());
        assertEquals("kernels[0].blok", e.field());
        assertTrue(e.problem().contains("unknown field 'blok'"), e.problem());
        assertTrue(e.toString().startsWith("wl.yaml:7:5: kernels[0].blok: unknown field 'blok'"), e.toString());
    }

    @Test
    void badSizeUnit() {
        WorkloadFileException e = bad("""
                name: x
                allocations:
                  - name: a
                    size: 4XB
                kernels: [{name: k, grid: 1, block: 32, steps: [barrier]}]
                """);
        assertEquals(4, e.line());
        assertEquals("allocations[0].size", e.field());
        assertTrue(e.problem().contains("unknown size unit 'XB'"), e.problem());
    }

    @Test
    void badExpressionPointsAtTheVariable() {
        WorkloadFileException e = bad("""
                name: x
                allocations: [{name: a, size: 4KB}]
                kernels:
                  - name: k
                    grid: 1
                    block: 32
                    steps:
                      - compute: 3
                      - compute: 4
                      - load: {alloc: a, index: "cta*256 + j"}
                """);
        assertEquals(10, e.line());
        assertEquals("kernels[0].steps[2].load.index", e.field());
        assertTrue(e.problem().startsWith("unknown variable 'j'"), e.problem());
        String line = "      - load: {alloc: a, index: \"cta*256 + j\"}";
        assertEquals(line.indexOf('j') + 1, e.column(), "column of 'j'");
        WorkloadFileException syntax = bad("""
                name: x
                allocations: [{name: a, size: 4KB}]
                kernels: [{name: k, grid: 1, block: 32, steps: [{store: {alloc: a, index: "tid +* 2"}}]}]
                """);
        assertEquals(3, syntax.line());
        assertTrue(syntax.problem().contains("unexpected '*'"), syntax.problem());
    }

    @Test
    void unknownAllocation() {
        WorkloadFileException e = bad("""
                name: x
                allocations: [{name: a, size: 4KB}]
                kernels:
                  - name: k
                    grid: 1
                    block: 32
                    steps:
                      - load: {alloc: b, index: tid}
                """);
        assertEquals(8, e.line());
        assertEquals("kernels[0].steps[0].load.alloc", e.field());
        assertTrue(e.problem().contains("unknown allocation 'b'"), e.problem());
    }

    @Test
    void otherMistakesAreLocatedToo() {
        assertTrue(bad("name: x\nallocations: [{name: a, size: 4KB}]\n").problem().contains("missing field 'kernels'"));
        assertTrue(bad("name: x\nallocations: [{name: a, size: 4KB, hint: fast}]\nkernels: []\n").problem().contains("unknown hint"));
        assertTrue(bad("name: x\nallocations: [{name: a, size: 4KB}]\nkernels: [{name: k, grid: 1, block: 32, steps: [jump]}]\n")
                .problem().contains("unknown step 'jump'"));
        assertTrue(bad("name: x\nallocations: [{name: a, size: 4KB}]\nkernels: [{name: k, grid: 1, block: 32, steps: [{load: {alloc: a}}]}]\n")
                .problem().contains("exactly one access pattern"));
        assertTrue(bad("name: x\nallocations: [{name: a, size: 4KB}]\nkernels: [{name: k, grid: 1, block: 2000, steps: [barrier]}]\n")
                .problem().contains("1..1024 threads"));
        assertTrue(bad("name: x\nallocations: [{name: a, size: 4KB}, {name: b, size: 4KB}]\n"
                + "kernels: [{name: k, grid: 1, block: 32, steps: [{load: {alloc: a, indirect: {through: b, index: tid}}}]}]\n")
                .problem().contains("no generated contents"));
        WorkloadFileException yaml = bad("name: x\nallocations: [{name: a, size: 4KB}\n");
        assertTrue(yaml.problem().startsWith("not valid YAML"), yaml.problem());
        assertEquals("allocations[1].name", bad("name: x\nallocations: [{name: a, size: 4KB}, {name: a, size: 8KB}]\nkernels: []\n").field());
    }

    static final String SIZED = """
            name: x
            params: {n: 1024}
            allocations:
              - {name: a, size: "n*4"}
            kernels: [{name: k, grid: 1, block: 32, steps: [barrier]}]
            """;

    @Test
    void anExpressionThatOverflowsIsAnErrorAtItsField() {
        // n*4 used to wrap to 256 B for this n
        WorkloadFileException e = assertThrows(WorkloadFileException.class,
                () -> create(parse(SIZED), Map.of("n", 4611686018427387968L), 1));
        assertEquals("wl.yaml:4:21: allocations[0].size: integer overflow: the result does not fit in 64 bits (with n = 4611686018427387968)",
                e.getMessage());
        WorkloadFileException grid = bad("""
                name: x
                params: {n: 4611686018427387904}
                allocations: [{name: a, size: 4KB}]
                kernels: [{name: k, grid: "n*2", block: 32, steps: [barrier]}]
                """);
        assertEquals("kernels[0].grid", grid.field());
        assertEquals("grid: integer overflow: the result does not fit in 64 bits (with n = 4611686018427387904)", grid.problem());
        WorkloadFileException folded = bad("""
                name: x
                allocations: [{name: a, size: "4611686018427387904 * 4"}]
                kernels: [{name: k, grid: 1, block: 32, steps: [barrier]}]
                """);
        assertEquals("allocations[0].size", folded.field());
        assertEquals(2, folded.line());
    }

    @Test
    void factorsAreBoundedBeforeTheirProduct() {
        // 2^32 x 2^32 CTAs or threads is 0 in 64 bits, which used to pass the range checks
        assertTrue(bad("name: x\nallocations: [{name: a, size: 4KB}]\nkernels: [{name: k, grid: [4294967296, 4294967296], block: 32, steps: [barrier]}]\n")
                .problem().startsWith("grid must be >= 1 CTA in each dimension and at most 2147483647 CTAs"));
        assertTrue(bad("name: x\nallocations: [{name: a, size: 4KB}]\nkernels: [{name: k, grid: 1, block: [4294967296, 4294967296], steps: [barrier]}]\n")
                .problem().startsWith("block must have 1..1024 threads"));
        assertEquals("iterations x launches per iteration is 3000000000 x 1, more than 1000000 kernel launches",
                bad("name: x\niterations: 3000000000\nallocations: [{name: a, size: 4KB}]\nkernels: [{name: k, grid: 1, block: 32, steps: [barrier]}]\n").problem());
        assertTrue(bad("name: x\nallocations: [{name: a, size: 4KB}]\nkernels: [{name: k, grid: 1, block: 32, repeat: -1, steps: [barrier]}]\n")
                .problem().startsWith("repeat must be in [0, "));
        // 2^31-1 launches passed and validate then built them all for hours (a bad-input trial)
        assertEquals("repeat must be in [0, 1000000], is 2147483647 (at most 1000000 launches in all)",
                bad("name: x\nallocations: [{name: a, size: 4KB}]\nkernels: [{name: k, grid: 1, block: 32, repeat: 2147483647, steps: [barrier]}]\n").problem());
        // 2 GB of shared memory was refused as not ">= 0 bytes" (found by a docs audit)
        assertEquals("shared memory must be in [0, 2147483647] bytes, is 2147483648",
                bad("name: x\nallocations: [{name: a, size: 4KB}]\nkernels: [{name: k, grid: 1, block: 32, shared: 2GB, steps: [barrier]}]\n").problem());
    }

    /** A file that launches nothing is refused when it is read (validate), not by every run. */
    @Test
    void aWorkloadThatLaunchesNoKernelIsRefused() {
        WorkloadFileException none = bad("name: x\niterations: 0\nallocations: [{name: a, size: 4KB}]\nkernels: [{name: k, grid: 1, block: 32, steps: [barrier]}]\n");
        assertEquals("iterations is 0: the workload would launch no kernel", none.problem());
        assertEquals(2, none.line());
        WorkloadFileException zero = bad("name: x\nallocations: [{name: a, size: 4KB}]\nkernels: [{name: k, grid: 1, block: 32, repeat: 0, steps: [barrier]}]\n");
        assertEquals("every kernel has repeat 0: the workload would launch no kernel", zero.problem());
        assertEquals(3, zero.line());
    }

    @Test
    void aWholeNumberBeyond64BitsIsOutOfRange() {
        WorkloadFileException e = assertThrows(WorkloadFileException.class, () -> parse("name: x\nparams: {n: 99999999999999999999}\n"));
        assertEquals("params.n", e.field());
        assertEquals("'99999999999999999999' is out of range [-9223372036854775808, 9223372036854775807]", e.problem());
        IllegalArgumentException param = assertThrows(IllegalArgumentException.class,
                () -> create(parse(SIZED), Map.of("n", new java.math.BigInteger("99999999999999999999")), 1));
        assertTrue(param.getMessage().contains("out of range"), param.getMessage());
    }

    /** A step's own elem counts the allocation's elements: the bound used the allocation's elem (an 8-byte store wrote past a 4-byte array). */
    @Test
    void aStepsElemSizesItsBound() {
        String wide = """
                name: x
                allocations: [{name: a, size: 2KB, elem: 4}]
                kernels:
                  - name: k
                    grid: 1
                    block: 512
                    steps:
                      - store: {alloc: a, index: tid, elem: 8}
                """;
        WorkloadFileException e = assertThrows(WorkloadFileException.class, () -> WorkloadInspector.inspect(create(parse(wide), Map.of(), 1), 100_000));
        assertTrue(e.problem().contains("index 256 is outside 'a' (256 elements)"), e.problem());
        // and the other way: 4-byte steps over a 16-byte allocation reach all of it
        Workload narrow = create(parse(wide.replace("elem: 4}", "elem: 16}").replace("store: {alloc: a, index: tid, elem: 8}", "load: {alloc: a, index: tid, elem: 4}")), Map.of(), 1);
        assertDoesNotThrow(() -> WorkloadInspector.inspect(narrow, 100_000));
        WorkloadFileException big = assertThrows(WorkloadFileException.class,
                () -> create(parse(wide.replace("size: 2KB, elem: 4", "size: 4, elem: 4").replace("block: 512", "block: 1")), Map.of(), 1));
        assertEquals("elem 8 B is larger than 'a' (4 B)", big.problem());
        // a random range beyond the allocation is known when the workload is built, not at the first index drawn
        String random = wide.replace("store: {alloc: a, index: tid, elem: 8}", "load: {alloc: a, random: {range: 100000}}");
        WorkloadFileException r = assertThrows(WorkloadFileException.class, () -> create(parse(random), Map.of(), 1));
        assertEquals("random range 100000 is larger than 'a' (512 elements); a smaller range, or wrap: true", r.problem());
        // and a write to an allocation declared read-only is a contradiction, refused where it is written
        String readOnly = wide.replace("{name: a, size: 2KB, elem: 4}", "{name: a, size: 2KB, elem: 4, read_only: true}");
        WorkloadFileException ro = assertThrows(WorkloadFileException.class, () -> parse(readOnly));
        assertEquals("'a' is read_only: a store may not write it", ro.problem());
        assertEquals(8, ro.line());
        // a host phase before a launch that never comes ran nowhere, silently
        String late = wide + "host:\n  - {before: 5, name: late, compute: 10, streams: [{alloc: a}]}\n";
        WorkloadFileException host = assertThrows(WorkloadFileException.class, () -> create(parse(late), Map.of(), 1));
        assertEquals("before 5 is not a launch of this workload: it launches 1 kernel (0-based indices), or 'end'", host.problem());
        // 2^31-1 was refused as not ">= 0" (found by a docs audit: docs/workload-files.md gives 0 .. 2^31-2)
        for (String v : new String[] {"-1", "2147483647"}) {
            WorkloadFileException bad = assertThrows(WorkloadFileException.class,
                    () -> parse(wide + "host:\n  - {before: " + v + ", streams: [{alloc: a}]}\n"));
            assertEquals("before must be a launch index in [0, 2147483646] or 'end', is " + v, bad.problem());
        }
        assertDoesNotThrow(() -> create(parse(wide + "host:\n  - {before: 0, name: early, compute: 10, streams: [{alloc: a}]}\n"), Map.of(), 1));
        // every host phase's, field's and stream's error in one validate (a CPU-side trial needed five rounds for five)
        WorkloadFileException all = assertThrows(WorkloadFileException.class, () -> parse(wide + "host:\n"
                + "  - {before: -1, compute: -1, streams: [{alloc: nope}, {alloc: a, stride: 0}]}\n  - {befor: 0, streams: [{alloc: a}]}\n"));
        assertEquals(List.of("before must be a launch index in [0, 2147483646] or 'end', is -1", "compute must be in [0, 1000000] CPU cycles",
                "unknown allocation 'nope' (defined: a)", "stride must be in [1, 1048576] bytes"),
                all.all().stream().map(WorkloadFileException::problem).filter(p -> !p.startsWith("unknown field")).toList(), all.getMessage());
        assertTrue(all.all().stream().anyMatch(x -> x.problem().startsWith("unknown field 'befor'")), "the second phase's unknown field too: " + all.getMessage());
        // a zipf exponent given to a uniform draw was ignored
        WorkloadFileException s = assertThrows(WorkloadFileException.class,
                () -> parse(wide.replace("store: {alloc: a, index: tid, elem: 8}", "load: {alloc: a, random: {dist: uniform, s: 5}}")));
        assertEquals("s is the zipf exponent: it has no meaning with dist: uniform", s.problem());
    }

    @Test
    void outOfBoundsIndexFailsAtRunTimeWithItsLocation() {
        Workload w = create(parse("""
                name: x
                allocations: [{name: a, size: 4KB}]
                kernels:
                  - name: k
                    grid: 2
                    block: 1024
                    steps:
                      - load: {alloc: a, index: "cta*1024 + tid"}
                """), Map.of(), 1);
        WorkloadFileException e = assertThrows(WorkloadFileException.class, () -> WorkloadInspector.inspect(w, 100_000));
        assertEquals(8, e.line());
        assertTrue(e.problem().contains("index 1024 is outside 'a' (1024 elements)"), e.problem());
        assertTrue(e.problem().contains("cta 1"), e.problem());
    }

    @Test
    void exampleFilesLoadAndRun(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path dir = Path.of("../../examples/workloads");
        assertTrue(Files.isDirectory(dir), dir.toAbsolutePath().toString());
        for (String f : new String[] {"saxpy.yaml", "gather-zipf.yaml"}) {
            WorkloadProvider p = WorkloadFile.load(dir.resolve(f));
            assertFalse(p.description().isBlank());
            var s = WorkloadInspector.inspect(create(p, Map.of("n", 16_384), 1), 2_000_000);
            assertTrue(s.memoryInstructions() > 1000, f);
        }
        // the example at the top of docs/workload-files.md, as a reader would paste it (shared: 0 included)
        String doc = Files.readString(Path.of("../../docs/workload-files.md"));
        int from = doc.indexOf("```yaml\n") + "```yaml\n".length();
        Path pasted = Files.writeString(tmp.resolve("doc-saxpy.yaml"), doc.substring(from, doc.indexOf("```", from)));
        var fromDoc = WorkloadInspector.inspect(create(WorkloadFile.load(pasted), Map.of("n", 10_000, "blocks", 7), 1), 2_000_000);
        assertTrue(fromDoc.memoryInstructions() > 100, "the documented example runs");
        // saxpy: every memory instruction is one full line
        WorkloadProvider saxpy = WorkloadFile.load(dir.resolve("saxpy.yaml"));
        WorkloadInspector.inspect(create(saxpy, Map.of("n", 10_000, "blocks", 7), 1), 2_000_000, (k, c, w, in, o) -> {
            if (in.kind == Kind.LOAD || in.kind == Kind.STORE) assertEquals(in.addresses[0] / 128,
                    in.addresses[31 - Integer.numberOfLeadingZeros(in.activeMask)] / 128);
        });
    }

    /** A text file that is no workload file is quoted briefly, not whole (a trace given as {file: t.txt} was quoted in full). */
    @Test
    void aLongTextIsNotQuotedWhole() {
        String trace = "kernel 0 grid 2 block 64 some trace header that goes on\n" + "0x7f00 LOAD 4 ffffffff\n".repeat(500);
        WorkloadFileException e = assertThrows(WorkloadFileException.class, () -> parse(trace));
        assertTrue(e.getMessage().length() < 400 && e.getMessage().contains("is this a workload file? a trace is named {trace: ...}"), e.getMessage());
    }

    /** Whole numbers in a file's fields may be hexadecimal, as in its expressions (n: 0x400 was "not a whole number"). */
    @Test
    void hexadecimalWholeNumbers() {
        WorkloadProvider p = parse("name: h\nparams: {n: 0x400}\nallocations: [{name: a, size: \"n*4\"}]\nkernels: [{name: k, grid: 1, block: 32, steps: [barrier]}]\n");
        assertEquals(4096, create(p, Map.of(), 1).allocations().get(0).bytes());
    }

    /**
     * An irregular-workload trial: {@code wait: true} on an indirect step was accepted and ignored (its index load could not
     * depend on an earlier load), and compute took no {@code when} (warps with no thread in the branch issued it anyway).
     */
    @Test
    void aGathersIndexLoadMayWaitAndComputeTakesWhen() {
        String text = """
                name: chain
                allocations:
                  - {name: row, size: 4KB}
                  - {name: col, size: 4KB, contents: {dist: uniform}}
                  - {name: x, size: 4KB}
                kernels:
                  - name: k
                    grid: 1
                    block: 64
                    steps:
                      - load: {alloc: row, index: tid}
                      - load: {alloc: x, indirect: {through: col, index: tid}, wait: WAIT}
                      - compute: {cycles: 5, when: "tid < 32"}
                """;
        for (boolean wait : new boolean[] {false, true}) {
            List<Boolean> loadWaits = new java.util.ArrayList<>();
            int[] computes = {0};
            WorkloadInspector.inspect(create(parse(text.replace("WAIT", Boolean.toString(wait))), Map.of(), 1), 100_000, (k, c, w, in, o) -> {
                if (in.kind == Kind.LOAD) loadWaits.add(in.waitsForLoads);
                if (in.kind == Kind.COMPUTE) computes[0]++;
            });
            // per warp: the row load, the index load (waits as the file says), the gather (always waits)
            assertEquals(List.of(false, wait, true, false, wait, true), loadWaits, "wait: " + wait);
            assertEquals(1, computes[0], "only warp 0 has threads with tid < 32");
        }
    }
}
