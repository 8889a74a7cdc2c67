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
 * @param baseCases how many of its calls (and its copies' calls) to a woven static method test
 *                  that method's base case first (see {@code BaseCaseAtCall})
 */
public record WovenMethod(String className, String method, int variables, int calls, int inPlace, int baseCases) {
    /**
     * A method split for its object-API futures.
     *
     * @param className the class, dotted
     * @param method    the method's name and descriptor
     * @param variables how many {@code @Future} variables it has
     * @param calls     how many potential futures they have
     * @param inPlace   how many object-API future calls its serial method makes in place
     */
    public WovenMethod(String className, String method, int variables, int calls, int inPlace) {
        this(className, method, variables, calls, inPlace, 0);
    }

    /**
     * A method woven for its {@code @Future} variables.
     *
     * @param className the class, dotted
     * @param method    the method's name and descriptor
     * @param variables how many {@code @Future} variables it has
     * @param calls     how many potential futures they have
     */
    public WovenMethod(String className, String method, int variables, int calls) {
        this(className, method, variables, calls, 0, 0);
    }

    /**
     * This method with its count of base cases tested at calls.
     *
     * @param n the count
     * @return the record with {@code baseCases} = n
     */
    public WovenMethod withBaseCases(int n) {
        return new WovenMethod(className, method, variables, calls, inPlace, n);
    }

    @Override
    public String toString() {
        String baseCaseCalls = baseCases == 0 ? ""
                : ", the base case tested at " + baseCases + " call" + (baseCases == 1 ? "" : "s");
        if (variables == 0) {
            return className + "." + method + ": split, " + inPlace + " object-API future call" + (inPlace == 1 ? "" : "s")
                    + " made in place by its serial method" + baseCaseCalls;
        }
        return className + "." + method + ": " + variables + " @Future variable" + (variables == 1 ? "" : "s")
                + ", " + calls + " potential future" + (calls == 1 ? "" : "s") + baseCaseCalls;
    }
}
