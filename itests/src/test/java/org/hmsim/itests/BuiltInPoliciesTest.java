package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.osgi.framework.ServiceReference;

/**
 * Every policy provider the platform's bundles register is one `policies` lists. The kernel refuses a provider whose
 * service properties and methods disagree (slot, name, version): ETC's three providers once had their version raised in
 * the properties only, and left the container without them, said only as a warning at start-up (seen in `hmsim bench`).
 */
class BuiltInPoliciesTest extends ContainerPerTest {
    @Test
    void everyRegisteredProviderIsListed() throws Exception {
        ServiceReference<?>[] refs = container.context().getAllServiceReferences("org.hmsim.api.policy.PolicyProvider", null);
        assertNotNull(refs, "the platform's bundles register policy providers");
        Hmsim.Result listed = Hmsim.run(container, "policies");
        List<String> missing = new ArrayList<>();
        for (ServiceReference<?> r : refs) {
            String line = "  " + r.getProperty("hmsim.policy") + " " + r.getProperty("hmsim.policy.version") + "  [" + r.getBundle().getSymbolicName() + " ";
            if (!listed.out().contains(line)) missing.add(r.getProperty("hmsim.slot") + ": " + line.strip());
        }
        assertTrue(refs.length > 30, "every built-in bundle's providers: " + refs.length);
        assertTrue(missing.isEmpty(), "registered but not listed (refused by the kernel?): " + missing + "\n" + listed.err());
        assertFalse(listed.err().contains("is not installed"), listed.err());
    }
}
