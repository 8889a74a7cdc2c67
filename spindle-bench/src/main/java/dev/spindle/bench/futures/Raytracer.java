package dev.spindle.bench.futures;

import dev.spindle.Spindle;
import dev.spindle.bench.suite.Size;
import dev.spindle.future.LazyFuture;

import java.util.Arrays;
import java.util.concurrent.Future;

/**
 * A small ray tracer (Satin's Raytracer, DBLFutures Table 1): spheres on a plane, one point light,
 * shadows and one level of reflection. The image's pixel range is split recursively in halves,
 * the right half a future; every variant computes the same pixels.
 */
public final class Raytracer extends FutureProgram<Raytracer.Scene, int[]> {

    /**
     * The scene: spheres as (cx, cy, cz, r, red, green, blue, reflect) rows, and the image size.
     *
     * @param spheres sphere rows
     * @param width   image width
     * @param height  image height
     */
    public record Scene(double[][] spheres, int width, int height) {
    }

    @Override
    public String name() {
        return "Raytracer";
    }

    @Override
    public Scene prepare(Size size) {
        int w = size.pick(160, 1024, 1600);
        double[][] sp = new double[16][];
        for (int i = 0; i < sp.length; i++) {
            double a = i * 2 * Math.PI / sp.length;
            sp[i] = new double[]{Math.cos(a) * 3, -0.5 + (i % 3) * 0.6, 8 + Math.sin(a) * 3, 0.5 + 0.1 * (i % 4),
                    0.2 + 0.05 * (i % 5), 0.3 + 0.04 * (i % 7), 0.9 - 0.05 * (i % 6), (i % 2) * 0.5};
        }
        return new Scene(sp, w, w * 3 / 4);
    }

    @Override
    public String describe(Size size) {
        int w = size.pick(160, 1024, 1600);
        return w + "x" + (w * 3 / 4) + " image, 16 spheres, shadows, one reflection";
    }

    @Override
    public int[] tuningCandidates() {
        return new int[]{16, 64, 256, 1024, 4096, 16384};
    }

    @Override
    protected int tunedCutoff() {
        return 16384;
    }

    @Override
    public String mismatch(int[] expected, int[] actual) {
        return Arrays.equals(expected, actual) ? null : "images differ";
    }

    @Override
    protected int[] seq(Scene s) {
        int[] img = new int[s.width * s.height];
        for (int p = 0; p < img.length; p++) {
            img[p] = pixel(s, p);
        }
        return img;
    }

    @Override
    protected int[] spindle(Scene s) {
        int[] img = new int[s.width * s.height];
        spindle(s, img, 0, img.length);
        return img;
    }

    private static void spindle(Scene s, int[] img, int lo, int hi) {
        if (hi - lo == 1) {
            img[lo] = pixel(s, lo);
            return;
        }
        int mid = (lo + hi) >>> 1;
        LazyFuture<Void> left = Spindle.future(() -> {
            spindle(s, img, lo, mid);
            return null;
        });
        spindle(s, img, mid, hi);
        left.touch();
    }

    @Override
    protected int[] spawned(Scene s, Spawner sp, int cutoff) {
        int[] img = new int[s.width * s.height];
        spawned(s, img, 0, img.length, sp, cutoff);
        return img;
    }

    private static void spawned(Scene s, int[] img, int lo, int hi, Spawner sp, int cutoff) {
        if (hi - lo <= Math.max(1, cutoff)) {
            for (int p = lo; p < hi; p++) {
                img[p] = pixel(s, p);
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        Future<Object> right = sp.spawn(() -> {
            spawned(s, img, mid, hi, sp, cutoff);
            return null;
        });
        spawned(s, img, lo, mid, sp, cutoff);
        sp.join(right);
    }

    // ------------------------------------------------------------------ tracing

    public static int pixel(Scene s, int p) {
        int x = p % s.width;
        int y = p / s.width;
        double dx = (x - s.width / 2.0) / s.height;
        double dy = -(y - s.height / 2.0) / s.height;
        double dz = 1;
        double len = Math.sqrt(dx * dx + dy * dy + dz * dz);
        double[] c = trace(s, 0, 0.5, 0, dx / len, dy / len, dz / len, 1);
        int r = (int) Math.min(255, c[0] * 255);
        int g = (int) Math.min(255, c[1] * 255);
        int b = (int) Math.min(255, c[2] * 255);
        return r << 16 | g << 8 | b;
    }

    private static final double LX = -5;
    private static final double LY = 8;
    private static final double LZ = 0;

    /** Color along a ray: nearest sphere or the floor (y = -1), Lambert shading, shadow, one bounce. */
    private static double[] trace(Scene s, double ox, double oy, double oz, double dx, double dy, double dz, int depth) {
        double best = Double.MAX_VALUE;
        int hit = -1;
        for (int i = 0; i < s.spheres.length; i++) {
            double t = intersect(s.spheres[i], ox, oy, oz, dx, dy, dz);
            if (t > 1e-6 && t < best) {
                best = t;
                hit = i;
            }
        }
        double floorT = dy < 0 ? (-1 - oy) / dy : Double.MAX_VALUE;
        if (hit < 0 && floorT == Double.MAX_VALUE) {
            return new double[]{0.2, 0.3, 0.5 + 0.5 * dy};
        }
        double px;
        double py;
        double pz;
        double nx;
        double ny;
        double nz;
        double[] col;
        double refl;
        if (hit >= 0 && best < floorT) {
            double[] sp = s.spheres[hit];
            px = ox + dx * best;
            py = oy + dy * best;
            pz = oz + dz * best;
            nx = (px - sp[0]) / sp[3];
            ny = (py - sp[1]) / sp[3];
            nz = (pz - sp[2]) / sp[3];
            col = new double[]{sp[4], sp[5], sp[6]};
            refl = sp[7];
        } else {
            px = ox + dx * floorT;
            py = -1;
            pz = oz + dz * floorT;
            nx = 0;
            ny = 1;
            nz = 0;
            boolean check = ((int) Math.floor(px) + (int) Math.floor(pz) & 1) == 0;
            col = check ? new double[]{0.8, 0.8, 0.8} : new double[]{0.3, 0.3, 0.3};
            refl = 0.2;
        }
        double lx = LX - px;
        double ly = LY - py;
        double lz = LZ - pz;
        double ll = Math.sqrt(lx * lx + ly * ly + lz * lz);
        lx /= ll;
        ly /= ll;
        lz /= ll;
        double lambert = Math.max(0, nx * lx + ny * ly + nz * lz);
        for (double[] sp : s.spheres) {
            double t = intersect(sp, px, py, pz, lx, ly, lz);
            if (t > 1e-6 && t < ll) {
                lambert *= 0.3;
                break;
            }
        }
        double[] out = {col[0] * (0.1 + 0.9 * lambert), col[1] * (0.1 + 0.9 * lambert), col[2] * (0.1 + 0.9 * lambert)};
        if (depth > 0 && refl > 0) {
            double dn = dx * nx + dy * ny + dz * nz;
            double[] r = trace(s, px, py, pz, dx - 2 * dn * nx, dy - 2 * dn * ny, dz - 2 * dn * nz, depth - 1);
            for (int k = 0; k < 3; k++) {
                out[k] = out[k] * (1 - refl) + r[k] * refl;
            }
        }
        return out;
    }

    private static double intersect(double[] sp, double ox, double oy, double oz, double dx, double dy, double dz) {
        double cx = ox - sp[0];
        double cy = oy - sp[1];
        double cz = oz - sp[2];
        double b = cx * dx + cy * dy + cz * dz;
        double c = cx * cx + cy * cy + cz * cz - sp[3] * sp[3];
        double disc = b * b - c;
        if (disc < 0) {
            return -1;
        }
        double sq = Math.sqrt(disc);
        double t = -b - sq;
        return t > 1e-6 ? t : -b + sq;
    }
}
