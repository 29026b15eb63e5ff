package dev.tradeoff.mechanisms.random;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.DrbgParameters;
import java.security.SecureRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class RandomnessTest {

  @Test
  void secureSourceIsTheBufferedDrbg() {
    assertThat(Randomness.secure()).isInstanceOf(SecureBits.class);
  }

  @Test
  void theDrbgIsHashDrbgWithSha256At256BitStrengthAndCanReseed() {
    SecureRandom drbg = SecureBits.drbg();
    assertThat(drbg.getAlgorithm()).isEqualTo("DRBG");
    assertThat(drbg.getParameters()).isInstanceOfSatisfying(DrbgParameters.Instantiation.class,
        p -> {
          assertThat(p.getStrength()).isEqualTo(256);
          assertThat(p.getCapability()).isEqualTo(DrbgParameters.Capability.RESEED_ONLY);
        });
    // the mechanism and its hash, as the JDK names them (securerandom.drbg.config's default)
    assertThat(drbg.toString()).contains("Hash_DRBG,SHA-256,256,reseed_only");
    drbg.reseed(); // SP 800-90A reseeding from the operating system's entropy is available
  }

  @Test
  void secureBytesAreUniform() {
    // chi-square over byte values of 2^20 secure bytes: 255 degrees of freedom, the 1e-6 upper
    // quantile is 377.08 (scipy.stats.chi2.isf(1e-6, 255)); a stuck, biased or repeating source fails it
    RandomGenerator secure = Randomness.secure();
    long[] counts = new long[256];
    for (int i = 0; i < (1 << 17); i++) {
      long word = secure.nextLong();
      for (int b = 0; b < 8; b++) {
        counts[(int) (word >>> (8 * b)) & 0xff]++;
      }
    }
    double expected = (1 << 20) / 256.0;
    double chiSquare = 0;
    for (long c : counts) {
      chiSquare += (c - expected) * (c - expected) / expected;
    }
    assertThat(chiSquare).isLessThan(377.08);
  }

  @Test
  void secureSourcesDoNotRepeatEachOther() {
    long[] a = Randomness.secure().longs(4).toArray();
    long[] b = Randomness.secure().longs(4).toArray();
    assertThat(a).isNotEqualTo(b);
  }

  @Test
  void seededSourceReproducesItsSequence() {
    RandomGenerator first = Randomness.seeded(42);
    RandomGenerator second = Randomness.seeded(42);
    for (int i = 0; i < 100; i++) {
      assertThat(first.nextLong()).isEqualTo(second.nextLong());
    }
  }

  @Test
  void differentSeedsGiveDifferentSequences() {
    assertThat(Randomness.seeded(1).longs(4).toArray())
        .isNotEqualTo(Randomness.seeded(2).longs(4).toArray());
  }
}
