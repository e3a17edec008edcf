package org.hmsim.platform.stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What each statistic of a run means, as the components registered it, in the few rows a reader can scan: names that
 * differ only in the index of a unit ({@code gpu0.sm3.l1.hits}, {@code gpu0.sm4.l1.hits}) and say the same are one row,
 * the index a {@code *} ({@code gpu0.sm*.l1.hits}); a segment that is the same in every name of the row stays as it is
 * ({@code l2} in {@code gpu0.l2.slice*.hits}). A histogram's row names its summary's five statistics.
 */
public final class StatDocs {
    private StatDocs() {}

    /** Name or pattern to description, sorted; {@code histograms} are names whose statistics are its summary's. */
    public static SortedMap<String, String> collapse(Map<String, String> docs, Set<String> histograms) {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (String name : docs.keySet()) groups.computeIfAbsent(indexFree(name), k -> new ArrayList<>()).add(name);
        SortedMap<String, String> out = new TreeMap<>();
        for (List<String> names : groups.values()) {
            String doc = docs.get(names.get(0));
            boolean same = names.stream().allMatch(n -> docs.get(n).equals(doc));
            if (names.size() > 1 && same) out.put(suffixed(merged(names), histograms.contains(names.get(0))), doc);
            else for (String n : names) out.put(suffixed(n, histograms.contains(n)), docs.get(n));
        }
        return out;
    }

    /** The name with every segment's trailing index replaced by {@code *}: the key under which units of one kind meet. */
    private static String indexFree(String name) {
        String[] seg = name.split("\\.", -1);
        for (int i = 0; i < seg.length; i++) seg[i] = star(seg[i]);
        return String.join(".", seg);
    }

    /** The names' common form: a segment they share stays, one that differs loses its index. */
    private static String merged(List<String> names) {
        String[] first = names.get(0).split("\\.", -1);
        for (int i = 0; i < first.length; i++) {
            final int k = i;
            final String s = first[i];
            if (names.stream().anyMatch(n -> !n.split("\\.", -1)[k].equals(s))) first[i] = star(s);
        }
        return String.join(".", first);
    }

    private static String star(String segment) {
        int end = segment.length();
        while (end > 0 && Character.isDigit(segment.charAt(end - 1))) end--;
        return end == segment.length() ? segment : segment.substring(0, end) + "*";
    }

    private static String suffixed(String name, boolean histogram) { return histogram ? name + ".{count,mean,p50,p99,max}" : name; }
}
