package org.hmsim.api.policy;

/**
 * Limits how many SMs issue, through {@link org.hmsim.api.machine.CoreView#setIssueEnabled}. Called at
 * each statistics epoch.
 */
public interface ThrottlingPolicy extends Policy {
    default void onEpoch(long nowPs) {}
}
