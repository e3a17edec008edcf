package org.hmsim.platform.machine.yaml;

import java.math.BigInteger;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * YAML as hmsim reads its study, machine and preset files: the YAML 1.2 core schema's plain scalars, not YAML 1.1's,
 * which SnakeYAML follows. Under 1.1 {@code 010} is 8 (octal), {@code 1:10} is 70 (base 60), {@code 0b101} is 5, and
 * {@code on}, {@code off}, {@code yes}, {@code no} are booleans - so {@code gpu.sms: 010} simulated 8 SMs under a
 * label saying 010, {@code mode: on} could not be written unquoted, and a pool named {@code no} became
 * {@code false} (found by a review). Here an integer is decimal (or {@code 0x} hex, {@code 0o} octal), a boolean is
 * true or false, and everything else is a string for the field's own parser to accept or refuse.
 */
public final class YamlCore {
    private YamlCore() {}

    /** A loader with the core schema's resolution and construction. */
    public static Yaml yaml(LoaderOptions options) {
        DumperOptions dump = new DumperOptions();
        return new Yaml(new Constructor(options), new Representer(dump), dump, options, new CoreResolver());
    }

    public static Yaml yaml() { return yaml(new LoaderOptions()); }

    /** Resolves plain scalars by the YAML 1.2 core schema (merge keys kept: {@code <<: *base}). */
    static final class CoreResolver extends Resolver {
        static final Pattern BOOL = Pattern.compile("^(?:true|True|TRUE|false|False|FALSE)$");
        static final Pattern INT = Pattern.compile("^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$");
        static final Pattern FLOAT = Pattern.compile(
                "^(?:[-+]?(?:\\.[0-9]+|[0-9]+(?:\\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$");
        static final Pattern NULL = Pattern.compile("^(?:~|null|Null|NULL)$");

        @Override
        protected void addImplicitResolvers() {
            addImplicitResolver(Tag.BOOL, BOOL, "tTfF");
            addImplicitResolver(Tag.INT, INT, "-+0123456789");
            addImplicitResolver(Tag.FLOAT, FLOAT, "-+0123456789.");
            addImplicitResolver(Tag.MERGE, Resolver.MERGE, "<");
            addImplicitResolver(Tag.NULL, NULL, "~nN\0");
            addImplicitResolver(Tag.NULL, Resolver.EMPTY, null);
        }
    }

    /** The safe constructor with core-schema integers (decimal whatever its leading zeros). */
    public static final class Constructor extends SafeConstructor {
        public Constructor(LoaderOptions options) {
            super(options);
            this.yamlConstructors.put(Tag.INT, new AbstractConstruct() {
                @Override
                public Object construct(Node node) { return integer(((ScalarNode) node).getValue()); }
            });
        }

        /** Constructs one node (a scalar's value as typed by the resolver that composed it). */
        public Object construct(Node n) { return constructObject(n); }
    }

    /** A core-schema integer as Integer, Long or BigInteger, the smallest that holds it (as SnakeYAML's). */
    static Object integer(String text) {
        String v = text.startsWith("+") ? text.substring(1) : text;
        BigInteger b = v.startsWith("0x") ? new BigInteger(v.substring(2), 16)
                : v.startsWith("0o") ? new BigInteger(v.substring(2), 8) : new BigInteger(v, 10);
        if (b.bitLength() < 32) return b.intValue();
        if (b.bitLength() < 64) return b.longValue();
        return b;
    }
}
