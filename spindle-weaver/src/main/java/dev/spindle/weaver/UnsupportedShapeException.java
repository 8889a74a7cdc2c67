package dev.spindle.weaver;

/** A {@code @Future} declaration the weaver cannot rewrite; the method is left as it was. */
final class UnsupportedShapeException extends Exception {
    private static final long serialVersionUID = 1L;
    final int line;

    UnsupportedShapeException(int line, String reason) {
        super(reason, null, false, false);
        this.line = line;
    }
}
