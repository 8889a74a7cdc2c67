package dev.spindle.bench.loops;

/**
 * The IDEA block cipher (Lai and Massey, 1991): 64-bit blocks, a 128-bit key, 8 rounds of
 * multiplication modulo 2^16 + 1, addition modulo 2^16 and xor. Written from the published
 * algorithm for the Crypt program; the key schedule is checked against the published test vector
 * in the tests.
 */
final class Idea {
    private Idea() {
    }

    /** The 52 encryption subkeys of a 128-bit key given as eight 16-bit words. */
    static int[] encryptionKey(int[] userKey) {
        int[] z = new int[52];
        for (int i = 0; i < 8; i++) {
            z[i] = userKey[i] & 0xFFFF;
        }
        // Each group of eight subkeys is the 128-bit key rotated left by 25 bits.
        for (int i = 8; i < 52; i++) {
            int base = (i / 8 - 1) * 8;           // the previous group
            int j = i % 8;
            int a = z[base + (j + 1) % 8];
            int b = z[base + (j + 2) % 8];
            z[i] = ((a << 9) | (b >>> 7)) & 0xFFFF;
        }
        return z;
    }

    /** The 52 decryption subkeys: inverses of the encryption subkeys, in reverse round order. */
    static int[] decryptionKey(int[] z) {
        int[] dk = new int[52];
        int k = 0, j = 51;
        dk[j--] = inverse(z[k + 3]);
        dk[j--] = (-z[k + 2]) & 0xFFFF;
        dk[j--] = (-z[k + 1]) & 0xFFFF;
        dk[j--] = inverse(z[k]);
        k += 4;
        for (int round = 0; round < 8; round++) {
            dk[j--] = z[k + 1];
            dk[j--] = z[k];
            k += 2;
            boolean last = round == 7;
            dk[j--] = inverse(z[k + 3]);
            dk[j--] = (-z[k + (last ? 2 : 1)]) & 0xFFFF;
            dk[j--] = (-z[k + (last ? 1 : 2)]) & 0xFFFF;
            dk[j--] = inverse(z[k]);
            k += 4;
        }
        return dk;
    }

    /** Multiplication modulo 65537, with 0 standing for 65536. */
    static int mul(int a, int b) {
        if (a == 0) {
            return (65537 - b) & 0xFFFF;
        }
        if (b == 0) {
            return (65537 - a) & 0xFFFF;
        }
        long p = (long) a * b;
        int lo = (int) (p & 0xFFFF), hi = (int) (p >>> 16);
        return (lo - hi + (lo < hi ? 65537 : 0)) & 0xFFFF;
    }

    /** Multiplicative inverse modulo 65537 (0 and 1 are their own inverses). */
    static int inverse(int x) {
        if (x <= 1) {
            return x;
        }
        // extended Euclid on (65537, x)
        long t0 = 0, t1 = 1, r0 = 65537, r1 = x;
        while (r1 != 0) {
            long q = r0 / r1;
            long r = r0 - q * r1;
            r0 = r1;
            r1 = r;
            long t = t0 - q * t1;
            t0 = t1;
            t1 = t;
        }
        return (int) ((t0 % 65537 + 65537) % 65537) & 0xFFFF;
    }

    /** Encrypts (or, with a decryption key, decrypts) 8-byte blocks {@code [fromBlock, toBlock)} of {@code in} into {@code out}. */
    static void cipher(byte[] in, byte[] out, int[] key, int fromBlock, int toBlock) {
        for (int blk = fromBlock; blk < toBlock; blk++) {
            int p = blk * 8;
            int x1 = (in[p] & 0xFF) << 8 | (in[p + 1] & 0xFF);
            int x2 = (in[p + 2] & 0xFF) << 8 | (in[p + 3] & 0xFF);
            int x3 = (in[p + 4] & 0xFF) << 8 | (in[p + 5] & 0xFF);
            int x4 = (in[p + 6] & 0xFF) << 8 | (in[p + 7] & 0xFF);
            int k = 0;
            for (int round = 0; round < 8; round++) {
                x1 = mul(x1, key[k++]);
                x2 = (x2 + key[k++]) & 0xFFFF;
                x3 = (x3 + key[k++]) & 0xFFFF;
                x4 = mul(x4, key[k++]);
                int t2 = mul(x1 ^ x3, key[k++]);
                int t1 = mul((t2 + (x2 ^ x4)) & 0xFFFF, key[k++]);
                t2 = (t1 + t2) & 0xFFFF;
                x1 ^= t1;
                x4 ^= t2;
                t2 ^= x2;
                x2 = x3 ^ t1;
                x3 = t2;
            }
            int y1 = mul(x1, key[k++]);
            int y2 = (x3 + key[k++]) & 0xFFFF;
            int y3 = (x2 + key[k++]) & 0xFFFF;
            int y4 = mul(x4, key[k]);
            out[p] = (byte) (y1 >>> 8);
            out[p + 1] = (byte) y1;
            out[p + 2] = (byte) (y2 >>> 8);
            out[p + 3] = (byte) y2;
            out[p + 4] = (byte) (y3 >>> 8);
            out[p + 5] = (byte) y3;
            out[p + 6] = (byte) (y4 >>> 8);
            out[p + 7] = (byte) y4;
        }
    }
}
