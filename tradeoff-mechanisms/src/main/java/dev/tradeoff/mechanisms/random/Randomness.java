package dev.tradeoff.mechanisms.random;

import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * The two sources of randomness Tradeoff knows, each chosen by name.
 *
 * <ul>
 *   <li>{@link #secure()}: the production source, a NIST SP 800-90A CTR_DRBG (AES-256) seeded and
 *       reseeded from the JDK's Hash_DRBG (SHA-256, 256-bit strength), which the operating system
 *       seeds; read in 64 KiB requests and consumed bit-exactly. Every command and every default
 *       path uses it. Its outputs cannot be predicted from earlier outputs, which differential
 *       privacy silently assumes of its noise.
 *   <li>{@link #seeded(long)}: a reproducible pseudo-random source for tests and simulations. It
 *       gives <em>no</em> privacy: anyone who knows or guesses the seed can subtract the noise. It
 *       is never a default; a caller must ask for it by name.
 * </ul>
 *
 * <p>Every mechanism and sampler takes its randomness as a {@link RandomGenerator} parameter, so the
 * choice is always visible at the call site.
 */
public final class Randomness {

  private Randomness() {}

  /**
   * A new cryptographically secure generator: its own SP 800-90A CTR_DRBG (AES-256, key replaced
   * after every 64 KiB request), seeded and periodically reseeded from its own SP 800-90A Hash_DRBG
   * (SHA-256, 256-bit strength, seeded from the operating system and reseeded as the standard
   * requires), handed out bit by bit, so that a sampler pays only for the bits it uses (see
   * docs/mechanisms.md, "Randomness"). The returned generator is thread-safe (each thread reads its
   * own buffer of disjoint DRBG output); create one and reuse it, since construction costs a seed
   * read.
   */
  public static RandomGenerator secure() {
    return SecureBits.fromDrbg();
  }

  /**
   * A reproducible generator for tests and simulations: the same seed always yields the same
   * sequence ({@link SplittableRandom}, whose algorithm is fixed by its specification). Not secure
   * and therefore not for releasing data: its noise can be reconstructed from the seed.
   *
   * @param seed any long; the caller chooses it on purpose
   */
  public static RandomGenerator seeded(long seed) {
    return new SplittableRandom(seed);
  }
}
