package dev.tradeoff.mechanisms.random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import java.util.function.Consumer;
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
