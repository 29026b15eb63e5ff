package dev.tradeoff.mechanisms.random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class CtrDrbgTest {

  private static Consumer<byte[]> fixed(String hex) {
    byte[] seed = HexFormat.of().parseHex(hex);
    return out -> System.arraycopy(seed, 0, out, 0, out.length);
  }

  /**
   * NIST CAVP DRBG test vectors (CAVS 14.3, drbgvectors_no_reseed/CTR_DRBG.rsp), section [AES-256
   * no df], [PredictionResistance = False], EntropyInputLen 384, NonceLen 0,
   * PersonalizationStringLen 0, AdditionalInputLen 0, ReturnedBitsLen 512, COUNT = 0: instantiate
   * with EntropyInput, generate 512 bits and discard them, generate 512 bits: ReturnedBits.
   */
  @Test
  void matchesTheNistCavpVector() {
    CtrDrbg drbg =
        new CtrDrbg(
            fixed(
                "df5d73faa468649edda33b5cca79b0b05600419ccb7a879d"
                    + "dfec9db32ee494e5531b51de16a30f769262474c73bec010"),
            1L << 48);
    byte[] out = new byte[64];
    drbg.generate(out);
    drbg.generate(out);
    assertThat(HexFormat.of().formatHex(out))
        .isEqualTo(
            "d1c07cd95af8a7f11012c84ce48bb8cb87189e99d40fccb1771c619bdf82ab22"
                + "80b1dc2f2581f39164f7ac0c510494b3a43c41b7db17514c87b107ae793e01c5");
  }

  @Test
  void reseedsFromItsSourceAfterTheInterval() {
    int[] seeds = new int[1];
    CtrDrbg drbg =
        new CtrDrbg(
            out -> {
              seeds[0]++;
              out[0] = (byte) seeds[0];
            },
            3);
    byte[] out = new byte[16];
    for (int i = 0; i < 7; i++) {
      drbg.generate(out);
    }
    // instantiation, then before requests 4 and 7
    assertThat(seeds[0]).isEqualTo(3);
  }

  /**
   * The counter blocks V + 1, …, V + 8 encrypted in ECB mode are the JDK's AES/CTR keystream from
   * IV = V + 1, and V ends at V + 8 (mod 2^128), also where the low 64 bits or all 128 wrap.
   */
  @Test
  void counterBlocksEncryptedInEcbAreTheCtrKeystream() throws Exception {
    SplittableRandom random = new SplittableRandom(5);
    BigInteger modulus = BigInteger.ONE.shiftLeft(128);
    for (long high : new long[] {0, -1L, random.nextLong()}) {
      for (long low : new long[] {0, -3L, -1L, random.nextLong()}) {
        byte[] key = new byte[32];
        random.nextBytes(key);
        BigInteger start = new BigInteger(Long.toUnsignedString(high))
            .shiftLeft(64).add(new BigInteger(Long.toUnsignedString(low)));
        byte[] v = sixteenBytes(start);
        Cipher ctr = Cipher.getInstance("AES/CTR/NoPadding");
        ctr.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"),
            new IvParameterSpec(sixteenBytes(start.add(BigInteger.ONE).mod(modulus))));
        byte[] expected = ctr.doFinal(new byte[8 * 16]);

        byte[] counters = new byte[8 * 16];
        CtrDrbg.writeCounters(v, counters, 8);
        Cipher ecb = Cipher.getInstance("AES/ECB/NoPadding");
        ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
        assertThat(ecb.doFinal(counters)).isEqualTo(expected);
        assertThat(v).isEqualTo(sixteenBytes(start.add(BigInteger.valueOf(8)).mod(modulus)));
      }
    }
  }

  /** x in [0, 2^128) as 16 big-endian bytes. */
  private static byte[] sixteenBytes(BigInteger x) {
    byte[] bytes = x.add(BigInteger.ONE.shiftLeft(128)).toByteArray(); // 17 bytes, leading 1
    return java.util.Arrays.copyOfRange(bytes, 1, 17);
  }

  @Test
  void requestsOfPartialBlocksAdvanceTheCounterByWholeBlocks() {
    // two DRBGs from the same seed: one request of 33 bytes consumes three counter blocks, as a
    // request of 48 does, so the following requests agree
    String seed = "00".repeat(47) + "01";
    CtrDrbg a = new CtrDrbg(fixed(seed), 10);
    CtrDrbg b = new CtrDrbg(fixed(seed), 10);
    byte[] partial = new byte[33];
    byte[] whole = new byte[48];
    a.generate(partial);
    b.generate(whole);
    assertThat(partial).containsExactly(java.util.Arrays.copyOf(whole, 33));
    byte[] nextA = new byte[64];
    byte[] nextB = new byte[64];
    a.generate(nextA);
    b.generate(nextB);
    assertThat(nextA).isEqualTo(nextB);
  }

  @Test
  void refusesOversizedRequestsAndBadIntervals() {
    CtrDrbg drbg = new CtrDrbg(fixed("00".repeat(48)), 10);
    assertThatThrownBy(() -> drbg.generate(new byte[CtrDrbg.MAX_REQUEST_BYTES + 1]))
        .hasMessageContaining("request")
        .hasMessageContaining("65537");
    assertThatThrownBy(() -> new CtrDrbg(fixed("00".repeat(48)), 0))
        .hasMessageContaining("reseedInterval");
  }
}
