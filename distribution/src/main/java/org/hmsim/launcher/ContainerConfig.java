package org.hmsim.launcher;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The framework properties of a container: {@code conf/config.properties} with {@code ${name}}
 * placeholders resolved, overridden by JVM system properties of the same families (so
 * {@code HMSIM_JAVA_OPTS=-Dfelix.fileinstall.poll=250} works), and the few settings the launcher
 * owns (where the bundle cache lives, which folder FileInstall watches).
 */
final class ContainerConfig {
    static final String CONFIG_FILE = "conf/config.properties";
    static final String LOGGING_FILE = "conf/logging.properties";
    private static final String[] OVERRIDABLE = {"felix.", "org.osgi.", "gosh.", "hmsim.", "ds."};
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}]+)}");

    private ContainerConfig() {}

    /**
     * @param home the container folder (holds {@code conf/}, {@code bundle/})
     * @param plugins the hot-deploy folder FileInstall watches
     * @param storage the bundle cache folder
     * @param extra properties that win over everything (tests use them)
     */
    static Map<String, String> frameworkProperties(Path home, Path plugins, Path storage,
                                                    Map<String, String> extra) throws IOException {
        Map<String, String> vars = new TreeMap<>();
        vars.put("hmsim.home", home.toString());
        vars.put("hmsim.plugins", plugins.toString());
        Map<String, String> props = new TreeMap<>();
        Path file = home.resolve(CONFIG_FILE);
        if (Files.exists(file)) {
            for (Map.Entry<String, String> e : load(file).entrySet()) props.put(e.getKey(), substitute(e.getValue(), vars));
        }
        for (String name : System.getProperties().stringPropertyNames()) {
            for (String prefix : OVERRIDABLE) {
                if (name.startsWith(prefix)) props.put(name, System.getProperty(name));
            }
        }
        // Without this, Felix delegates a bundle's failed class loads to the launcher's class path,
        // which hides missing imports and breaks logging bridges (build-facts).
        props.putIfAbsent("felix.bootdelegation.implicit", "false");
        props.put("org.osgi.framework.storage", storage.toString());
        props.put("org.osgi.framework.storage.clean", "onFirstInit");
        props.put("felix.fileinstall.dir", plugins.toString());
        props.put("hmsim.home", home.toString());
        props.putAll(extra);
        return props;
    }

    /**
     * Copies {@code conf/logging.properties} (slf4j-simple settings) into system properties the user
     * has not set: slf4j-simple reads its configuration from there before any resource file.
     */
    static void applyLogging(Path home) throws IOException {
        Path file = home.resolve(LOGGING_FILE);
        if (!Files.exists(file)) return;
        for (Map.Entry<String, String> e : load(file).entrySet()) {
            if (System.getProperty(e.getKey()) == null) System.setProperty(e.getKey(), e.getValue());
        }
    }

    static Map<String, String> load(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        Map<String, String> out = new TreeMap<>();
        for (String k : p.stringPropertyNames()) out.put(k, p.getProperty(k).trim());
        return out;
    }

    /** Replaces {@code ${name}} with a launcher variable or a system property; unknown ones stay. */
    static String substitute(String value, Map<String, String> vars) {
        Matcher m = PLACEHOLDER.matcher(value);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            String v = vars.containsKey(name) ? vars.get(name) : System.getProperty(name, m.group());
            m.appendReplacement(b, Matcher.quoteReplacement(v));
        }
        m.appendTail(b);
        return b.toString();
    }
}
