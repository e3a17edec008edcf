package org.hmsim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.junit.jupiter.api.Test;

/** A plugin that cannot resolve is explained in one line, the missing package said plainly (an OSGi review found stack traces). */
class PluginScanTest {
    private static final BundleContext NO_BUNDLES = (BundleContext) Proxy.newProxyInstance(BundleContext.class.getClassLoader(),
            new Class<?>[] {BundleContext.class}, (p, m, a) -> m.getName().equals("getBundles") ? new Bundle[0] : null);

    @Test
    void aMissingPackageIsNamedWithTheVersionsItNeeds() {
        String felix = "Unable to resolve org.example.needs15 [25](R 25.0): missing requirement [org.example.needs15 [25](R 25.0)] "
                + "osgi.wiring.package; (&(osgi.wiring.package=org.hmsim.api.policy)(version>=1.5.0)(!(version>=2.0.0))) Unresolved requirements: [...]";
        assertEquals("it needs package org.hmsim.api.policy version 1.5.0 up to (not including) 2.0.0; this container has none",
                PluginScan.missingImport(felix, NO_BUNDLES));
        assertEquals("something else went wrong", PluginScan.missingImport("something else went wrong", NO_BUNDLES));
    }
}
