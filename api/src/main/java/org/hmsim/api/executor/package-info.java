/**
 * Batch schedulers: how a study's runs are sent to a cluster as an array job. The kernel has Slurm built
 * in; a site adds its own scheduler (PBS, LSF, HTCondor...) as a bundle that registers a
 * {@link org.hmsim.api.executor.BatchScheduler} service; users pick it with {@code hmsim run --executor NAME}.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package org.hmsim.api.executor;
