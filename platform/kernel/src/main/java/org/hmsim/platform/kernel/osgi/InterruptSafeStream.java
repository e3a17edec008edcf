package org.hmsim.platform.kernel.osgi;

import java.io.OutputStream;
import java.io.PrintStream;

/**
 * A shell session's output that a command may write with its thread's interrupt flag set (a Ctrl-C it has handled). The
 * terminal behind Gogo's session writes through an interruptible channel, which a write with the flag set closes for
 * good: after Ctrl-C at {@code sim:await} the shell printed nothing more, prompt included (found by a shell trial). Each
 * write is made with the flag cleared, and the flag is set again after it.
 */
final class InterruptSafeStream extends PrintStream {
    InterruptSafeStream(OutputStream out) { super(out, true); }

    @Override
    public void write(int b) { uninterrupted(() -> super.write(b)); }

    @Override
    public void write(byte[] buf, int off, int len) { uninterrupted(() -> super.write(buf, off, len)); }

    @Override
    public void flush() { uninterrupted(super::flush); }

    private static void uninterrupted(Runnable write) {
        boolean interrupted = Thread.interrupted();
        try {
            write.run();
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }
}
