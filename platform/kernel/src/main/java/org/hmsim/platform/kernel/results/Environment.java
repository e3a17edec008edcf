package org.hmsim.platform.kernel.results;

import java.util.List;

/** What provenance records about the running platform: hmsim's version and the installed bundles. */
public interface Environment {
    /** A bundle as {@code symbolic-name} and version. */
    record BundleInfo(String symbolicName, String version) {}

    String hmsimVersion();

    /** The source the kernel was built from ({@code git describe}: a commit, {@code -dirty} with local changes), or "" if unknown. */
    default String sourceCommit() { return ""; }

    /** {@code 0.1.0.202611292205 (source 1a2b3c4d5e6f)}: the version, and the source where known. */
    default String describe() { return hmsimVersion() + (sourceCommit().isEmpty() ? "" : " (source " + sourceCommit() + ")"); }

    /** Every installed bundle, sorted by symbolic name; empty outside OSGi. */
    List<BundleInfo> bundles();

    /** Outside OSGi: the version from the jar manifest, no bundles. */
    static Environment classpath() {
        return new Environment() {
            public String hmsimVersion() {
                String v = Environment.class.getPackage().getImplementationVersion();
                return v == null ? "0.1.0-SNAPSHOT" : v;
            }

            public List<BundleInfo> bundles() { return List.of(); }
        };
    }
}
