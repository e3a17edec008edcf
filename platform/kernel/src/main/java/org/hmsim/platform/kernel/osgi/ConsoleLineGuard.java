package org.hmsim.platform.kernel.osgi;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import org.apache.felix.service.command.CommandSession;
import org.apache.felix.service.command.CommandSessionListener;
import org.osgi.service.component.annotations.Component;

/**
 * Keeps the interactive console alive after a line it cannot parse. Gogo's JLine console (gogo.jline 1.1.8) hands each
 * typed line to its parser as the line is accepted; an unclosed quote or bracket is an {@code EOFError}, and the reader
 * asks for the rest of the line, but any other syntax error (a closing bracket that opens nothing: {@code sim:run )})
 * makes JLine accept the line with no parsed result, which Gogo's console loop takes for the end of input: the shell
 * ended, with exit code 0 and no word of why. This listener wraps the console reader's parser once, at the first line
 * the console's session executes (its profile): such a line is explained on stderr as {@link ShellFailureListener}
 * explains a piped one, counts as a failure of bad input as a typo does (the shell's exit code is 2 unless a later
 * failure sets another), and is replaced by an empty line, so the prompt comes back.
 *
 * <p>The kernel does not import JLine (it is installed only with a terminal), so the wrapper is a dynamic proxy of
 * the reader's own {@code org.jline.reader.Parser} interface, found through the reader's class loader.
 */
@Component(service = CommandSessionListener.class)
public final class ConsoleLineGuard implements CommandSessionListener {
    /** The session variable under which Gogo's console keeps its LineReader ({@code Shell.VAR_READER}). */
    static final String READER = ".reader";

    @Override
    public void beforeExecute(CommandSession session, CharSequence commandline) {
        Object reader;
        try {
            reader = session.get(READER);
        } catch (RuntimeException e) {
            return; // a session closing under us: nothing to guard
        }
        if (reader != null) guard(reader);
    }

    @Override
    public void afterExecute(CommandSession session, CharSequence commandline, Exception exception) {}

    @Override
    public void afterExecute(CommandSession session, CharSequence commandline, Object result) {}

    /**
     * Wraps {@code reader}'s parser unless it is wrapped already. Anything not shaped like JLine's LineReaderImpl
     * (another console) is left as it is: the guard is a repair of one console's behaviour, not a requirement.
     */
    static void guard(Object reader) {
        try {
            Method get = reader.getClass().getMethod("getParser");
            Object parser = get.invoke(reader);
            if (parser == null || Proxy.isProxyClass(parser.getClass()) && Proxy.getInvocationHandler(parser) instanceof Guard) return;
            Class<?> parserType = get.getReturnType();
            Method set = reader.getClass().getMethod("setParser", parserType);
            Object proxy = Proxy.newProxyInstance(parserType.getClassLoader(), new Class<?>[] {parserType}, new Guard(parser));
            set.invoke(reader, proxy);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // not JLine's reader: leave it
        }
    }

    /** Delegates every call to Gogo's parser; a final parse (ACCEPT_LINE) it refuses becomes an empty line. */
    private record Guard(Object parser) implements InvocationHandler {
        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            try {
                return method.invoke(parser, args);
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                if (!refusedLine(method, args, cause)) throw cause;
                String line = (String) args[0];
                System.err.println(ShellFailureListener.LINE_NOT_RUN + cause.getMessage() + (line.isBlank() ? "" : " in: " + line.strip()));
                System.setProperty(GogoCommands.SHELL_EXIT_CODE, "2");
                return method.invoke(parser, "", 0, args[2]); // nothing to run; the console reads the next line
            }
        }

        /**
         * A syntax error of the final parse that is not an EOFError (for those the reader asks for more of the line,
         * as any shell does). JLine's types are matched by name: the kernel does not link against them.
         */
        private static boolean refusedLine(Method method, Object[] args, Throwable cause) {
            if (!method.getName().equals("parse") || args == null || args.length != 3 || !(args[0] instanceof String)) return false;
            if (args[2] == null || !"ACCEPT_LINE".equals(args[2].toString())) return false;
            return isA(cause.getClass(), "org.jline.reader.SyntaxError") && !isA(cause.getClass(), "org.jline.reader.EOFError");
        }

        private static boolean isA(Class<?> c, String name) {
            for (; c != null; c = c.getSuperclass()) {
                if (c.getName().equals(name)) return true;
            }
            return false;
        }
    }
}
