@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.8.0")
package org.hmsim.api.machine;
