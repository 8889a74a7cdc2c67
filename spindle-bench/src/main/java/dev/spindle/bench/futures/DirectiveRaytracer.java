package dev.spindle.bench.futures;

import dev.spindle.Future;

/** The raytracer: the pixel range split in halves down to one pixel; each half a potential future. */
public final class DirectiveRaytracer implements DirectiveCode<Raytracer.Scene, int[]> {
    @Override
    public int[] run(Raytracer.Scene s) {
        int[] img = new int[s.width() * s.height()];
        trace(s, img, 0, img.length);
        return img;
    }

    /** Returns the number of pixels traced. */
    static int trace(Raytracer.Scene s, int[] img, int lo, int hi) {
        if (hi - lo == 1) {
            img[lo] = Raytracer.pixel(s, lo);
            return 1;
        }
        int mid = (lo + hi) >>> 1;
        @Future int left = trace(s, img, lo, mid);
        int right = trace(s, img, mid, hi);
        return left + right;
    }

    @Override
    public long potentialFutures(Raytracer.Scene s) {
        return (long) s.width() * s.height() - 1;
    }
}
