package org.hmsim.platform.kernel.command;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.ReplacementPolicy;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.PolicyChoice;
import org.hmsim.platform.traces.Traces;
import org.hmsim.platform.traces.replay.CacheReplay;
import org.hmsim.platform.traces.replay.CacheSpec;
import org.hmsim.platform.traces.replay.ReplayPolicyContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code replay TRACE --cache SPEC...}: runs a trace's address stream through a cache hierarchy alone and
 * prints hits and misses per level, Dinero style (docs/traces.md, "Cache replay"). Replacement policies
 * are the installed {@code replacement} slot's (lru, random, or a plugin's).
 */
@Command(name = "replay", mixinStandardHelpOptions = true, description = "Runs a trace's addresses through a cache hierarchy alone; prints hits and misses per level.")
final class ReplayCommand implements Callable<Integer> {
    private final Commands.Context ctx;

    @Parameters(index = "0", paramLabel = "TRACE", description = "an hmsim trace (binary or text), or a foreign trace with --format")
    Path trace;

    @Option(names = "--cache", required = true, paramLabel = "SPEC",
            description = "a level, first to last: NAME:size=32KB,ways=8,line=64,repl=lru,write=wb-wa[,index=sim|mod]; l1i as the first level takes instruction fetches")
    List<String> caches = new ArrayList<>();

    @Option(names = "--format", description = "input format: hmsim (default), accel-sim, nvbit, lackey", defaultValue = "hmsim")
    String format;

    @Option(names = "--seed", description = "seed of random replacement (default ${DEFAULT-VALUE})", defaultValue = "1")
    long seed;

    ReplayCommand(Commands.Context ctx) { this.ctx = ctx; }

    @Override
    public Integer call() {
        return TraceCommand.guarded(ctx, "replay", () -> {
            List<CacheSpec> specs = new ArrayList<>();
            for (String c : caches) specs.add(CacheSpec.parse(c));
            ReplayPolicyContext pc = new ReplayPolicyContext(seed);
            CacheReplay r = new CacheReplay(specs, name -> {
                PolicyChoice choice = ctx.kernel().policies().resolve(Slot.REPLACEMENT, name, Map.of());
                Policy p = choice.entry().provider().create(pc, choice.params());
                if (!(p instanceof ReplacementPolicy rp)) throw new IllegalArgumentException("replacement policy " + name + " is not a ReplacementPolicy");
                return rp;
            });
            Traces.read(format, trace, r, true);
            if (!r.replayedAnything()) // what trace import refuses too: a file of another format reads as no access at all
                throw new IllegalArgumentException(trace + ": nothing to replay (no memory access read as " + format + "; is it a " + format + " trace?)");
            r.print(ctx.out());
            return Commands.OK;
        });
    }
}
