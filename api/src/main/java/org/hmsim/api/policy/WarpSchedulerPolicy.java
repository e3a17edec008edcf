package org.hmsim.api.policy;

/** Chooses which ready warp an SM issues from each cycle (GTO, loose round-robin, …). */
public interface WarpSchedulerPolicy extends Policy {

    State forSm(int gpu, int sm, int warpSlots);

    /** Per-SM state. Warp slots are at most 64, so a ready set fits a {@code long}. */
    interface State {
        /** A new warp was placed in {@code slot}; lower {@code age} = older. */
        void onWarpStart(int slot, long age);

        /** Picks one slot from {@code ready} (non-empty bitmask of warp slots). */
        int pick(long ready);
    }
}
