package org.hmsim.api.policy;

/** The type of a policy or workload parameter, as written in study files. */
public enum ParamType {
    INT, LONG, DOUBLE, BOOLEAN, STRING,
    /** One of a fixed set of strings. */
    CHOICE,
    /** A byte count, written as a number or with a unit ({@code 2MB}). */
    SIZE,
    /** A duration in ps, written with a unit ({@code 20us}) or as a number of ps. */
    TIME
}
