@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.2")
package org.hmsim.api.engine;
