package org.hmsim.etc;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;

/** How an ETC technique is switched on: by the classifier (ETC proper), always (the technique alone), or never. */
enum Mode {
    AUTO, ON, OFF;

    static ParamSpec param(String technique) { return param(technique, "auto"); }

    static ParamSpec param(String technique, String byDefault) {
        return ParamSpec.choice("mode", byDefault, List.of("auto", "on", "off"),
                "auto: on when the classifier picks " + technique + " (ETC); on: always, from the start (the technique alone, as the paper's per-technique bars); off: never");
    }

    static Mode of(String s) { return Mode.valueOf(s.toUpperCase(java.util.Locale.ROOT)); }
}
