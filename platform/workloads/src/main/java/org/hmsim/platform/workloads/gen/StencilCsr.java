package org.hmsim.platform.workloads.gen;

/**
 * The matrix of a 27-point stencil on an n x n x n grid (miniFE's hexahedral finite-element matrix
 * has this structure): row (x, y, z) has an entry for every neighbour (x+dx, y+dy, z+dz),
 * dx,dy,dz in {-1,0,1}, inside the grid, in ascending column order.
 */
public final class StencilCsr extends CsrMatrix {
    private final int n;

    public StencilCsr(int n) {
        super(checked(n), (long) n * n * n, lengths(n));
        this.n = n;
    }

    private static int checked(int n) {
        long rows = (long) n * n * n;
        if (n < 2 || rows > Integer.MAX_VALUE / 27) throw new IllegalArgumentException("stencil grid edge out of range: " + n);
        return (int) rows;
    }

    private static long[] lengths(int n) {
        int rows = n * n * n;
        long[] ptr = new long[rows + 1];
        for (int r = 0; r < rows; r++) {
            int x = r % n, y = (r / n) % n, z = r / (n * n);
            ptr[r + 1] = ptr[r] + (long) span(x, n) * span(y, n) * span(z, n);
        }
        return ptr;
    }

    private static int span(int v, int n) { return (v > 0 ? 1 : 0) + 1 + (v < n - 1 ? 1 : 0); }

    @Override
    public long column(int row, int k) {
        int x = row % n, y = (row / n) % n, z = row / (n * n);
        int sx = span(x, n), sy = span(y, n);
        // k enumerates the valid neighbours with x fastest: decompose k in the mixed radix (sx, sy, sz)
        int kx = k % sx, ky = (k / sx) % sy, kz = k / (sx * sy);
        int nx = x - (x > 0 ? 1 : 0) + kx, ny = y - (y > 0 ? 1 : 0) + ky, nz = z - (z > 0 ? 1 : 0) + kz;
        return nx + (long) n * (ny + (long) n * nz);
    }
}
