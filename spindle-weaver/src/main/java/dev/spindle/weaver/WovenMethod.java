package dev.spindle.weaver;

/**
 * A method the weaver rewrote.
 *
 * @param className the class, dotted
 * @param method    the method's name and descriptor
 * @param variables how many {@code @Future} variables it has
 * @param calls     how many potential futures (declarations and assignments) they have
 * @param inPlace   how many object-API future calls ({@code Spindle.future(…)} and its forms) its
 *                  serial method makes in place (see {@code SerialFutureSplit}); 0 for a method
 *                  woven for its {@code @Future} variables
 */
public record WovenMethod(String className, String method, int variables, int calls, int inPlace) {
    /**
     * A method woven for its {@code @Future} variables.
     *
     * @param className the class, dotted
     * @param method    the method's name and descriptor
     * @param variables how many {@code @Future} variables it has
     * @param calls     how many potential futures they have
     */
    public WovenMethod(String className, String method, int variables, int calls) {
        this(className, method, variables, calls, 0);
    }

    @Override
    public String toString() {
        if (variables == 0) {
            return className + "." + method + ": split, " + inPlace + " object-API future call" + (inPlace == 1 ? "" : "s")
                    + " made in place by its serial method";
        }
        return className + "." + method + ": " + variables + " @Future variable" + (variables == 1 ? "" : "s")
                + ", " + calls + " potential future" + (calls == 1 ? "" : "s");
    }
}
