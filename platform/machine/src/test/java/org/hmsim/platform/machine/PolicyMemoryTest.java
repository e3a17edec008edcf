package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.MemoryManager;
import org.junit.jupiter.api.Test;

/** A policy's view of the memory manager, and what retiring it (the policy swapped out) or the workload's end stops. */
class PolicyMemoryTest {

    /** Records copies and lets the test complete them. */
    private static final class Os implements MemoryManager {
        final List<Runnable> copies = new ArrayList<>();
        int maps;

        @Override public long pageBytes() { return 4096; }
        @Override public List<Allocation> allocations() { return List.of(); }
        @Override public Allocation allocationOf(long va) { return null; }
        @Override public int poolOf(long vpn) { return 7; }
        @Override public long freeFrames(int pool) { return 0; }
        @Override public long totalFrames(int pool) { return 0; }
        @Override public long mappedPages(int pool) { return 0; }
        @Override public boolean translatedByGpu(long vpn) { return false; }
        @Override public int map(long vpn, int pool) { maps++; return pool; }

        @Override
        public boolean migrate(long vpn, int toPool, Runnable done) {
            copies.add(done);
            return true;
        }
    }

    @Test
    void aRetiredPolicyStartsNothingAndHearsOfNoCopyThatCompletesAfter() {
        Os os = new Os();
        PolicyMemory view = new PolicyMemory(os);
        int[] told = {0};
        assertTrue(view.migrate(1, 0, () -> told[0]++));
        assertTrue(view.migrate(2, 0, () -> told[0]++));
        os.copies.get(0).run();
        assertEquals(1, told[0], "a copy completing while the policy holds its slot is told to it");
        assertEquals(1, view.copiesInFlight());

        view.retire();
        os.copies.get(1).run();
        assertEquals(1, told[0], "the copy completing after the swap is not");
        assertEquals(0, view.copiesInFlight());
        assertFalse(view.migrate(3, 0, () -> told[0]++), "a retired policy starts no copy");
        assertEquals(2, os.copies.size());
        assertEquals(-1, view.map(4, 0), "nor maps a page");
        assertEquals(0, os.maps);
        assertEquals(7, view.poolOf(5), "what it reads is still the run's");
    }

    @Test
    void afterTheWorkloadHasEndedNothingStartsButCompletionsAreStillTold() {
        Os os = new Os();
        PolicyMemory view = new PolicyMemory(os);
        int[] told = {0};
        assertTrue(view.migrate(1, 0, () -> told[0]++));
        view.endWorkload();
        assertFalse(view.migrate(2, 0, () -> told[0]++), "no copy starts for a program that has ended");
        assertEquals(-1, view.map(3, 0), "nor is a page mapped");
        assertEquals(1, os.copies.size());
        assertEquals(0, os.maps);
        os.copies.get(0).run();
        assertEquals(1, told[0], "the copy in flight at the end is told to the policy, which may be waiting for it");
        assertEquals(0, view.copiesInFlight());
    }

    @Test
    void aNullCallbackIsAllowedAsTheApiSays() {
        Os os = new Os();
        PolicyMemory view = new PolicyMemory(os);
        assertTrue(view.migrate(1, 0, null));
        os.copies.get(0).run();
        assertEquals(0, view.copiesInFlight());
    }

    /**
     * Every method of the API is passed on: a default method the view did not override would answer with the API's
     * default (-1, null) instead of the run's memory manager, silently, for every policy.
     */
    @Test
    void everyMemoryManagerMethodIsPassedOn() throws NoSuchMethodException {
        for (Method m : MemoryManager.class.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) continue;
            Method own = PolicyMemory.class.getMethod(m.getName(), m.getParameterTypes());
            assertEquals(PolicyMemory.class, own.getDeclaringClass(), m.getName() + " is not passed on by PolicyMemory");
        }
    }
}
