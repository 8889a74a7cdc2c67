package dev.spindle.runtime;

/**
 * Field layout: a cache line between the worker's own fields and those other workers read. Bytes,
 * not longs: HotSpot places a subclass's fields in the holes its superclasses left, so with longs
 * here a one-byte hole after {@link WorkerOwnerFields}'s booleans took {@code Worker.retired},
 * which every thief reads; bytes fill any such hole themselves, and 64 more follow it.
 */
abstract class WorkerPad1 extends WorkerOwnerFields {
    @SuppressWarnings("unused") private byte b00, b01, b02, b03, b04, b05, b06, b07;
    @SuppressWarnings("unused") private byte b10, b11, b12, b13, b14, b15, b16, b17;
    @SuppressWarnings("unused") private byte b20, b21, b22, b23, b24, b25, b26, b27;
    @SuppressWarnings("unused") private byte b30, b31, b32, b33, b34, b35, b36, b37;
    @SuppressWarnings("unused") private byte b40, b41, b42, b43, b44, b45, b46, b47;
    @SuppressWarnings("unused") private byte b50, b51, b52, b53, b54, b55, b56, b57;
    @SuppressWarnings("unused") private byte b60, b61, b62, b63, b64, b65, b66, b67;
    @SuppressWarnings("unused") private byte b70, b71, b72, b73, b74, b75, b76, b77;
    @SuppressWarnings("unused") private byte b80;

    WorkerPad1(ThreadGroup group, String name) {
        super(group, name);
    }
}
