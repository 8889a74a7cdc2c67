package dev.spindle.bench.runner;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the JSON the runner writes (results.json): objects as maps, arrays as lists, numbers as
 * doubles, strings, booleans and null. Strict: anything else is an {@link IllegalArgumentException}
 * naming the offset and what was found there.
 */
final class JsonReader {
    private final String s;
    private int i;

    private JsonReader(String s) {
        this.s = s;
    }

    /**
     * @param text a JSON document
     * @return its value
     * @throws IllegalArgumentException if the text is not one JSON value
     */
    static Object parse(String text) {
        JsonReader r = new JsonReader(text);
        Object v = r.value();
        r.space();
        if (r.i != r.s.length()) {
            throw r.error("end of input");
        }
        return v;
    }

    private Object value() {
        space();
        if (i >= s.length()) {
            throw error("a value");
        }
        char c = s.charAt(i);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> word("true", Boolean.TRUE);
            case 'f' -> word("false", Boolean.FALSE);
            case 'n' -> word("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> m = new LinkedHashMap<>();
        i++;
        space();
        if (peek('}')) {
            i++;
            return m;
        }
        while (true) {
            space();
            if (!peek('"')) {
                throw error("a member name");
            }
            String k = string();
            space();
            expect(':');
            m.put(k, value());
            space();
            if (peek(',')) {
                i++;
            } else {
                expect('}');
                return m;
            }
        }
    }

    private List<Object> array() {
        List<Object> l = new ArrayList<>();
        i++;
        space();
        if (peek(']')) {
            i++;
            return l;
        }
        while (true) {
            l.add(value());
            space();
            if (peek(',')) {
                i++;
            } else {
                expect(']');
                return l;
            }
        }
    }

    private String string() {
        StringBuilder b = new StringBuilder();
        i++;
        while (i < s.length()) {
            char c = s.charAt(i++);
            if (c == '"') {
                return b.toString();
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            if (i >= s.length()) {
                break;
            }
            char e = s.charAt(i++);
            switch (e) {
                case '"', '\\', '/' -> b.append(e);
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> {
                    if (i + 4 > s.length()) {
                        throw error("four hex digits");
                    }
                    try {
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    } catch (NumberFormatException x) {
                        throw error("four hex digits");
                    }
                    i += 4;
                }
                default -> throw error("an escape");
            }
        }
        throw error("the end of a string");
    }

    private Double number() {
        int start = i;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        try {
            return Double.valueOf(s.substring(start, i));
        } catch (NumberFormatException x) {
            i = start;
            throw error("a value");
        }
    }

    private Object word(String w, Object v) {
        if (!s.startsWith(w, i)) {
            throw error(w);
        }
        i += w.length();
        return v;
    }

    private void space() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
    }

    private boolean peek(char c) {
        return i < s.length() && s.charAt(i) == c;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw error("'" + c + "'");
        }
        i++;
    }

    private IllegalArgumentException error(String wanted) {
        String found = i < s.length() ? "'" + s.substring(i, Math.min(s.length(), i + 12)) + "'" : "the end";
        return new IllegalArgumentException("JSON: expected " + wanted + " at offset " + i + ", found " + found);
    }
}
