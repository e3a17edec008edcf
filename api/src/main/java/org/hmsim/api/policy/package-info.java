@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.25.0")
package org.hmsim.api.policy;
