package dev.spindle.bench.loops;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** IDEA against the published test vector, and decryption undoing encryption. */
class IdeaTest {
    @Test
    void publishedTestVector() {
        int[] key = {1, 2, 3, 4, 5, 6, 7, 8};
        byte[] plain = {0, 0, 0, 1, 0, 2, 0, 3};
        byte[] cipher = new byte[8];
        int[] z = Idea.encryptionKey(key);
        Idea.cipher(plain, cipher, z, 0, 1);
        assertArrayEquals(new byte[]{0x11, (byte) 0xFB, (byte) 0xED, 0x2B, 0x01, (byte) 0x98, 0x6D, (byte) 0xE5}, cipher,
                () -> java.util.HexFormat.of().formatHex(cipher));
        byte[] back = new byte[8];
        Idea.cipher(cipher, back, Idea.decryptionKey(z), 0, 1);
        assertArrayEquals(plain, back);
    }

    @Test
    void inverseIsAnInverse() {
        for (int x = 1; x < 65536; x += 97) {
            assertEquals(1, Idea.mul(x, Idea.inverse(x)), "x = " + x);
        }
    }
}
