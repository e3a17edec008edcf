package org.hmsim.platform.kernel.registry;

/** Orders semantic version strings ("1.10.0" after "1.9.2"); non-numeric parts compare as text. */
final class Versions {
    private Versions() {}

    static int compare(String a, String b) {
        String[] x = a.split("[.\\-]"), y = b.split("[.\\-]");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            String p = i < x.length ? x[i] : "0", q = i < y.length ? y[i] : "0";
            int c = isNumber(p) && isNumber(q) ? Long.compare(Long.parseLong(p), Long.parseLong(q)) : p.compareTo(q);
            if (c != 0) return c;
        }
        return 0;
    }

    private static boolean isNumber(String s) {
        return !s.isEmpty() && s.length() < 18 && s.chars().allMatch(Character::isDigit);
    }
}
