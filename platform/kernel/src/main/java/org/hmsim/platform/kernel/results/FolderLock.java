package org.hmsim.platform.kernel.results;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One execution at a time per results folder: two writing into one folder would set each other's results
 * aside and mix their runs in one runs.csv. The lock is an OS file lock on {@value #NAME} at the folder's
 * top, held from before the earlier results are set aside until the execution ends; the OS releases it
 * if the process dies, so a killed run never leaves the folder locked. The file itself stays (hmsim's own).
 */
public final class FolderLock implements AutoCloseable {
    public static final String NAME = ".hmsim.lock";

    /**
     * The lock files this JVM holds. On Linux file locks are per process and closing any channel on a file drops them
     * all, so {@link #held} must not open a channel on one of these (it released a running study's lock when the
     * shell's status or collect looked at its folder; found by a review).
     */
    private static final java.util.Set<Object> HELD_HERE = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final FileChannel channel;
    private final FileLock lock;
    /** The lock file's identity, as {@link #key} gives it. */
    private final Object file;

    private FolderLock(FileChannel channel, FileLock lock, Object file) {
        this.channel = channel;
        this.lock = lock;
        this.file = file;
        HELD_HERE.add(file);
    }

    /** Takes the lock of {@code dir} (created if missing) or refuses, naming the folder, if another execution holds it. */
    public static synchronized FolderLock acquire(Path dir) {
        // synchronized with held(): two threads of this JVM must not both open the file (the loser's close would drop
        // the winner's lock, a review); one at a time, the second finds the first's key in HELD_HERE
        ResultsFolder.ensureWritable(dir);
        Path file = dir.resolve(NAME);
        if (HELD_HERE.contains(key(file))) // another execution of this JVM (the shell): refused without
            throw busy(dir);               // opening the file, whose close would drop that lock
        FileChannel ch = null;
        try {
            ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock l = ch.tryLock();
            if (l != null) return new FolderLock(ch, l, key(file));
        } catch (OverlappingFileLockException sameProcess) {
            // another execution of this process (the shell) holds it: the same refusal below
        } catch (IOException e) {
            closeQuietly(ch);
            throw new ResultsFolderException("cannot lock " + file + ": " + ResultsFolder.reason(e, file));
        }
        closeQuietly(ch);
        throw busy(dir);
    }

    private static ResultsFolderException busy(Path dir) {
        return new ResultsFolderException("another hmsim run is writing into " + dir + " (it holds " + NAME
                + "); wait for it to end or choose another --out");
    }

    /**
     * Whether an execution holds the lock of {@code dir} now (read-only: a folder without the lock file has
     * none, and none is created). Within this process a held lock shows as held too.
     */
    public static synchronized boolean held(Path dir) {
        Path file = dir.resolve(NAME);
        if (HELD_HERE.contains(key(file))) return true; // never open it: closing would release it
        if (!java.nio.file.Files.isRegularFile(file)) return false;
        // read and a shared lock: enough to see the run's exclusive one, and open to a group member who may only read
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            FileLock l = ch.tryLock(0, Long.MAX_VALUE, true);
            if (l == null) return true;
            l.release();
            return false;
        } catch (OverlappingFileLockException sameProcess) {
            return true;
        } catch (IOException e) {
            return true; // cannot tell: treat it as held, so nothing claims an interruption
        }
    }

    /**
     * The lock file as this process knows it: the file itself (device and inode where the file system gives them),
     * so a folder reached through a symbolic or hard link, or renamed while held, is the same folder. Keyed by the
     * path, a refused attempt under another name opened and closed the file, and closing any channel on it drops
     * this process's lock (two reviews). A file that does not exist is held by no one here: its path stands in.
     */
    private static Object key(Path file) {
        try {
            Object k = java.nio.file.Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
            return k != null ? k : file.toRealPath();
        } catch (IOException absent) {
            return file.toAbsolutePath().normalize();
        }
    }

    @Override
    public void close() {
        synchronized (FolderLock.class) {
            release();
        }
    }

    private void release() {
        HELD_HERE.remove(file);
        try {
            lock.release();
        } catch (IOException e) {
            // the channel's close below releases it as well
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel ch) {
        if (ch == null) return;
        try {
            ch.close();
        } catch (IOException e) {
            // nothing held any more that a retry could free
        }
    }
}
