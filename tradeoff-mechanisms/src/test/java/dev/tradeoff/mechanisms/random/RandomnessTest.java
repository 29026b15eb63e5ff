package dev.tradeoff.mechanisms.random;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class RandomnessTest {

  @Test
  void secureSourceIsTheBufferedDrbg() {
    assertThat(Randomness.secure()).isInstanceOf(SecureBits.class);
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
