package org.hmsim.platform.kernel.osgi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A command's message after a Ctrl-C it handled must not close the terminal (the shell went silent for good, a trial). */
class InterruptSafeStreamTest {

    @Test
    void aWriteWithTheInterruptFlagSetReachesTheChannelAndLeavesItOpen(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("terminal");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            OutputStream terminal = Channels.newOutputStream(ch); // interruptible, as the shell's terminal output is
            PrintStream safe = new InterruptSafeStream(terminal);
            Thread.currentThread().interrupt();
            safe.println("await: interrupted; study s goes on");
            assertTrue(Thread.interrupted(), "the flag is kept for the command's own use (and cleared here)");
            assertFalse(safe.checkError(), "the write failed");
            assertTrue(ch.isOpen(), "the terminal's channel was closed by the interrupt");
            safe.println("prompt");
        }
        assertEquals("await: interrupted; study s goes on\nprompt\n", Files.readString(file).replace(System.lineSeparator(), "\n"));
    }

    @Test
    void withoutItTheSameWriteClosesTheChannel(@TempDir Path dir) throws Exception {
        // the failure this class exists for, so that the test above cannot pass for another reason
        try (FileChannel ch = FileChannel.open(dir.resolve("terminal"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            PrintStream plain = new PrintStream(Channels.newOutputStream(ch), true);
            Thread.currentThread().interrupt();
            plain.println("await: interrupted");
            Thread.interrupted();
            assertFalse(ch.isOpen());
        }
    }
}
