/**
 * The {@code @Future} weaver: rewrites methods whose local variables are annotated
 * {@link dev.spindle.Future} onto the lazy-future runtime of {@code spindle-core}. Used by the
 * Maven plugin, the javaagent and {@code ./spindle weave}; {@link dev.spindle.weaver.Weaver} is
 * the entry point, {@code ClassFileTree} weaves a directory or a jar.
 */
package dev.spindle.weaver;
