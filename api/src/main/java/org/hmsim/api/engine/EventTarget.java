package org.hmsim.api.engine;

/** Receives the events a component scheduled for itself. {@code kind} tells them apart. */
@FunctionalInterface
public interface EventTarget {
    void handle(int kind, long payload);
}
