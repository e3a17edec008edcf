package org.hmsim.platform.memory.dram;

import java.util.Locale;
import org.hmsim.api.engine.ClockDomain;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.machine.DramView;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.policy.DramSchedulerPolicy;
import org.hmsim.api.policy.InterleavePolicy;
import org.hmsim.api.stats.Histogram;
import org.hmsim.api.stats.Stats;
import org.hmsim.platform.memory.Rates;
import org.hmsim.platform.engine.EvictNotice;
import org.hmsim.platform.engine.PhysicalAddress;
import org.hmsim.platform.memory.PoolConfig;

/**
 * A memory pool (GDDR5, HBM2, DDR4…): its channels share the stated peak bandwidth equally, and the
 * interleave slot maps each physical address to a channel. The pool is the {@link MemSink} its
 * requesters (the fabric, a link port, the page-copy engine) send to; requests come back through
 * {@code replyTo.onResponse} when their last data beat has crossed the data bus (reads) or been written
 * (writes). Write-backs ({@code replyTo == null}) are returned to the {@link RequestPool}.
 *
 * <p>Address mapping: the interleave policy is given the address's offset within the pool (pool bits
 * removed) and returns the channel and the channel address; see {@link DramChannel} for bank and row.
 *
 * <p>Controller latency: {@link PoolConfig#controllerLatencyPs()} is a fixed pipeline delay every
 * response takes after its data has crossed the bus (GPGPU-Sim's {@code -dram_latency}, which a DRAM
 * timing model of banks and bus leaves out). It holds no channel resource: the queue entry and the bus
 * are free as soon as the data has moved, so it adds latency, not occupancy. At 0 (the default) a
 * response goes straight back and no event is scheduled.
 *
 * <p>Eviction notices (a {@code WRITEBACK} of size 0, sent by an L2 with {@code evict_notice} for a clean victim) touch
 * no channel: the controller acknowledges them after its controller latency, as Multi2Sim 4.2's main-memory module
 * acknowledges a clean block's eviction after updating its directory.
 */
public final class DramPool implements DramView, MemSink, EventTarget {
    private final PoolConfig cfg;
    private final int index;
    private final Engine engine;
    private final RequestPool requests;
    private final DramChannel[] channels;
    private final DramTimingPs timing;
    private final PoolInfo info;
    private InterleavePolicy interleave;
    private Histogram queueDelay;
    /** Fixed response delay, ps; 0 = none. */
    private final long controllerPs;
    /**
     * Responses in the controller delay, in the order they left their channels. Every response waits the
     * same time and {@link #respond} is called at the current time, so they are due in FIFO order and the
     * engine (same-time events in scheduling order) delivers them in that order: one event each, no payload.
     */
    private MemRequest[] delayRing = new MemRequest[16];
    private int delayHead, delayCount;
    private static final int DELIVER = 0, DELIVER_JITTERED = 1;
    /** The seeded stream of {@link PoolConfig#jitterPs()}, or null: no jitter (and no draw). */
    private final java.util.random.RandomGenerator jitter;
    private MemRequest[] jittered = new MemRequest[16];
    private int[] freeJitter = {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
    private int freeJitterSlots = 16;
    private long notices, refusedCpu, refusedGpu;

    public DramPool(PoolConfig cfg, int poolIndex, Engine engine, InterleavePolicy interleave, RequestPool requests) {
        this(cfg, poolIndex, engine, interleave, requests, null);
    }

    /** {@code jitter}: the seeded stream {@link PoolConfig#jitterPs()} draws from (required when it is above 0). */
    public DramPool(PoolConfig cfg, int poolIndex, Engine engine, InterleavePolicy interleave, RequestPool requests,
                    java.util.random.RandomGenerator jitter) {
        this(cfg, poolIndex, engine, interleave, null, requests, jitter);
    }

    /**
     * {@code scheduler}: the dram-scheduler slot's policy, which the pool's channels run unless the pool's own
     * {@link PoolConfig#scheduler()} fixes one; null = FR-FCFS (the slot's default).
     */
    public DramPool(PoolConfig cfg, int poolIndex, Engine engine, InterleavePolicy interleave, DramSchedulerPolicy scheduler,
                    RequestPool requests, java.util.random.RandomGenerator jitter) {
        validate(cfg);
        if (cfg.jitterPs() > 0 && jitter == null) throw new IllegalArgumentException("pool " + cfg.name() + ": jitter needs a random stream");
        this.jitter = cfg.jitterPs() > 0 ? jitter : null;
        this.cfg = cfg;
        this.index = poolIndex;
        this.engine = engine;
        this.requests = requests;
        this.interleave = interleave;
        this.timing = DramTimingPs.of(cfg.timing(), ClockDomain.ofMHz("dram." + cfg.name(), cfg.clockMHz()));
        this.controllerPs = cfg.controllerLatencyPs();
        int rule = builtInRule(scheduler);
        double perChannel = cfg.bytesPerSecond() / cfg.channels();
        channels = new DramChannel[cfg.channels()];
        for (int c = 0; c < channels.length; c++)
            channels[c] = new DramChannel(this, c, channels.length, engine, timing, cfg.banks(), cfg.rowBytes(), cfg.queueDepth(),
                    rule != DramSchedulerPolicy.BUILT_IN_FCFS, stateFor(rule, scheduler, poolIndex, c, cfg.banks()), perChannel, cfg.burstBytes(),
                    cfg.splitCommandBus());
        info = new PoolInfo(poolIndex, cfg.name(), cfg.kind(), cfg.node(), cfg.channels(), cfg.bytesPerSecond(), cfg.capacityBytes());
    }

    private static String schedulerName(PoolConfig cfg) {
        return cfg.scheduler() == null ? "fr-fcfs" : cfg.scheduler().trim().toLowerCase(Locale.ROOT);
    }

    /** Whether the machine file fixes this pool's scheduler, so the dram-scheduler slot does not reach it. */
    public boolean schedulerFixed() { return cfg.scheduler() != null; }

    /** The scheduler rule the channels run: the pool's own where it fixes one, else the slot policy's. */
    private int builtInRule(DramSchedulerPolicy slot) {
        if (schedulerFixed() || slot == null)
            return schedulerName(cfg).equals("fcfs") ? DramSchedulerPolicy.BUILT_IN_FCFS : DramSchedulerPolicy.BUILT_IN_FR_FCFS;
        return slot.builtIn();
    }

    /**
     * A live swap of the dram-scheduler slot: the channels rank with {@code p} from now on (queued requests stay), unless
     * the machine file fixes this pool's scheduler. False when it does (nothing changed).
     */
    public boolean setScheduler(DramSchedulerPolicy p) {
        if (schedulerFixed()) return false;
        int rule = builtInRule(p);
        for (DramChannel c : channels)
            c.setScheduler(rule != DramSchedulerPolicy.BUILT_IN_FCFS, stateFor(rule, p, index, c.index(), cfg.banks()));
        return true;
    }

    /** A channel's ranks under {@code rule}: the policy's state, or null where a built-in scheduler runs. */
    private static DramSchedulerPolicy.State stateFor(int rule, DramSchedulerPolicy p, int pool, int channel, int banks) {
        return rule == DramSchedulerPolicy.RANKED ? p.forChannel(pool, channel, banks) : null;
    }

    private static void validate(PoolConfig c) {
        String p = "pool '" + c.name() + "': ";
        if (c.channels() < 1) throw new IllegalArgumentException(p + "channels must be >= 1");
        if (c.banks() < 1 || c.banks() > 64) throw new IllegalArgumentException(p + "banks must be in [1, 64]");
        if (c.rowBytes() < 1) throw new IllegalArgumentException(p + "row size must be > 0 bytes");
        if (!(c.bytesPerSecond() > 0)) throw new IllegalArgumentException(p + "bandwidth must be > 0");
        if (c.queueDepth() < 1) throw new IllegalArgumentException(p + "queue depth must be >= 1");
        if (c.timing() == null) throw new IllegalArgumentException(p + "DRAM timing missing");
        org.hmsim.platform.memory.DramTiming t = c.timing();
        // a refresh closes every row: a shorter period can lose every ACT to the next refresh (MachineConfig says so at the field)
        if (t.tREFI() > 0 && t.tREFI() <= t.refreshPeriodFloor())
            throw new IllegalArgumentException(p + "refresh period tREFI " + t.tREFI() + " leaves no time to open a row and use it");
        if ((t.tRFC() == 0) != (t.tREFI() == 0)) throw new IllegalArgumentException(p + "refresh needs both tRFC and tREFI, or neither");
        if (c.controllerLatencyPs() < 0) throw new IllegalArgumentException(p + "controller latency must be >= 0");
        String s = schedulerName(c);
        if (!s.equals("fr-fcfs") && !s.equals("frfcfs") && !s.equals("fcfs"))
            throw new IllegalArgumentException(p + "scheduler '" + c.scheduler() + "' unknown (use fr-fcfs or fcfs)");
    }

    /** The port requesters send to: accepts requests whose paddr lies in this pool. */
    public MemSink sink() { return this; }

    // The errors of tryAccept, built apart so that the hot method stays small for the JIT's inlining: with one message
    // grown inline a bench A/B read 1.07 (cpu, new/old), with both built here 0.97 (0.93-1.15; the bench's noise is a few %).
    private IllegalArgumentException notMine(MemRequest r) {
        return new IllegalArgumentException(name() + " (pool " + index + ") got " + r + ": its address belongs to pool " + PhysicalAddress.pool(r.paddr));
    }

    private IllegalStateException badChannel(MemRequest r, int ch) {
        return new IllegalStateException("interleave policy mapped 0x" + Long.toHexString(r.paddr) + " to channel " + ch + " of " + name()
                + ", which has channels 0.." + (channels.length - 1));
    }

    @Override
    public boolean tryAccept(MemRequest r, MemClient from) {
        if (PhysicalAddress.pool(r.paddr) != index) throw notMine(r);
        if (EvictNotice.is(r)) { // a clean eviction's notice: the controller's directory acknowledges it
            notices++;
            respondLater(r);
            return true;
        }
        long offset = PhysicalAddress.offset(r.paddr);
        int n = channels.length;
        int ch = interleave.channel(offset, index, n);
        if (ch < 0 || ch >= n) throw badChannel(r, ch);
        MemClient waiting = r.replyTo;
        if (!channels[ch].tryAccept(r, from, interleave.channelAddress(offset, index, n))) {
            // sends a full queue refused, by side: what waits outside the queue no scheduler's rank can see
            if (r.gpu < 0) refusedCpu++;
            else refusedGpu++;
            return false;
        }
        if (cfg.acksQueuedWrites() && waiting != null && r.kind.carriesData() && r.kind != AccessKind.ATOMIC) ackQueued(r);
        return true;
    }

    /**
     * A posted write ({@code write_ack: queued}): its requester is answered now, through a copy, and the queued
     * request completes without a reply (returned to the pool when written).
     */
    private void ackQueued(MemRequest r) {
        MemRequest ack = requests.take();
        ack.kind = r.kind;
        ack.paddr = r.paddr;
        ack.size = r.size;
        ack.sectorMask = r.sectorMask;
        ack.pool = r.pool;
        ack.gpu = r.gpu;
        ack.sm = r.sm;
        ack.warp = r.warp;
        ack.createdPs = r.createdPs;
        ack.tag = r.tag;
        ack.replyTo = r.replyTo;
        r.replyTo = null;
        respondLater(ack);
    }

    /** Answers a request whose data has crossed the bus, after the controller latency if there is one. */
    void respond(MemRequest r) {
        if (jitter != null) {
            respondJittered(r);
            return;
        }
        if (controllerPs == 0) {
            deliver(r);
            return;
        }
        respondLater(r);
    }

    /**
     * Answers after the controller latency through an event, also at latency 0: an answer given while its request is
     * being accepted (a notice, a queued write's acknowledgement) must not reach the requester inside its own send.
     */
    private void respondLater(MemRequest r) {
        if (delayCount == delayRing.length) {
            MemRequest[] bigger = new MemRequest[delayRing.length * 2];
            for (int i = 0; i < delayCount; i++) bigger[i] = delayRing[(delayHead + i) & (delayRing.length - 1)];
            delayRing = bigger;
            delayHead = 0;
        }
        delayRing[(delayHead + delayCount) & (delayRing.length - 1)] = r;
        delayCount++;
        engine.scheduleIn(controllerPs, this, DELIVER, 0);
    }

    /**
     * After the controller latency plus a draw of 0..jitter: the delays differ, so responses are not due in FIFO order and
     * each waits in a slot of its own, its index the event's payload.
     */
    private void respondJittered(MemRequest r) {
        if (freeJitterSlots == 0) {
            int n = jittered.length;
            jittered = java.util.Arrays.copyOf(jittered, 2 * n);
            freeJitter = java.util.Arrays.copyOf(freeJitter, 2 * n);
            for (int i = n; i < 2 * n; i++) freeJitter[freeJitterSlots++] = i;
        }
        int slot = freeJitter[--freeJitterSlots];
        jittered[slot] = r;
        engine.scheduleIn(controllerPs + jitter.nextLong(cfg.jitterPs() + 1), this, DELIVER_JITTERED, slot);
    }

    @Override
    public void handle(int kind, long payload) {
        if (kind == DELIVER_JITTERED) {
            int slot = (int) payload;
            MemRequest r = jittered[slot];
            jittered[slot] = null;
            freeJitter[freeJitterSlots++] = slot;
            deliver(r);
            return;
        }
        MemRequest r = delayRing[delayHead];
        delayRing[delayHead] = null;
        delayHead = (delayHead + 1) & (delayRing.length - 1);
        delayCount--;
        deliver(r);
    }

    private void deliver(MemRequest r) {
        if (r.replyTo != null) r.replyTo.onResponse(r);
        else requests.give(r);
    }

    /** The fixed controller latency added to every response, ps (0 = none). */
    public long controllerLatencyPs() { return controllerPs; }

    /** Replaces the interleave policy (a live swap, done by the kernel at a drained safe point). */
    public void setInterleave(InterleavePolicy p) { this.interleave = p; }

    /**
     * Latency of a read of {@code bytes} that finds its channel idle, from acceptance to the response:
     * row hit = tCL + transfer; row miss on a closed bank = tRCD + tCL + transfer; plus the controller
     * latency. (A row conflict, another row open, adds tRP: see {@link #rowConflictReadLatencyPs}.)
     * transfer = ceil(bytes x channels / bandwidth). Exact when the bank has been idle for longer than tRC/tRAS.
     */
    public long unloadedReadLatencyPs(int bytes, boolean rowHit) {
        long t = timing.tCL() + channels[0].transferPs(bytes) + controllerPs;
        return rowHit ? t : t + timing.tRCD();
    }

    /** {@link #unloadedReadLatencyPs(int, boolean)} for a 128-byte line. */
    public long unloadedReadLatencyPs(boolean rowHit) { return unloadedReadLatencyPs(128, rowHit); }

    /** Read latency of an idle channel when another row is open in the bank: tRP + tRCD + tCL + transfer. */
    public long rowConflictReadLatencyPs(int bytes) { return timing.tRP() + unloadedReadLatencyPs(bytes, false); }

    /** Data-bus time of {@code bytes} on one channel, ps. */
    public long transferPs(int bytes) { return channels[0].transferPs(bytes); }

    public PoolConfig config() { return cfg; }

    public int index() { return index; }

    public int channels() { return channels.length; }

    @Override
    public PoolInfo info() { return info; }

    @Override
    public String name() { return "pool." + cfg.name(); }

    @Override
    public long bytesServed() {
        long b = 0;
        for (DramChannel c : channels) b += c.bytes();
        return b;
    }

    @Override
    public long bytesServed(int channel) { return channels[channel].bytes(); }

    /**
     * When the last data transfer of any channel ends: page copies and write-backs can still be moving
     * after the workload's last kernel, and their bytes count in {@link #bytesServed()}.
     */
    public long lastDataEndPs() {
        long t = 0;
        for (DramChannel c : channels) t = Math.max(t, c.lastDataEndPs());
        return t;
    }

    @Override
    public int inFlight() {
        int n = delayCount;
        for (DramChannel c : channels) n += c.inFlight();
        return n;
    }

    /** Clean evictions' notices acknowledged without a DRAM access. */
    public long evictNotices() { return notices; }

    public long rowHits() { return sum(c -> c.hits); }

    public long rowMisses() { return sum(c -> c.misses); }

    public long rowConflicts() { return sum(c -> c.conflicts); }

    public long activates() { return sum(c -> c.activates); }

    public long reads() { return sum(c -> c.reads); }

    public long writes() { return sum(c -> c.writes); }

    public long dataBusBusyPs() { return sum(c -> c.busyPs); }

    /** Bytes served / (elapsed time x peak bandwidth), over the elapsed time and any data still moving after it (copies, write-backs), as the run's metric. */
    private double bandwidthUtilisation(long window) {
        return window <= 0 ? 0 : bytesServed() / (window * 1e-12 * cfg.bytesPerSecond());
    }

    public double energyPj() {
        double e = 0;
        for (DramChannel c : channels) e += c.energyPj(cfg.energy());
        return e;
    }

    private long sum(java.util.function.ToLongFunction<DramChannel> f) {
        long s = 0;
        for (DramChannel c : channels) s += f.applyAsLong(c);
        return s;
    }

    /** Registers {@code pool.<name>.*} (pool totals) and {@code pool.<name>.ch<i>.*} on the root registry. */
    @Override
    public void registerStats(Stats root) {
        Stats s = root.scope(name());
        long maxDelay = 1_000_000_000L; // 1 ms: anything longer is clamped
        queueDelay = s.histogram("queue_delay_ps", "time from arrival in a channel queue to the request's column command, ps (all channels)", maxDelay);
        Histogram cpuDelay = s.histogram("queue_delay_cpu_ps", "queue_delay_ps of the CPU side's requests alone (gpu -1: its caches' misses and write-backs), ps", maxDelay);
        for (DramChannel c : channels) {
            c.registerStats(s.scope("ch" + c.index()), queueDelay, cfg.energy(), maxDelay);
            c.recordCpuDelays(cpuDelay);
        }
        s.counter("refused_cpu", "sends of the CPU side a full channel queue refused (each retry counted): waiting outside, where no scheduler ranks them", () -> refusedCpu);
        s.counter("refused_gpu", "sends of the GPUs (L2 misses and write-backs, copies) a full channel queue refused (each retry counted)", () -> refusedGpu);
        s.counter("reads", "read (and atomic) requests served", this::reads);
        s.counter("writes", "write and write-back requests served", this::writes);
        s.counter("evict_notices", "clean evictions' notices acknowledged by the controller (no DRAM access)", this::evictNotices);
        s.counter("bytes_read", "bytes read", () -> sum(c -> c.readBytes));
        s.counter("bytes_written", "bytes written", () -> sum(c -> c.writeBytes));
        s.counter("bus_bytes", "bytes the data buses carried: whole bursts where the pool sets a burst (energy is charged on these)",
                () -> sum(c -> c.readBusBytes + c.writeBusBytes));
        s.counter("bytes", "bytes read and written", this::bytesServed);
        s.counter("row_hits", "requests served from an already open row", this::rowHits);
        s.counter("row_misses", "requests that needed an ACT on a closed bank", this::rowMisses);
        s.counter("row_conflicts", "requests that needed a PRE of another open row, then an ACT", this::rowConflicts);
        s.counter("activates", "ACT commands issued", this::activates);
        s.counter("data_bus_busy_ps", "data-bus busy time summed over channels, ps", this::dataBusBusyPs);
        s.counter("queue_occupancy_integral", "queue length integrated over time, summed over channels, request*ps", () -> sum(DramChannel::occupancyIntegral));
        s.gauge("avg_queue_occupancy", "time-averaged requests waiting, all channels (their queue integrals over the run, or to the pool's last data if later)", () -> Rates.ratio(sum(DramChannel::occupancyIntegral), Rates.window(s, engine, lastDataEndPs())));
        s.gauge("bandwidth_utilisation", "bytes served / (elapsed time x stated peak bandwidth)", () -> bandwidthUtilisation(Rates.window(s, engine, lastDataEndPs())));
        s.gauge("energy_pj", "DRAM energy of the pool, pJ (activates + per-byte read/write energies of the bytes on the bus, whole bursts)", this::energyPj);
    }
}
