package org.hmsim.platform.traces;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A trace file opened for positional reads, shared by every warp reader of every simulation that uses
 * it (positional reads need no common file pointer). A thread interrupted during a read closes a
 * {@link FileChannel} for everyone, so a closed channel is reopened once and the read retried.
 */
final class SharedFile implements AutoCloseable {
    final Path path;
    final String display;
    private volatile FileChannel ch;
    private final long size;

    SharedFile(Path path, String display) {
        this.path = path;
        this.display = display;
        TraceException.requireRegularInput(path, display);
        try {
            this.ch = FileChannel.open(path, StandardOpenOption.READ);
            this.size = ch.size();
        } catch (IOException e) {
            throw TraceException.inFile(display, "cannot open: " + e.getMessage(), e);
        }
    }

    long size() { return size; }

    /** Reads exactly {@code n} bytes at {@code pos} into {@code dst[0..n)}; a read past the end is an error naming {@code what}. */
    void readFully(long pos, byte[] dst, int n, String what) {
        if (pos < 0 || pos + n > size)
            throw TraceException.atByte(display, Math.max(0, pos), what + " lies beyond the end of the file (" + size + " bytes): truncated or corrupt");
        ByteBuffer b = ByteBuffer.wrap(dst, 0, n);
        for (int attempt = 0; ; attempt++) {
            try {
                while (b.hasRemaining()) {
                    int r = ch.read(b, pos + b.position());
                    if (r < 0) throw TraceException.atByte(display, pos + b.position(), "unexpected end of file in " + what);
                }
                return;
            } catch (ClosedChannelException e) {
                if (attempt > 0) throw TraceException.atByte(display, pos, "file closed while reading " + what, e);
                reopen();
            } catch (IOException e) {
                throw TraceException.atByte(display, pos, "cannot read " + what + ": " + e.getMessage(), e);
            }
        }
    }

    private synchronized void reopen() {
        if (ch.isOpen()) return;
        try {
            ch = FileChannel.open(path, StandardOpenOption.READ);
        } catch (IOException e) {
            throw TraceException.inFile(display, "cannot reopen: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            ch.close();
        } catch (IOException ignored) {
            // read-only: nothing to lose
        }
    }
}
