package org.hmsim.platform.memory.os;

import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;
import org.hmsim.platform.engine.PhysicalAddress;

/**
 * The copy of one page from its old frame to its new one: 128-byte chunks, each read from the old frame
 * and then (the same pooled request, turned into a write) written to the new one, with at most
 * {@code maxInFlight} copy requests outstanding. Refused requests wait here, in order, until the
 * memory side has space. Records are reused by the memory manager.
 *
 * <p>A <em>stream</em> is one side of a copy whose other side is outside the memory system (a host link's
 * DMA engine): only writes into a frame ({@code src < 0}) or only reads out of one ({@code dst < 0}), at the pace at
 * which the link delivers or takes the data: over the link's span, a chunk is written once the link has delivered it
 * and read as the link is ready to take it.
 */
final class PageMigration implements MemClient, EventTarget {
    static final int CHUNK = 128;

    private final OsMemoryManager os;
    long vpn;
    AllocationPages pages;
    int index;
    long src, dst;
    /** The destination is a frame another migration left (its caches are dropped again at the remap). */
    boolean dstReused;
    Runnable done;
    /** When the copy started, for the latency statistics. */
    long startPs;
    private int chunks, chunkBytes, nextChunk, chunksDone, inFlight, maxInFlight;
    private long bytes;
    /** A stream (one side of a copy, see the class comment), and its pace. */
    boolean stream;
    private long firstPs, chunkPs;
    private boolean wakePending;
    /** The node whose copy engine moves the page: the destination's (it pulls the data over one link and writes locally). */
    private int copier;
    private MemRequest[] blocked = new MemRequest[8];
    private int blockedHead, blockedCount;

    PageMigration(OsMemoryManager os) { this.os = os; }

    void start(long vpn, AllocationPages pages, int index, long src, long dst, Runnable done, int maxInFlight, long pageBytes) {
        this.pages = pages;
        this.index = index;
        this.stream = false;
        begin(vpn, src, dst, pageBytes, 0, 0, done, maxInFlight);
    }

    /**
     * One side of a copy: writes into {@code dst} (src -1) or reads out of {@code src} (dst -1), paced by a link that
     * carries the data from {@code linkStartPs} for {@code linkSpanPs} (class comment).
     */
    void startStream(long vpn, long src, long dst, long bytes, long linkStartPs, long linkSpanPs, Runnable done, int maxInFlight) {
        this.pages = null;
        this.stream = true;
        begin(vpn, src, dst, bytes, linkStartPs, linkSpanPs, done, maxInFlight);
    }

    private void begin(long vpn, long src, long dst, long bytes, long linkStartPs, long linkSpanPs, Runnable done, int maxInFlight) {
        this.vpn = vpn;
        this.src = src;
        this.dst = dst;
        this.done = done;
        this.startPs = os.now();
        this.bytes = bytes;
        this.chunkBytes = (int) Math.min(CHUNK, bytes);
        this.chunks = (int) ((bytes + chunkBytes - 1) / chunkBytes);
        this.chunkPs = linkSpanPs / chunks;
        this.firstPs = linkStartPs + (src < 0 ? chunkPs : 0); // a write waits for its chunk's delivery, a read goes as the link is ready
        this.nextChunk = 0;
        this.chunksDone = 0;
        this.inFlight = 0;
        this.maxInFlight = maxInFlight;
        this.copier = os.nodeOfPool(PhysicalAddress.pool(dst >= 0 ? dst : src));
        this.blockedHead = 0;
        if (blocked.length < maxInFlight) blocked = new MemRequest[Integer.highestOneBit(maxInFlight) << 1];
        pump();
    }

    /**
     * Starts chunks while the in-flight limit allows, nothing is waiting to be resent, copies are not held and (a
     * stream) the link has delivered the chunk's data or is ready to take it.
     */
    void pump() {
        while (blockedCount == 0 && inFlight < maxInFlight && nextChunk < chunks) {
            // a live swap drains the memory system: the rest of a migrating page waits for it. A stream does not: the drain
            // waits for the page walks its page will wake (held, it deadlocked every memory-drain swap on a uvm: machine)
            if (os.copiesHeld() && !stream) {
                os.parkCopy(this);
                return;
            }
            long due = firstPs + nextChunk * chunkPs;
            if (due > os.now()) {
                if (!wakePending) {
                    wakePending = true;
                    os.wakeAt(due, this);
                }
                return;
            }
            long off = (long) nextChunk++ * chunkBytes;
            boolean read = src >= 0;
            MemRequest r = os.requests().take();
            r.kind = read ? AccessKind.READ : AccessKind.WRITE;
            r.paddr = (read ? src : dst) + off;
            r.pool = PhysicalAddress.pool(r.paddr);
            r.size = (int) Math.min(chunkBytes, bytes - off);
            r.sectorMask = -1;
            r.vaddr = vpn * os.pageBytes() + off;
            r.gpu = copier; // the copy engine that pulls the page: the machine routes its reads and writes from there
            r.createdPs = os.now();
            r.replyTo = this;
            r.tag = off;
            inFlight++;
            os.chunkStarted();
            send(r);
        }
    }

    private void send(MemRequest r) {
        if (blockedCount > 0 || !os.memory().send(r, this)) {
            blocked[(blockedHead + blockedCount) & (blocked.length - 1)] = r;
            blockedCount++;
        }
    }

    @Override
    public void onSpaceAvailable(MemSink sink) {
        while (blockedCount > 0) {
            MemRequest r = blocked[blockedHead];
            if (!os.memory().send(r, this)) return;
            blocked[blockedHead] = null;
            blockedHead = (blockedHead + 1) & (blocked.length - 1);
            blockedCount--;
        }
        pump();
    }

    /** The link has delivered (or is ready to take) the next chunk. */
    @Override
    public void handle(int kind, long payload) {
        wakePending = false;
        pump();
    }

    @Override
    public void onResponse(MemRequest r) {
        if (!stream) os.countCopyBytes(r.size);
        if (r.kind == AccessKind.READ && dst >= 0) {
            // the chunk is read: write it into the new frame with the same request
            r.kind = AccessKind.WRITE;
            r.paddr = dst + r.tag;
            r.pool = PhysicalAddress.pool(dst);
            r.createdPs = os.now();
            send(r);
            return;
        }
        os.requests().give(r);
        inFlight--;
        os.chunkDone();
        if (++chunksDone == chunks) {
            if (stream) os.finishStream(this);
            else os.finish(this);
        }
        else pump();
    }
}
