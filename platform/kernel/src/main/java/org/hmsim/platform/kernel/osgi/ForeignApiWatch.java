package org.hmsim.platform.kernel.osgi;

import org.hmsim.api.policy.PolicyProvider;
import org.osgi.framework.AllServiceListener;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceEvent;
import org.osgi.framework.ServiceReference;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;

/**
 * A bundle that carries its own copy of the api packages (embedded instead of imported) registers policy providers
 * the kernel cannot see: its PolicyProvider is another class. Its policies were silently missing from
 * {@code policies}; this says why, once per bundle (found by an OSGi review).
 */
@Component(immediate = true)
public final class ForeignApiWatch implements AllServiceListener {
    private static final String TYPE = PolicyProvider.class.getName();
    private BundleContext context;
    /** Bundles already named (a bundle registering several such providers is named once). */
    private final java.util.Set<Long> named = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Activate
    void activate(BundleContext ctx) throws InvalidSyntaxException {
        this.context = ctx;
        ctx.addServiceListener(this, "(objectClass=" + TYPE + ")");
        ServiceReference<?>[] now = ctx.getAllServiceReferences(TYPE, null);
        if (now != null) for (ServiceReference<?> r : now) check(r);
    }

    @Deactivate
    void deactivate() { context.removeServiceListener(this); }

    @Override
    public void serviceChanged(ServiceEvent event) {
        if (event.getType() == ServiceEvent.REGISTERED) check(event.getServiceReference());
    }

    private void check(ServiceReference<?> ref) {
        Bundle b = ref.getBundle();
        if (b == null || ref.isAssignableTo(context.getBundle(), TYPE) || !named.add(b.getBundleId())) return;
        System.err.println("hmsim: bundle " + b.getSymbolicName() + " " + b.getVersion() + " registers a policy provider from its own copy of "
                + PolicyProvider.class.getPackageName() + ": the kernel cannot use it. Import the api's packages instead of embedding them "
                + "(docs/writing-a-mechanism.md).");
    }
}
