package org.hmsim.platform.workloads.gen;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * An undirected power-law graph in CSR form, grown by preferential attachment (Barabási–Albert): node
 * v attaches {@code m} edges to earlier nodes chosen with probability proportional to their degree
 * (a uniform pick from the list of edge endpoints so far). Degrees follow a power law with exponent
 * about 3, there are a few hubs, and the graph is connected. Each undirected edge is stored in both
 * directions, so the mean degree is about 2m. Deterministic from the seed.
 */
public final class PowerLawGraph {
    private final int nodes;
    private final int[] rowStart; // nodes + 1
    private final int[] edges;

    public PowerLawGraph(int nodes, int m, long seed) {
        if (nodes < 2) throw new IllegalArgumentException("graph needs at least 2 nodes, was " + nodes);
        if (m < 1) throw new IllegalArgumentException("edges per new node must be >= 1, was " + m);
        if ((long) nodes * m * 2 > Integer.MAX_VALUE - 16) throw new IllegalArgumentException("graph too large: " + nodes + " nodes x " + m);
        this.nodes = nodes;
        SplittableRandom rnd = new SplittableRandom(seed);
        int cap = 2 * m * nodes;
        int[] src = new int[cap / 2], dst = new int[cap / 2];
        int[] endpoints = new int[cap];
        int e = 0, ends = 0;
        for (int v = 1; v < nodes; v++) {
            int k = Math.min(m, v);
            for (int j = 0; j < k; j++) {
                // the first m nodes connect to every earlier node; later ones attach preferentially
                int u = v <= m ? j : endpoints[rnd.nextInt(ends)];
                src[e] = v;
                dst[e] = u;
                e++;
                endpoints[ends++] = u;
                endpoints[ends++] = v;
            }
        }
        int[] deg = new int[nodes + 1];
        for (int i = 0; i < e; i++) {
            deg[src[i]]++;
            deg[dst[i]]++;
        }
        rowStart = new int[nodes + 1];
        for (int v = 0; v < nodes; v++) rowStart[v + 1] = rowStart[v] + deg[v];
        edges = new int[rowStart[nodes]];
        int[] fill = Arrays.copyOf(rowStart, nodes);
        for (int i = 0; i < e; i++) {
            edges[fill[src[i]]++] = dst[i];
            edges[fill[dst[i]]++] = src[i];
        }
    }

    public int nodes() { return nodes; }

    public int edgeCount() { return edges.length; }

    public int rowStart(int v) { return rowStart[v]; }

    public int degree(int v) { return rowStart[v + 1] - rowStart[v]; }

    public int edge(int i) { return edges[i]; }

    /** BFS levels from {@code source}: level[v] = hop distance, -1 if unreachable. */
    public int[] levels(int source) {
        int[] level = new int[nodes];
        Arrays.fill(level, -1);
        int[] queue = new int[nodes];
        int head = 0, tail = 0;
        level[source] = 0;
        queue[tail++] = source;
        while (head < tail) {
            int v = queue[head++];
            for (int i = rowStart[v]; i < rowStart[v + 1]; i++) {
                int u = edges[i];
                if (level[u] < 0) {
                    level[u] = level[v] + 1;
                    queue[tail++] = u;
                }
            }
        }
        return level;
    }
}
