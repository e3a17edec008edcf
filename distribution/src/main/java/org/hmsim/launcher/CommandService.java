package org.hmsim.launcher;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * The kernel's command entry point seen from outside the framework. The kernel registers a service
 * with {@code hmsim.command=true} whose object has {@code int execute(String[], PrintStream, PrintStream)}.
 * The launcher calls it by reflection so that it shares no class with the kernel bundle but the JDK's:
 * the kernel can change freely as long as that one method stays.
 */
public final class CommandService {
    static final String FILTER = "(hmsim.command=true)";

    private final Object target;
    private final Method execute;

    CommandService(Object target) {
        this.target = target;
        try {
            this.execute = target.getClass().getMethod("execute", String[].class, PrintStream.class, PrintStream.class);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("the service " + FILTER + " (" + target.getClass().getName()
                    + ") has no public method int execute(String[], PrintStream, PrintStream)", e);
        }
        if (execute.getReturnType() != int.class) {
            throw new IllegalStateException(target.getClass().getName() + ".execute must return int");
        }
    }

    /** Runs one command; returns its exit code. An exception thrown by the command is reported and gives 1. */
    public int execute(String[] args, PrintStream out, PrintStream err) {
        Thread t = Thread.currentThread();
        ClassLoader saved = t.getContextClassLoader();
        // Libraries inside the kernel (YAML, JSON) may look up classes through the context loader.
        t.setContextClassLoader(target.getClass().getClassLoader());
        try {
            if (!execute.canAccess(target)) execute.setAccessible(true);
            return (Integer) execute.invoke(target, args, out, err);
        } catch (InvocationTargetException e) {
            // classes of a stopping framework fail under the command: an interruption, not an internal error
            if (Container.shuttingDown()) return 130;
            err.println("hmsim: the command failed with an internal error:");
            e.getCause().printStackTrace(err);
            return 1;
        } catch (IllegalAccessException e) {
            err.println("hmsim: cannot call " + execute + ": " + e.getMessage());
            return 1;
        } finally {
            t.setContextClassLoader(saved);
            out.flush();
            err.flush();
        }
    }
}
