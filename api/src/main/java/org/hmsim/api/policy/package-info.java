@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.22.0")
package org.hmsim.api.policy;
