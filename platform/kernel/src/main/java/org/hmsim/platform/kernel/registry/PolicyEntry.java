package org.hmsim.platform.kernel.registry;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;

/**
 * One installed policy: what {@code hmsim policies} lists and what results record.
 *
 * @param bundle the providing bundle as {@code symbolic-name version}, or {@code classpath} outside OSGi
 */
public record PolicyEntry(Slot slot, String name, String version, String bundle, String description,
                          List<ParamSpec> parameters, PolicyProvider provider) {

    static PolicyEntry of(PolicyProvider p, String bundle) {
        return new PolicyEntry(p.slot(), p.name(), p.version(), bundle, p.description(),
                List.copyOf(p.parameters()), p);
    }

    /** {@code name@version}, as recorded with results. */
    public String id() { return name + "@" + version; }

    /** The providing bundle's symbolic name ({@code bundle} is {@code symbolic-name version}). */
    public String bundleName() {
        int space = bundle.indexOf(' ');
        return space < 0 ? bundle : bundle.substring(0, space);
    }
}
