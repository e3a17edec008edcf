package org.hmsim.platform.kernel.study;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hmsim.api.engine.Units;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.machine.ScriptedSwap;
import org.hmsim.platform.machine.ScriptedSwap.Choice;
import org.hmsim.platform.machine.ScriptedSwap.When;

/**
 * The {@code swaps:} of a study (already validated by {@link StudyParser}) as the machine's
 * {@link ScriptedSwap}s: {@code at: 50us} (simulated time), {@code at: kernel 2} (before the kernel of
 * 0-based index 2 launches), {@code at: epoch 5} (end of the 5th epoch), {@code every: 4 epochs,
 * between: [lru, random]} (at every 4th epoch end, to the next entry of the list, cyclically).
 */
public final class SwapScripts {
    private SwapScripts() {}

    public static List<ScriptedSwap> of(List<Object> raw) {
        List<ScriptedSwap> out = new ArrayList<>();
        for (Object o : raw) {
            Map<?, ?> m = (Map<?, ?>) o;
            Slot slot = Slot.byId(m.get("slot").toString());
            if (m.containsKey("every")) {
                long n = Long.parseLong(m.get("every").toString().trim().split("\\s+")[0]);
                List<Choice> to = new ArrayList<>();
                for (Object c : (List<?>) m.get("between")) to.add(choice(c));
                out.add(new ScriptedSwap(When.EVERY_EPOCHS, n, slot, to, "script"));
                continue;
            }
            String at = m.get("at").toString().trim();
            Choice to = choice(m.get("to"));
            if (at.startsWith("kernel")) out.add(new ScriptedSwap(When.KERNEL, Long.parseLong(at.substring(6).trim()), slot, to));
            else if (at.startsWith("epoch")) out.add(new ScriptedSwap(When.EPOCH, Long.parseLong(at.substring(5).trim()), slot, to));
            else out.add(new ScriptedSwap(When.TIME, Units.picoseconds(at), slot, to));
        }
        return out;
    }

    static Choice choice(Object c) {
        if (!(c instanceof Map<?, ?> m)) return new Choice(c.toString(), Map.of());
        Map<String, Object> params = new LinkedHashMap<>();
        m.forEach((k, v) -> {
            if (!"name".equals(k)) params.put(k.toString(), v);
        });
        return new Choice(m.get("name").toString(), params);
    }
}
