package org.hmsim.platform.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Category labels as a figure's axis shows them: a workload variant's label lists every parameter
 * ({@code block-exclusive(ctas=256,iterations=4)}), and a parameter with the same value in every category
 * says nothing there while it pushes the one that differs past the axis's label width. Such parameters
 * are left out of the axis ({@code block-exclusive(iterations=4)}); the figure's CSV and SVG data keep the
 * full names.
 */
final class CategoryLabels {
    private CategoryLabels() {}

    /** Each category's axis label; a category without a {@code name(k=v,...)} form keeps its own. */
    static Map<String, String> shortened(List<String> categories) {
        Map<String, String> out = new LinkedHashMap<>();
        List<List<String>> params = new ArrayList<>();
        for (String c : categories) params.add(parameters(c));
        // over the categories of that form (a figure's "geomean" is not one), if there are two or more
        List<List<String>> variants = params.stream().filter(p -> p != null).toList();
        List<String> common = new ArrayList<>();
        if (variants.size() >= 2) {
            common.addAll(variants.get(0));
            for (List<String> p : variants) common.retainAll(p);
        }
        // when the names alone tell every category apart (each workload once), the parameters are noise on the axis
        java.util.Set<String> names = new java.util.HashSet<>();
        boolean namesSuffice = variants.size() >= 2;
        for (int i = 0; i < categories.size(); i++) // a plain label ("stream", "geomean") is a name too
            namesSuffice &= names.add(params.get(i) != null ? categories.get(i).substring(0, categories.get(i).indexOf('(')) : categories.get(i));
        for (int i = 0; i < categories.size(); i++) {
            String c = categories.get(i);
            if (params.get(i) != null && namesSuffice) {
                out.put(c, c.substring(0, c.indexOf('(')));
                continue;
            }
            if (common.isEmpty() || params.get(i) == null) {
                out.put(c, c);
                continue;
            }
            List<String> kept = new ArrayList<>(params.get(i));
            kept.removeAll(common);
            String name = c.substring(0, c.indexOf('('));
            out.put(c, kept.isEmpty() ? name : name + "(" + String.join(",", kept) + ")");
        }
        // two categories must never share an axis label: then every one keeps its full label
        if (new java.util.HashSet<>(out.values()).size() < out.size()) for (String c : categories) out.put(c, c);
        return out;
    }

    /** The {@code k=v} parts of {@code name(k=v,...)}, or null if the label has another form. */
    private static List<String> parameters(String label) {
        int open = label.indexOf('(');
        if (open <= 0 || !label.endsWith(")") || label.indexOf('(', open + 1) >= 0) return null;
        List<String> parts = List.of(label.substring(open + 1, label.length() - 1).split(","));
        for (String p : parts) if (p.indexOf('=') <= 0) return null;
        return parts;
    }
}
