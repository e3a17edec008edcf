package org.hmsim.platform.gpu.tlb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import org.hmsim.api.engine.ClockDomain;
import org.hmsim.platform.engine.EventQueue;
import org.hmsim.platform.gpu.AddressTranslator;
import org.hmsim.platform.gpu.TlbConfig;
import org.junit.jupiter.api.Test;

/**
 * A coherence-permission fault found by a page walk (seed 001) holds that walk, and so only the accesses to
 * its page, for the fault handler's time; walks of other pages, started at the same time, finish unhindered,
 * and a later miss on the faulting page waits with it instead of walking again.
 */
class MmuPermissionFaultTest {
    private static final long FAULT_PS = 2_500_000; // 2.5 us: seed 001's 5000 CPU cycles at 2 GHz
    private static final long FAULTING_VPN = 7, OTHER_VPN = 9;

    @Test
    void aPermissionFaultHoldsOnlyTheWalkOfItsPage() {
        EventQueue engine = new EventQueue();
        ClockDomain clock = ClockDomain.ofMHz("gpu", 1000);
        int[] checks = {0};
        AddressTranslator translator = new AddressTranslator() {
            @Override public long translate(int gpu, long vaddr) { return vaddr; }
            @Override public long pageBytes() { return 4096; }
            @Override public long walkFaultPs(int gpu, long vaddr) {
                checks[0]++;
                return vaddr / 4096 == FAULTING_VPN ? FAULT_PS : 0;
            }
        };
        Mmu mmu = new Mmu(0, new TlbConfig(32, 32, 1, 512, 16, 10, 100, 8, 100), clock, engine, translator);
        Map<String, Long> arrived = new HashMap<>();
        mmu.setClients(new TranslationClient[] {
                (vpn, base) -> arrived.put("sm0:" + vpn, engine.now()),
                (vpn, base) -> arrived.put("sm1:" + vpn, engine.now())});

        mmu.request(0, FAULTING_VPN, 0);
        mmu.request(0, OTHER_VPN, 0);
        engine.run(1_000_000); // 1 us: both walks are done, the fault is still being served
        mmu.request(1, FAULTING_VPN, 0); // another SM misses on the faulting page meanwhile
        engine.run();

        long unloaded = clock.ps(10 + 100); // L2 TLB look-up + walk
        assertEquals(unloaded, arrived.get("sm0:" + OTHER_VPN), "the other page's walk is not held");
        assertEquals(unloaded + FAULT_PS, arrived.get("sm0:" + FAULTING_VPN), "the faulting walk waits out the handler");
        assertEquals(unloaded + FAULT_PS, arrived.get("sm1:" + FAULTING_VPN), "a later miss on the page merges into the held walk");
        assertEquals(2, checks[0], "one permission check per walk");
    }
}
