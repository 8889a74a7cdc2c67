package dev.spindle.bench.loops;

import dev.spindle.bench.suite.Size;

import java.util.Arrays;

/**
 * Java Grande Section 2 "Crypt": IDEA encryption and then decryption of an N-byte array; two
 * parallel loops over 8-byte blocks. The answer is the ciphertext and the recovered plaintext.
 */
final class Crypt extends LoopProgram<Crypt.Input, byte[][]> {
    record Input(byte[] plain, int[] key, int[] inverseKey) {
    }

    @Override
    public String name() {
        return "Crypt";
    }

    @Override
    public Input prepare(Size size) {
        int n = size.pick(300_000, 3_000_000, 20_000_000);
        java.util.SplittableRandom r = new java.util.SplittableRandom(136506717L);
        byte[] plain = new byte[n];
        for (int i = 0; i < n; i++) {
            plain[i] = (byte) r.nextInt(256);
        }
        int[] user = new int[8];
        for (int i = 0; i < 8; i++) {
            user[i] = r.nextInt(65536);
        }
        int[] z = Idea.encryptionKey(user);
        return new Input(plain, z, Idea.decryptionKey(z));
    }

    @Override
    byte[][] compute(Input in, LoopRunner loops) {
        byte[] c = new byte[in.plain.length], d = new byte[in.plain.length];
        int blocks = in.plain.length / 8;
        loops.parallelFor(0, blocks, (lo, hi) -> Idea.cipher(in.plain, c, in.key, lo, hi));
        loops.parallelFor(0, blocks, (lo, hi) -> Idea.cipher(c, d, in.inverseKey, lo, hi));
        return new byte[][]{c, d};
    }

    @Override
    int chunk() {
        return 1024;
    }

    @Override
    public String mismatch(byte[][] expected, byte[][] actual) {
        if (!Arrays.equals(expected[0], actual[0])) {
            return "ciphertext differs at byte " + Arrays.mismatch(expected[0], actual[0]);
        }
        if (!Arrays.equals(expected[1], actual[1])) {
            return "decrypted text differs at byte " + Arrays.mismatch(expected[1], actual[1]);
        }
        return null;
    }

    @Override
    public String describe(Size size) {
        return "IDEA encrypt + decrypt of " + size.pick(300_000, 3_000_000, 20_000_000) + " bytes";
    }
}
