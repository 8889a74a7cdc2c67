package dev.spindle.weaver;

import java.util.List;

/**
 * What weaving one class file did.
 *
 * @param className the class, dotted (null if the file could not be read)
 * @param bytes     the woven class file, or null if nothing was changed
 * @param woven     the methods rewritten
 * @param refusals  the methods (or the class) left untouched, and why
 * @param alreadyWoven true if the class carried the woven marker (nothing to do)
 */
public record WeaveResult(String className, byte[] bytes, List<WovenMethod> woven, List<Refusal> refusals,
                          boolean alreadyWoven) {
    /**
     * @return true if the class file was rewritten
     */
    public boolean changed() {
        return bytes != null;
    }
}
