package org.hmsim.platform.kernel.study;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A machine description tree (maps, lists, scalars) with the origin of every value. Overrides and sweep
 * values are set at dotted paths; a list element is addressed by index or by its {@code name} field
 * ({@code pools.ddr.bandwidth}). Paths are kept canonical (indices), the form {@code ConfigException}
 * reports, so an error in the assembled machine maps back to the line that set the bad value.
 */
final class MachineTree {
    /** The bad path of an override or sweep key, with the reason. */
    static final class PathException extends Exception {
        PathException(String message) { super(message); }
    }

    final String label;
    final String file;
    /** SHA-256 of the machine file's bytes as read (provenance). */
    final String sha256;
    final Map<String, Object> root;
    private final TreeMap<String, Origin> origins;

    MachineTree(String label, String file, String sha256, Map<String, Object> root, Map<String, Origin> origins) {
        this.label = label;
        this.file = file;
        this.sha256 = sha256;
        this.root = root;
        this.origins = new TreeMap<>(origins);
    }

    /** A deep copy: each sweep point gets its own tree. */
    MachineTree copy() {
        @SuppressWarnings("unchecked")
        Map<String, Object> r = (Map<String, Object>) deepCopy(root);
        return new MachineTree(label, file, sha256, r, origins);
    }

    /**
     * Sets {@code value} at {@code dotted}; every value under that path now comes from {@code origin}. A
     * {@code *} segment stands for every element of a list ({@code links.*.bandwidth}: all links at once).
     *
     * @return the canonical paths written: each field a mapping merged or made gives, else the path replaced whole
     */
    List<String> set(String dotted, Object value, Origin origin) throws PathException {
        List<String> written = new ArrayList<>();
        set(dotted, value, origin, written);
        return written;
    }

    /**
     * The canonical paths (indices, no '*') that setting {@code dotted} writes: two keys that name the same
     * field ({@code pools.ddr.bandwidth}, {@code pools.1.bandwidth}) have the same targets.
     */
    List<String> targets(String dotted) throws PathException {
        return targets(dotted, null);
    }

    /** The canonical fields setting {@code value} at {@code dotted} would write (a mapping: the fields it gives); this tree stays as it is. */
    List<String> targets(String dotted, Object value) throws PathException {
        List<String> out = new ArrayList<>();
        copy().set(dotted, value, null, out);
        return out;
    }

    /**
     * Top-level sections a path never makes up: cpu: and uvm: turn a model on by being present (give the whole
     * mapping), and pools: and links: are lists, whose elements a path only addresses.
     */
    private static final java.util.Set<String> SWITCHES = java.util.Set.of("cpu", "uvm", "pools", "links");

    private void set(String dotted, Object value, Origin origin, List<String> written) throws PathException {
        String[] seg = dotted.split("\\.", -1);
        for (int w = 0; w < seg.length - 1; w++) {
            if (!seg[w].equals("*")) continue;
            String before = String.join(".", java.util.Arrays.copyOfRange(seg, 0, w));
            String after = String.join(".", java.util.Arrays.copyOfRange(seg, w + 1, seg.length));
            Object list = root;
            StringBuilder canon = new StringBuilder();
            for (int i = 0; i < w; i++) list = child(list, seg[i], canon, new int[1]);
            if (!(list instanceof List<?> l) || l.isEmpty())
                throw new PathException("'*' in '" + dotted + "' stands for every element of a list, and '" + before + "' is not a non-empty list");
            for (int i = 0; i < l.size(); i++) set(YamlDoc.join(before, Integer.toString(i)) + "." + after, value, origin, written);
            return;
        }
        Object cur = root;
        StringBuilder canon = new StringBuilder();
        for (int i = 0; i < seg.length - 1; i++) {
            // a group the machine file leaves out (pools.gddr.timing in a file that gives no timing) is created, as a
            // last key may be new: MachineConfig refuses a name it does not know, at the study's line. Never a section of
            // SWITCHES (a review: sweeping cpu.cores gave small a CPU)
            boolean created = !(i == 0 && SWITCHES.contains(seg[i])) && cur instanceof Map<?, ?> m && !m.containsKey(seg[i])
                    && !seg[i].isEmpty() && !seg[i].equals("*");
            if (created) {
                @SuppressWarnings("unchecked")
                Map<String, Object> mm = (Map<String, Object>) cur;
                mm.put(seg[i], new LinkedHashMap<String, Object>());
            }
            int[] idx = new int[1];
            cur = child(cur, seg[i], canon, idx);
            // the new group is the study's: an error about it (a misspelt name) points at the key that made it
            if (created && origin != null) origins.put(canon.toString(), groupOrigin(origin, seg, i));
        }
        String last = seg[seg.length - 1];
        String canonical;
        if (cur instanceof Map<?, ?> m) {
            if (last.isEmpty()) throw new PathException("empty name in path '" + dotted + "'");
            @SuppressWarnings("unchecked")
            Map<String, Object> mm = (Map<String, Object>) m;
            if (value instanceof Map<?, ?> given && mm.get(last) instanceof Map<?, ?>) {
                // A mapping merges into the file's, key by key: {gpu.l2: {size: 256KB}} changes the size and keeps the
                // file's slices and ways (replacing the whole mapping dropped them without a word, found by a review).
                merge(YamlDoc.join(canon.toString(), last), given, origin, written);
                return;
            }
            // A map may gain a key the file left out (the machine's default); MachineConfig rejects unknown ones.
            mm.put(last, deepCopy(value));
            canonical = YamlDoc.join(canon.toString(), last);
            // a mapping put where the file has none adds fields, which other keys may add beside it: each is its own target
            if (value instanceof Map<?, ?> given && !given.isEmpty()) {
                replaceOrigin(canonical, origin);
                fields(canonical, given, written);
                return;
            }
        } else if (cur instanceof List<?> l) {
            int i = index(l, last, canon.toString());
            if (value instanceof Map<?, ?> given && l.get(i) instanceof Map<?, ?>) {
                // a list element merges as a mapping does: {pools.ddr: {capacity: 2GB}} keeps the pool's name and
                // timing (it replaced the element and failed on its missing name, found by a review)
                merge(YamlDoc.join(canon.toString(), Integer.toString(i)), given, origin, written);
                return;
            }
            @SuppressWarnings("unchecked")
            List<Object> ll = (List<Object>) l;
            ll.set(i, deepCopy(value));
            canonical = YamlDoc.join(canon.toString(), Integer.toString(i));
        } else {
            throw new PathException("'" + canon + "' is a single value, it has no '" + last + "'");
        }
        replaceOrigin(canonical, origin);
        written.add(canonical);
    }

    /** Sets each field of {@code given} under {@code at}, each keeping the mapping's place in the study, named down to itself. */
    private void merge(String at, Map<?, ?> given, Origin origin, List<String> written) throws PathException {
        for (Map.Entry<?, ?> e : given.entrySet()) {
            Origin inner = origin == null ? null
                    : new Origin(origin.file(), origin.line(), origin.column(), origin.field().isEmpty() ? "" : origin.field() + "." + e.getKey());
            set(at + "." + e.getKey(), e.getValue(), inner, written);
        }
    }

    private void replaceOrigin(String canonical, Origin origin) {
        origins.keySet().removeIf(k -> k.equals(canonical) || k.startsWith(canonical + "."));
        origins.put(canonical, origin);
    }

    /** The paths of the fields under {@code at} that the mapping {@code m} gives, nested mappings down to their fields. */
    private static void fields(String at, Map<?, ?> m, List<String> out) {
        for (Map.Entry<?, ?> e : m.entrySet()) {
            String p = at + "." + e.getKey();
            if (e.getValue() instanceof Map<?, ?> inner && !inner.isEmpty()) fields(p, inner, out);
            else out.add(p);
        }
    }

    /** {@code origin} (of the whole dotted key {@code seg}) named down to segment {@code i} only: the group it created. */
    private static Origin groupOrigin(Origin origin, String[] seg, int i) {
        String rest = "." + String.join(".", java.util.Arrays.copyOfRange(seg, i + 1, seg.length));
        String f = origin.field();
        return new Origin(origin.file(), origin.line(), origin.column(), f.endsWith(rest) ? f.substring(0, f.length() - rest.length()) : f);
    }

    /**
     * The origin of the value at a path as {@code ConfigException} gives it (indices or names): the
     * nearest enclosing path that has one.
     */
    Origin originOf(String path) {
        String p = canonical(path);
        while (true) {
            Origin o = origins.get(p);
            if (o != null) return o;
            if (p.isEmpty()) return Origin.start(file);
            int dot = p.lastIndexOf('.');
            p = dot < 0 ? "" : p.substring(0, dot);
        }
    }

    /**
     * The part of {@code path} below the nearest enclosing path that has an origin ("smz" for gpu.smz when
     * the study set gpu: {smz: 4}), empty if the path itself has one: what a study error adds to the key
     * that set the value, so it names the field that is wrong.
     */
    String belowOrigin(String path) {
        String full = canonical(path), p = full;
        while (!p.isEmpty() && !origins.containsKey(p)) {
            int dot = p.lastIndexOf('.');
            p = dot < 0 ? "" : p.substring(0, dot);
        }
        return full.length() > p.length() ? full.substring(p.isEmpty() ? 0 : p.length() + 1) : "";
    }

    /** Rewrites name segments of list elements to indices, as far as the tree goes. */
    private String canonical(String path) {
        if (path == null || path.isEmpty()) return "";
        String[] seg = path.split("\\.");
        Object cur = root;
        StringBuilder canon = new StringBuilder();
        for (int i = 0; i < seg.length; i++) {
            try {
                cur = child(cur, seg[i], canon, new int[1]);
            } catch (PathException e) {
                for (int j = i; j < seg.length; j++) canon.append(canon.length() == 0 ? "" : ".").append(seg[j]);
                break;
            }
        }
        return canon.toString();
    }

    /** Steps into {@code seg} of {@code cur}, appending its canonical form to {@code canon}. */
    private static Object child(Object cur, String seg, StringBuilder canon, int[] idx) throws PathException {
        String where = canon.length() == 0 ? "the machine" : "'" + canon + "'";
        if (cur instanceof Map<?, ?> m) {
            if (!m.containsKey(seg))
                throw new PathException(where + " has no '" + seg + "' (it has: " + String.join(", ", keys(m)) + ")");
            canon.append(canon.length() == 0 ? "" : ".").append(seg);
            return m.get(seg);
        }
        if (cur instanceof List<?> l) {
            int i = index(l, seg, canon.toString());
            canon.append(canon.length() == 0 ? "" : ".").append(i);
            idx[0] = i;
            return l.get(i);
        }
        throw new PathException(where + " is a single value, it has no '" + seg + "'");
    }

    private static int index(List<?> l, String seg, String where) throws PathException {
        if (!seg.isEmpty() && seg.chars().allMatch(Character::isDigit)) {
            // compared whole: an index too big for an int is past the end like any other
            BigInteger i = new BigInteger(seg);
            if (i.compareTo(BigInteger.valueOf(l.size())) < 0) return i.intValue();
            throw new PathException("'" + where + "' has " + l.size() + " elements, no index " + i);
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < l.size(); i++) {
            String name = l.get(i) instanceof Map<?, ?> m ? elementName(m) : null;
            if (name == null) continue;
            if (name.equals(seg)) return i;
            names.add(name);
        }
        throw new PathException("'" + where + "' has no element named '" + seg + "'"
                + (names.isEmpty() ? "" : " (elements: " + String.join(", ", names) + ")"));
    }

    /**
     * An element's name: its {@code name}, or a link's default {@code <a>-<b>} from {@code between} (what stats.json and
     * runs.csv call it: links.gpu0-cpu.bandwidth was refused on small.yaml, whose link has no name: a newcomer's trial).
     */
    private static String elementName(Map<?, ?> m) {
        if (m.get("name") != null) return m.get("name").toString();
        if (m.get("between") instanceof List<?> b && b.size() == 2 && b.get(0) != null && b.get(1) != null)
            return b.get(0).toString().trim().toLowerCase(java.util.Locale.ROOT) + "-" + b.get(1).toString().trim().toLowerCase(java.util.Locale.ROOT);
        return null;
    }

    private static List<String> keys(Map<?, ?> m) {
        List<String> k = new ArrayList<>();
        for (Object o : m.keySet()) k.add(String.valueOf(o));
        return k;
    }

    static Object deepCopy(Object v) {
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> c = new LinkedHashMap<>();
            m.forEach((k, x) -> c.put(String.valueOf(k), deepCopy(x)));
            return c;
        }
        if (v instanceof List<?> l) {
            List<Object> c = new ArrayList<>();
            for (Object x : l) c.add(deepCopy(x));
            return c;
        }
        return v;
    }
}
