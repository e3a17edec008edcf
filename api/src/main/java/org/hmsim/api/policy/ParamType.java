package org.hmsim.api.policy;

/** The type of a policy or workload parameter, as written in study files. */
public enum ParamType {
    INT, LONG, DOUBLE, BOOLEAN, STRING,
    /** One of a fixed set of strings. */
    CHOICE,
    /** A byte count, written as a number or with a unit ({@code 2MB}). */
    SIZE,
    /**
     * A duration in ps, written with a unit ({@code 20us}). A provider gives its default as a number of
     * ps; a study file may write only 0 without a unit (a bare 20 would silently be 20 ps).
     */
    TIME
}
