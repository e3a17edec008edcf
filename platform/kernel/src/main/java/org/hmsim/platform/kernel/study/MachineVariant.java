package org.hmsim.platform.kernel.study;

import java.util.Map;
import org.hmsim.platform.machine.MachineConfig;

/**
 * One validated machine of a study: a machine file with the study's overrides and one point of its
 * machine sweeps applied.
 *
 * @param label the machine's name in runs.csv (the file name without extension)
 * @param file the machine file as shown in messages
 * @param tree the fully resolved description tree (for config.json)
 * @param fileSha256 hex SHA-256 of the machine file's bytes as read (provenance: study.json lists it)
 */
public record MachineVariant(String label, String file, MachineConfig config, Map<String, Object> tree, String fileSha256) {}
