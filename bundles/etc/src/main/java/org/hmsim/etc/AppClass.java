package org.hmsim.etc;

/**
 * ETC's application classes and the techniques each gets (seed 002 §4.5, the policy engine):
 * regular without sharing → PE; regular with sharing → PE + CC; irregular → MT + CC.
 */
public enum AppClass {
    /** Not classified yet, or memory is not oversubscribed: ETC stays off. */
    NONE(0, false, false, false),
    REGULAR_NO_SHARING(1, true, false, false),
    REGULAR_SHARING(2, true, false, true),
    IRREGULAR(3, false, true, true);

    /** The code reported in statistics ({@code classifier.class}). */
    public final int code;
    public final boolean pe, mt, cc;

    AppClass(int code, boolean pe, boolean mt, boolean cc) {
        this.code = code;
        this.pe = pe;
        this.mt = mt;
        this.cc = cc;
    }
}
