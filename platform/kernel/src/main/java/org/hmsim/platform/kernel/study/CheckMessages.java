package org.hmsim.platform.kernel.study;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What a provider's check message says about where the fault lies (docs/writing-a-mechanism.md asks them to begin so). */
public final class CheckMessages {
    private static final Pattern NAMED = Pattern.compile("^parameter '([^']+)'");

    private CheckMessages() {
    }

    /** The parameter a provider's check message names ({@code parameter 'spread': ...}), or null where it names none. */
    public static String parameterNamed(String providerMessage) {
        Matcher named = NAMED.matcher(String.valueOf(providerMessage));
        return named.find() ? named.group(1) : null;
    }
}
