package org.hmsim.platform.memory.os;

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
 */
final class PageMigration implements MemClient {
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
    /** The node whose copy engine moves the page: the destination's (it pulls the data over one link and writes locally). */
    private int copier;
    private MemRequest[] blocked = new MemRequest[8];
    private int blockedHead, blockedCount;

    PageMigration(OsMemoryManager os) { this.os = os; }

    void start(long vpn, AllocationPages pages, int index, long src, long dst, Runnable done, int maxInFlight, long pageBytes) {
        this.vpn = vpn;
        this.pages = pages;
        this.index = index;
        this.src = src;
        this.dst = dst;
        this.done = done;
        this.startPs = os.now();
        this.chunkBytes = (int) Math.min(CHUNK, pageBytes);
        this.chunks = (int) (pageBytes / chunkBytes);
        this.nextChunk = 0;
        this.chunksDone = 0;
        this.inFlight = 0;
        this.maxInFlight = maxInFlight;
        this.copier = os.nodeOfPool(PhysicalAddress.pool(dst));
        this.blockedHead = 0;
        if (blocked.length < maxInFlight) blocked = new MemRequest[Integer.highestOneBit(maxInFlight) << 1];
        pump();
    }

    /** Starts chunk reads while the in-flight limit allows, nothing is waiting to be resent and copies are not held. */
    void pump() {
        while (blockedCount == 0 && inFlight < maxInFlight && nextChunk < chunks) {
            if (os.copiesHeld()) {
                os.parkCopy(this); // a live swap drains the memory system: the rest of the page waits for it
                return;
            }
            long off = (long) nextChunk++ * chunkBytes;
            MemRequest r = os.requests().take();
            r.kind = AccessKind.READ;
            r.paddr = src + off;
            r.pool = PhysicalAddress.pool(src);
            r.size = chunkBytes;
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

    @Override
    public void onResponse(MemRequest r) {
        os.countCopyBytes(r.size);
        if (r.kind == AccessKind.READ) {
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
        if (++chunksDone == chunks) os.finish(this);
        else pump();
    }
}
