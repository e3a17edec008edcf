package org.hmsim.platform.kernel.registry;

import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.util.List;
import org.hmsim.api.workload.WorkloadProvider;

/**
 * The bridge to the platform's workloads module: its built-in generators
 * ({@code BuiltinWorkloads.all()}) and its workload-file reader ({@code WorkloadFile.load(Path)}).
 * The file reader is reached reflectively so the kernel builds while that part of the module is still
 * growing; it is embedded in the kernel bundle, so the lookup uses the kernel's own class loader.
 */
public final class PlatformWorkloads {
    private static final String FILES = "org.hmsim.platform.workloads.file.WorkloadFile";

    private PlatformWorkloads() {}

    /** The built-in workloads, or none if the workloads module does not offer them. */
    public static List<WorkloadProvider> builtins() {
        return List.copyOf(org.hmsim.platform.workloads.BuiltinWorkloads.all());
    }

    /** Reads a workload file; its errors come through unchanged. */
    public static WorkloadProvider load(Path file) {
        try {
            return (WorkloadProvider) call(FILES, "load", new Class<?>[] {Path.class}, file);
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            throw new IllegalStateException("workload files are not supported by this build (" + FILES + " is missing)");
        }
    }

    private static Object call(String cls, String method, Class<?>[] types, Object... args)
            throws ClassNotFoundException, NoSuchMethodException {
        Class<?> c = Class.forName(cls, true, PlatformWorkloads.class.getClassLoader());
        try {
            return c.getMethod(method, types).invoke(null, args);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        } catch (InvocationTargetException e) {
            Throwable t = e.getCause();
            if (t instanceof RuntimeException r) throw r;
            if (t instanceof Error err) throw err;
            throw new IllegalArgumentException(t.getMessage(), t);
        }
    }
}
