package org.hmsim.platform.kernel.results;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * JSON of results: pretty, keys in insertion order (callers sort where order is not meaningful), NaN and
 * infinities written as the literals Java reads back, so a value survives the round trip bit for bit.
 */
public final class Json {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(JsonWriteFeature.WRITE_NAN_AS_STRINGS)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    private Json() {}

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
    }

    /**
     * Reads a JSON object; objects come back as LinkedHashMaps in file order. A file that is not one
     * (damaged, cut short, empty) gives a {@link ResultsFolderException} that names it and the place.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> read(Path file) {
        try {
            Map<String, Object> m = MAPPER.readValue(file.toFile(), LinkedHashMap.class);
            if (m == null) throw ResultsFolderException.damaged(file, "null instead of a JSON object");
            return m;
        } catch (JsonProcessingException e) {
            throw ResultsFolderException.damaged(file, where(e) + plain(e.getOriginalMessage().lines().findFirst().orElse("")));
        } catch (IOException e) {
            throw new ResultsFolderException("cannot read " + file + ": " + e.getMessage());
        }
    }

    /** A JSON text as {@link #read} gives a file back (numbers as the same types). */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parse(String json) {
        try {
            return MAPPER.readValue(json, LinkedHashMap.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot read back JSON hmsim wrote: " + e.getOriginalMessage(), e);
        }
    }

    /** A JSON value as a short text for a message: a string quoted (cut at 40 characters), anything else as written. */
    public static String describe(Object v) {
        String t = (v instanceof String s ? "\"" + s + "\"" : write(v).strip()).replaceAll("\\s+", " "); // one line: it goes into a one-line error
        return t.length() > 42 ? t.substring(0, 40) + "..." : t;
    }

    /**
     * Jackson's message without its internals (a bad-input trial quoted "[Source: REDACTED
     * (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 1]" and "Cannot deserialize value of type
     * `java.util.LinkedHashMap<java.lang.Object,java.lang.Object>` from Array value").
     */
    static String plain(String message) {
        String m = message.replaceAll("\\s*\\(start marker at \\[Source: [^\\]]*\\]\\)", "")
                .replaceAll("\\[Source: [^\\]]*\\]", "");
        if (m.startsWith("Cannot deserialize value of type")) {
            int from = m.indexOf(" from ");
            String found = from < 0 ? "something else" : m.substring(from + 6).replaceAll(" \\(token.*", "").replace(" value", "").toLowerCase(java.util.Locale.ROOT);
            return "a JSON object was expected, found " + (found.startsWith("a") || found.startsWith("e") || found.startsWith("o") ? "an " : "a ") + found;
        }
        return m.strip();
    }

    private static String where(JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        return at == null || at.getLineNr() < 1 ? "" : "line " + at.getLineNr() + ", column " + at.getColumnNr() + ": ";
    }
}
