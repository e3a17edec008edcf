package org.hmsim.platform.memory.link;

import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;

/**
 * The entry of a link towards one target: requests offered here cross the link in the port's
 * direction, are re-issued at the far end as new pooled requests (with this port as requester) to the
 * target, and their answers cross back in the other direction before the original requester is
 * answered. Write-backs cross once and are handed on as they are; one whose sender waits for its acknowledgement
 * (an L2 victim's {@code WB_ACK}) gets a header-only acknowledgement back.
 *
 * <p>Packets on the wire: read request = header; read response = header + data; write request =
 * header + data; write acknowledgement = header; atomic = header + data both ways. Header and payload
 * each occupy whole flits (see {@link Link#packetBytes}).
 *
 * <p>At the far end, a request the target refuses waits in a FIFO (the link's receive buffer) and is
 * retried, in order, when the target has space again.
 */
public final class LinkPort implements MemSink, MemClient {
    private final Link link;
    private final LinkDirection out, back;
    private final MemSink target;

    // originals waiting for their answer, indexed by the forwarded request's tag
    private MemRequest[] pending = new MemRequest[64];
    private int[] freeSlots = new int[64];
    private int nFree;
    private int used;

    // forwarded requests the target refused, in arrival order
    private MemRequest[] held = new MemRequest[16];
    private int heldHead, heldCount;

    LinkPort(Link link, LinkDirection out, LinkDirection back, MemSink target) {
        this.link = link;
        this.out = out;
        this.back = back;
        this.target = target;
    }

    /** The direction requests take: 0 = from node A to node B, 1 = back. */
    public int direction() { return out.direction(); }

    public MemSink target() { return target; }

    @Override
    public boolean tryAccept(MemRequest r, MemClient from) {
        if (out.full()) {
            if (from != null) out.addWaiter(from, this);
            return false;
        }
        int payload = carriesDataDown(r.kind) ? r.size : 0;
        out.send(r, this, LinkDirection.REQUEST, link.packetBytes(payload), payload);
        return true;
    }

    private static boolean carriesDataDown(AccessKind k) { return k.carriesData(); }

    private static boolean carriesDataUp(AccessKind k) { return k == AccessKind.READ || k == AccessKind.ATOMIC; }

    /** A request reached the far end. */
    void arrive(MemRequest orig) {
        MemRequest fwd;
        if (orig.replyTo == null) {
            fwd = orig;
        } else {
            fwd = link.requests().take();
            fwd.kind = orig.kind;
            fwd.vaddr = orig.vaddr;
            fwd.paddr = orig.paddr;
            fwd.size = orig.size;
            fwd.sectorMask = orig.sectorMask;
            fwd.pool = orig.pool;
            fwd.gpu = orig.gpu;
            fwd.sm = orig.sm;
            fwd.warp = orig.warp;
            fwd.createdPs = link.engine().now();
            fwd.replyTo = this;
            fwd.tag = park(orig);
        }
        if (heldCount > 0 || !target.tryAccept(fwd, this)) hold(fwd);
    }

    @Override
    public void onSpaceAvailable(MemSink sink) {
        while (heldCount > 0) {
            MemRequest r = held[heldHead];
            if (!target.tryAccept(r, this)) return;
            held[heldHead] = null;
            heldHead = (heldHead + 1) & (held.length - 1);
            heldCount--;
        }
    }

    /** The target answered a forwarded request: the answer crosses back. */
    @Override
    public void onResponse(MemRequest fwd) {
        MemRequest orig = unpark((int) fwd.tag);
        link.requests().give(fwd);
        int payload = carriesDataUp(orig.kind) ? orig.size : 0;
        back.send(orig, this, LinkDirection.RESPONSE, link.packetBytes(payload), payload);
    }

    /** The answer reached the near end. */
    void answered(MemRequest orig) { orig.replyTo.onResponse(orig); }

    private int park(MemRequest orig) {
        int slot;
        if (nFree > 0) {
            slot = freeSlots[--nFree];
        } else {
            if (used == pending.length) {
                pending = java.util.Arrays.copyOf(pending, used * 2);
                freeSlots = java.util.Arrays.copyOf(freeSlots, used * 2);
            }
            slot = used++;
        }
        pending[slot] = orig;
        return slot;
    }

    private MemRequest unpark(int slot) {
        MemRequest r = pending[slot];
        pending[slot] = null;
        freeSlots[nFree++] = slot;
        return r;
    }

    private void hold(MemRequest r) {
        if (heldCount == held.length) {
            MemRequest[] n = new MemRequest[held.length * 2];
            for (int k = 0; k < heldCount; k++) n[k] = held[(heldHead + k) & (held.length - 1)];
            held = n;
            heldHead = 0;
        }
        held[(heldHead + heldCount) & (held.length - 1)] = r;
        heldCount++;
    }

    /** Requests crossed but not yet answered, plus held ones. */
    int waiting() { return (used - nFree) + heldCount; }
}
