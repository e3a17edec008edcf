package org.hmsim.platform.kernel.executor;

/** A word as a POSIX shell reads it back: a job script's arguments, and the commands the CLI's hints suggest. */
public final class ShellWord {
    private ShellWord() {}

    /** {@code word} as is if it holds only characters no shell treats specially, else in single quotes. */
    public static String of(Object word) {
        String w = String.valueOf(word);
        return w.matches("[A-Za-z0-9_./=:+-]+") ? w : "'" + w.replace("'", "'\\''") + "'";
    }
}
