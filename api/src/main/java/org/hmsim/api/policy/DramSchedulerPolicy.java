package org.hmsim.api.policy;

import org.hmsim.api.mem.MemRequest;

/**
 * Chooses which queued request a DRAM channel serves next (FR-FCFS, FCFS, FR-FCFS+Cap, CPU-prioritised, BLISS …).
 * Since api.policy 1.24.0.
 *
 * <p>A channel keeps its own timing rules (bank, bus and command-bus constraints, refresh); the policy only ranks. At
 * each scheduling decision every bank offers the command of its best-ranked queued request: the column command if
 * that request's row is open, else an ACT (bank closed) or a PRE (another row open, even one queued requests still
 * hit: ranking a miss above them is how a policy closes a row). Of the offered commands that may issue now, the
 * best-ranked goes. Ranks are {@link State#rank} values, lower first; equal ranks go oldest first (arrival at the
 * channel).
 *
 * <p>Ranks are asked afresh at each decision: at an arrival, after each command, and when an offered command becomes
 * ready. A rank that changes with time alone (an interval that clears a blacklist) is applied at the next of those. The
 * time is {@code context.machine().engine().now()} (ps) of the {@link PolicyContext} the provider's {@code create} gets;
 * a request's arrival at the channel is the time of its {@link State#onArrival}. A rank that prefers requests whose row is
 * closed can open and close rows for ever: the watchdog fails such a run, counting the ACTs that served nothing.
 */
public interface DramSchedulerPolicy extends Policy {

    /** The channel runs this policy's {@link State}s. */
    int RANKED = 0;
    /**
     * The channel runs its own FR-FCFS (Rixner et al., ISCA 2000), event for event the scheduler of a pool that names
     * none; states are not asked.
     */
    int BUILT_IN_FR_FCFS = 1;
    /** The channel runs its own FCFS: column commands strictly in arrival order; states are not asked. */
    int BUILT_IN_FCFS = 2;

    /**
     * {@link #RANKED}, or one of the channel's built-in schedulers (the platform's own {@code fr-fcfs} and {@code fcfs}
     * policies, whose states rank as they do but which run the channel's faster code).
     */
    default int builtIn() { return RANKED; }

    /**
     * The state of channel {@code channel} of pool {@code pool} (the machine's pool index), whose banks are numbered
     * 0 .. {@code banks}-1. Asked when the run's channels are made and at a live swap to this policy; a policy swapped
     * in is not told of the requests already queued (it ranks them as they are).
     */
    State forChannel(int pool, int channel, int banks);

    /** Per-channel state. Called from the simulation's thread only. */
    interface State {
        /**
         * The rank of queued request {@code r} in {@code bank} if its bank's next command were for it: lower goes
         * first, equal ranks oldest first. {@code rowHit}: its row is open, so its command is the column command.
         * {@code r.gpu} is -1 for the CPU side's requests (its caches' misses and write-backs), else the GPU whose L2,
         * copy engine or link sent it; {@code r.kind} tells reads from writes and write-backs.
         */
        long rank(MemRequest r, int bank, boolean rowHit);

        /**
         * {@code r} joined the channel's queue. A state made at a live swap is told of the requests already queued this way,
         * oldest first, before its first {@link #rank}.
         */
        default void onArrival(MemRequest r, int bank) { }

        /** An ACT opened {@code r}'s row in {@code bank} (a run of row hits starts; other queued requests may hit it too). */
        default void onActivate(MemRequest r, int bank) { }

        /** {@code r}'s column command issued in {@code bank}: its data moves. */
        default void onColumn(MemRequest r, int bank) { }
    }
}
