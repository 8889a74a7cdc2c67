package dev.spindle.weaver;

/**
 * A method the weaver rewrote.
 *
 * @param className the class, dotted
 * @param method    the method's name and descriptor
 * @param variables how many {@code @Future} variables it has
 * @param calls     how many potential futures (declarations and assignments) they have
 */
public record WovenMethod(String className, String method, int variables, int calls) {
    @Override
    public String toString() {
        return className + "." + method + ": " + variables + " @Future variable" + (variables == 1 ? "" : "s")
                + ", " + calls + " potential future" + (calls == 1 ? "" : "s");
    }
}
