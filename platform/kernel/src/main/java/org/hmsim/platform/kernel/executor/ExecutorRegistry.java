package org.hmsim.platform.kernel.executor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import org.hmsim.api.executor.BatchScheduler;

/**
 * The executors a study can name with {@code --executor}: {@code local}, the built-in {@code slurm}, and
 * every {@link BatchScheduler} service a bundle registers (a bundle's scheduler of the same name replaces
 * the built-in one while it is installed).
 */
public final class ExecutorRegistry {
    private final BatchScheduler builtIn = new SlurmScheduler();
    private final Map<String, BatchScheduler> installed = new ConcurrentSkipListMap<>();

    public void add(BatchScheduler s) { installed.put(s.name(), s); }

    public void remove(BatchScheduler s) { installed.remove(s.name(), s); }

    /** The scheduler named {@code name}, or null. */
    public BatchScheduler scheduler(String name) {
        if (name == null) return null; // a manifest without an executor (damaged): no scheduler to ask
        BatchScheduler s = installed.get(name);
        return s != null ? s : builtIn.name().equals(name) ? builtIn : null;
    }

    /** Every executor name, {@code local} first. */
    public List<String> names() {
        List<String> l = new ArrayList<>(List.of(LocalExecutor.NAME));
        if (!installed.containsKey(builtIn.name())) l.add(builtIn.name());
        l.addAll(installed.keySet());
        return l;
    }
}
