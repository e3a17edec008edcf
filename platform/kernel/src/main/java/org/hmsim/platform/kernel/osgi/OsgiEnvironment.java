package org.hmsim.platform.kernel.osgi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.hmsim.platform.kernel.results.Environment;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;

/** Provenance inside the framework: the kernel bundle's version and every installed bundle. */
final class OsgiEnvironment implements Environment {
    private final BundleContext context;

    OsgiEnvironment(BundleContext context) { this.context = context; }

    @Override
    public String hmsimVersion() { return context.getBundle().getVersion().toString(); }

    @Override
    public String sourceCommit() {
        String c = context.getBundle().getHeaders().get("Hmsim-Source-Commit");
        return c == null ? "" : c.trim();
    }

    @Override
    public List<BundleInfo> bundles() {
        List<BundleInfo> l = new ArrayList<>();
        for (Bundle b : context.getBundles())
            l.add(new BundleInfo(b.getSymbolicName() == null ? "(no symbolic name) " + b.getLocation() : b.getSymbolicName(), b.getVersion().toString()));
        l.sort(Comparator.comparing(BundleInfo::symbolicName).thenComparing(BundleInfo::version));
        return l;
    }

    /** {@code symbolic-name version} of the bundle that registered a service. */
    static String bundleOf(ServiceReference<?> ref) {
        Bundle b = ref == null ? null : ref.getBundle();
        return b == null ? "unknown" : b.getSymbolicName() + " " + b.getVersion();
    }
}
