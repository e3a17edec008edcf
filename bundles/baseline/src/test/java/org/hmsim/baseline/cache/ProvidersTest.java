package org.hmsim.baseline.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.policy.CacheabilityPolicy;
import org.hmsim.api.policy.L2MissPathPolicy;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.baseline.replacement.LruProvider;
import org.hmsim.baseline.scheduling.GtoProvider;
import org.hmsim.baseline.scheduling.LrrProvider;
import org.hmsim.baseline.scheduling.RoundRobinCtaProvider;
import org.junit.jupiter.api.Test;

class ProvidersTest {

    @Test
    void cacheAllAllowsEveryLevel() {
        CacheabilityPolicy p = (CacheabilityPolicy) new CacheAllProvider().create(null, Params.empty());
        assertTrue(p.mayAllocate(1, new MemRequest()));
        assertTrue(p.mayAllocate(2, new MemRequest()));
    }

    @Test
    void conventionalHasNoFetchBuffers() {
        L2MissPathPolicy p = (L2MissPathPolicy) new ConventionalMissPathProvider().create(null, Params.empty());
        assertEquals(0, p.fetchBuffersPerBank());
    }

    @Test
    void postedWriteBackPostsWriteBacks() {
        assertTrue(((L2MissPathPolicy) new PostedWriteBackMissPathProvider().create(null, Params.empty())).postsWriteBacks());
        assertFalse(((L2MissPathPolicy) new ConventionalMissPathProvider().create(null, Params.empty())).postsWriteBacks());
    }

    @Test
    void providersCreateTheirSlotsTypeAndDeclareMatchingNames() {
        List<PolicyProvider> all = List.of(new CacheAllProvider(), new ConventionalMissPathProvider(), new PostedWriteBackMissPathProvider(), new LruProvider(),
                new GtoProvider(), new LrrProvider(), new RoundRobinCtaProvider());
        for (PolicyProvider p : all) {
            assertTrue(p.slot().policyType().isInstance(p.create(null, Params.empty())), p.name());
            assertTrue(p.parameters().isEmpty());
            assertTrue(p.description().length() > 20);
        }
        assertEquals("lru", new LruProvider().name());
        assertEquals("gto", new GtoProvider().name());
    }
}
