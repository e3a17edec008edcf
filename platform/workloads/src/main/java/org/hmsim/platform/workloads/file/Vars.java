package org.hmsim.platform.workloads.file;

import java.util.List;
import java.util.Map;
import org.hmsim.platform.workloads.expr.Expr;
import org.hmsim.platform.workloads.expr.ExprException;
import org.hmsim.platform.workloads.expr.ExprParser;

/** Variable slots of workload-file expressions and the scopes in which each may be used. */
final class Vars {
    static final int CTA = 0, TID = 1, WARP = 2, LANE = 3, I = 4, LAUNCH = 5, ITER = 6, CTAX = 7, CTAY = 8,
            TIDX = 9, TIDY = 10, THREADS = 11, CTAS = 12, FIRST_PARAM = 13;
    static final List<String> NAMES = List.of("cta", "tid", "warp", "lane", "i", "launch", "iter", "ctax", "ctay",
            "tidx", "tidy", "threads", "ctas");

    /** Where an expression is evaluated, which decides the variables it may use. */
    enum Scope {
        /** Sizes, grid, block, shared, repeat: only the file's params. */
        PARAMS,
        /** Loop counts and compute cycles: params, launch, iter, threads, ctas. */
        LAUNCH,
        /** Per-thread addresses and conditions: everything. */
        THREAD
    }

    private Vars() {}

    static int slot(String name, Scope scope, Map<String, Integer> params) {
        Integer p = params.get(name);
        if (p != null) return p;
        int v = NAMES.indexOf(name);
        if (v < 0) return -1;
        return switch (scope) {
            case PARAMS -> -1;
            case LAUNCH -> v == LAUNCH || v == ITER || v == THREADS || v == CTAS ? v : -1;
            case THREAD -> v;
        };
    }

    static String known(Scope scope, Map<String, Integer> params) {
        StringBuilder b = new StringBuilder();
        for (String n : NAMES) if (slot(n, scope, Map.of()) >= 0) b.append(b.isEmpty() ? "" : ", ").append(n);
        for (String n : params.keySet()) b.append(b.isEmpty() ? "" : ", ").append(n);
        return b.isEmpty() ? "no variables" : b.toString();
    }

    /** Compiles the scalar of {@code y} as an expression, turning a syntax error into a located one. */
    static Expr compile(Y y, Scope scope, Map<String, Integer> params) {
        String text = y.scalar();
        try {
            return ExprParser.parse(text, n -> slot(n, scope, params), known(scope, params));
        } catch (ExprException e) {
            throw y.errorAt(e.position(), e.getMessage() + " in '" + text + "'");
        }
    }
}
