package org.hmsim.platform.machine.uvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.platform.engine.EventQueue;
import org.junit.jupiter.api.Test;

/**
 * The compressed-access stage between the L2 slices and the memory controllers: a send a full channel refuses is
 * held without holding back another sender's sends to other channels, and its own sender waits behind it, as the
 * sender's queue to the controllers would make it.
 */
class CompressedAccessDelayTest {
    private static final long CHANNEL_B = 0x10000;

    /** Every frame compressed, every metadata look-up a hit, no codec latency: only the stage's queueing is left. */
    private static final CompressedFrames ALL_COMPRESSED = new CompressedFrames() {
        @Override public boolean compressedFrame(long paddr) { return true; }
        @Override public long metadataReadPa(long paddr, boolean write) { return -1; }
        @Override public long compressedAccessPs(long paddr) { return 0; }
    };

    /** Two channels by address: A refuses while full (and calls the refused back once it has room), B always takes. */
    private static final class TwoChannels implements MemSink {
        boolean aFull;
        final List<Long> accepted = new ArrayList<>();
        final List<MemClient> refused = new ArrayList<>();

        @Override
        public boolean tryAccept(MemRequest r, MemClient from) {
            if (r.paddr < CHANNEL_B && aFull) {
                if (!refused.contains(from)) refused.add(from);
                return false;
            }
            accepted.add(r.paddr);
            return true;
        }

        void makeRoomInA() {
            aFull = false;
            List<MemClient> w = new ArrayList<>(refused);
            refused.clear();
            for (MemClient c : w) c.onSpaceAvailable(this);
        }
    }

    private static final class Slice implements MemClient {
        int wakeups;

        @Override public void onResponse(MemRequest r) {}

        @Override public void onSpaceAvailable(MemSink sink) { wakeups++; }
    }

    private final EventQueue engine = new EventQueue();
    private final RequestPool requests = new RequestPool();
    private final TwoChannels controllers = new TwoChannels();
    private final CompressedAccessDelay stage = new CompressedAccessDelay(ALL_COMPRESSED, controllers, engine, requests);

    private boolean send(Slice from, long paddr) {
        MemRequest r = requests.take();
        r.paddr = paddr;
        r.size = 32;
        boolean taken = stage.tryAccept(r, from);
        engine.run();
        return taken;
    }

    @Test
    void oneSendersRefusalHoldsBackOnlyThatSender() {
        Slice one = new Slice(), two = new Slice();
        controllers.aFull = true;
        assertTrue(send(one, 0x100), "the stage takes a compressed access and holds it when its channel refuses");
        assertTrue(controllers.accepted.isEmpty());

        assertTrue(send(two, CHANNEL_B + 0x100));
        assertEquals(List.of(CHANNEL_B + 0x100), controllers.accepted, "another sender's send to a free channel goes at once");

        assertFalse(send(one, CHANNEL_B + 0x200), "the refused sender's next send waits behind its held one");

        controllers.makeRoomInA();
        assertEquals(List.of(CHANNEL_B + 0x100, 0x100L), controllers.accepted, "the held send goes when its channel has room");
        assertEquals(1, one.wakeups, "and its sender is called back to send the rest");
        assertEquals(0, two.wakeups);
        assertTrue(send(one, CHANNEL_B + 0x200));
        assertEquals(3, controllers.accepted.size());
    }

    @Test
    void aSendersLaterSendsWaitBehindItsHeldOne() {
        Slice one = new Slice();
        controllers.aFull = true;
        MemRequest a = requests.take(), b = requests.take();
        a.paddr = 0x100;
        b.paddr = CHANNEL_B + 0x100;
        assertTrue(stage.tryAccept(a, one));
        // b goes to a free channel, but must not overtake a: the slice keeps it in its own queue
        assertFalse(stage.tryAccept(b, one));
        assertTrue(controllers.accepted.isEmpty(), "nothing overtook the held send: " + controllers.accepted);
        controllers.makeRoomInA();
        assertEquals(1, one.wakeups);
        assertTrue(stage.tryAccept(b, one));
        assertEquals(List.of(0x100L, CHANNEL_B + 0x100), controllers.accepted);
    }

    /** The controllers see each slice as its own client, so a full channel takes the slices in turn as it would without the stage. */
    @Test
    void theControllersSeeEachSliceApart() {
        Slice one = new Slice(), two = new Slice();
        controllers.aFull = true;
        assertTrue(send(one, 0x100));
        assertTrue(send(two, 0x200));
        assertEquals(2, controllers.refused.size(), "two refused clients, one per slice: " + controllers.refused);
        assertTrue(controllers.refused.get(0) != controllers.refused.get(1));
        controllers.makeRoomInA();
        assertEquals(List.of(0x100L, 0x200L), controllers.accepted);
    }
}
