package org.hmsim.launcher;

import java.lang.reflect.Method;
import java.util.Collection;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;

/**
 * Whether the declarative-services runtime (SCR) has taken up a started bundle's components, read off its
 * {@code ServiceComponentRuntime} service.
 *
 * <p>Why a plugin's ACTIVE state is not enough: Felix sets a bundle ACTIVE and only then fires its STARTED event, which
 * is when SCR reads the bundle's component descriptions, enables them and registers their services (on the thread that
 * started the bundle: FileInstall's, for a jar in plugins/). In between, a headless command that waited for ACTIVE ran
 * without the plugin: twice under load {@code hmsim validate} called a dropped-in plugin's policy unknown.
 *
 * <p>The launcher lives outside the framework and does not share SCR's API classes (SCR exports them from its own
 * bundle), so the service is called through its interface by reflection; the DTOs' fields are public.
 */
final class ComponentsSettled {
    private static final String SCR = "org.osgi.service.component.runtime.ServiceComponentRuntime";
    /** {@code ComponentConfigurationDTO.UNSATISFIED_REFERENCE}: also the state a configuration passes through while SCR enables it. */
    private static final int UNSATISFIED_REFERENCE = 2;

    private ComponentsSettled() {}

    /**
     * True when {@code b} declares no components, when SCR has enabled each of them as it declares, each has its
     * configuration (a component that requires configuration waits for Configuration Admin, not for SCR) and none lacks
     * a reference, or when there is no SCR to ask. False may not last (SCR shows a missing reference while it enables
     * a component) or may (a component needs a service nobody offers; a description SCR could not read): the caller
     * waits a while, not for ever.
     */
    static boolean settled(BundleContext ctx, Bundle b) {
        if (b.getHeaders("").get("Service-Component") == null) return true;
        ServiceReference<?> ref = ctx.getServiceReference(SCR);
        if (ref == null) return true;
        Object scr = ctx.getService(ref);
        if (scr == null) return true;
        try {
            return settled(scr, b);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return true; // an SCR this launcher cannot read: as before, the bundle's state alone decides
        } finally {
            ctx.ungetService(ref);
        }
    }

    static boolean settled(Object scr, Bundle b) throws ReflectiveOperationException {
        Class<?> api = interfaceNamed(scr.getClass());
        if (api == null) return true;
        Method descriptions = api.getMethod("getComponentDescriptionDTOs", Bundle[].class);
        Method enabled = oneArgument(api, "isComponentEnabled");
        Method configurations = oneArgument(api, "getComponentConfigurationDTOs");
        Collection<?> ds = (Collection<?>) descriptions.invoke(scr, (Object) new Bundle[] {b});
        if (ds == null || ds.isEmpty()) return false; // SCR has not read the bundle yet
        for (Object d : ds) {
            if (!d.getClass().getField("defaultEnabled").getBoolean(d)) continue; // its bundle's code enables it, if ever
            if (!(Boolean) enabled.invoke(scr, d)) return false;
            Collection<?> cs = (Collection<?>) configurations.invoke(scr, d);
            if (cs == null || cs.isEmpty()) {
                if ("require".equals(d.getClass().getField("configurationPolicy").get(d))) continue;
                return false;
            }
            for (Object c : cs)
                if (c.getClass().getField("state").getInt(c) == UNSATISFIED_REFERENCE) return false;
        }
        return true;
    }

    /** The SCR API interface among {@code c}'s, or null. */
    private static Class<?> interfaceNamed(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getSuperclass())
            for (Class<?> i : k.getInterfaces()) if (i.getName().equals(SCR)) return i;
        return null;
    }

    /** {@code api}'s one-argument method {@code name} (its parameter is a DTO class of SCR's class loader). */
    private static Method oneArgument(Class<?> api, String name) throws NoSuchMethodException {
        for (Method m : api.getMethods())
            if (m.getName().equals(name) && m.getParameterCount() == 1) return m;
        throw new NoSuchMethodException(name);
    }
}
