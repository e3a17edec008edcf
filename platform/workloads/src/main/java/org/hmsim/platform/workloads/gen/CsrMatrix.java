package org.hmsim.platform.workloads.gen;

/**
 * The structure of a generated sparse matrix in CSR form. Row pointers are stored (prefix sums of the
 * row lengths); column indices are computed on demand from (row, k), so a large matrix costs the host
 * only 4 B per row.
 */
public abstract class CsrMatrix {
    protected final int rows;
    protected final long cols;
    protected final long[] rowPtr;

    protected CsrMatrix(int rows, long cols, long[] rowPtr) {
        this.rows = rows;
        this.cols = cols;
        this.rowPtr = rowPtr;
    }

    public final int rows() { return rows; }

    public final long cols() { return cols; }

    public final long nnz() { return rowPtr[rows]; }

    public final long rowStart(int row) { return rowPtr[row]; }

    public final int rowLength(int row) { return (int) (rowPtr[row + 1] - rowPtr[row]); }

    /** The column of the k-th stored entry of {@code row} (0 <= k < rowLength(row)). */
    public abstract long column(int row, int k);
}
