package dev.spindle.weaver;

/**
 * A method (or a whole class) the weaver left untouched, and why.
 *
 * @param className the class, dotted
 * @param method    the method's name and descriptor, or null for the whole class
 * @param line      the source line, or -1 if unknown
 * @param reason    what is wrong
 */
public record Refusal(String className, String method, int line, String reason) {
    @Override
    public String toString() {
        String m = method == null ? "" : "." + method;
        String at = line > 0 ? " (line " + line + ")" : "";
        return className + m + at + ": " + reason;
    }
}
