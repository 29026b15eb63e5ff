package dev.tradeoff.mechanisms.random;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.function.Consumer;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * CTR_DRBG with AES-256 and no derivation function, as specified in NIST SP 800-90A Rev. 1,
 * Section 10.2.1 (instantiate 10.2.1.3.1, reseed 10.2.1.4.1, generate 10.2.1.5.1, update
 * 10.2.1.2), with ctr_len = blocklen = 128, keylen = 256, seedlen = 384, no personalization string
 * and no additional input.
 *
 * <p>State: Key (256 bits) and V (128 bits). Generate returns AES_Key(V + 1) ‖ AES_Key(V + 2) ‖ …,
 * truncated to the request, then runs Update with zero additional input: three further blocks
 * replace Key and V, so the key that produced a block never survives its request (backtracking
 * resistance, SP 800-90A Section 8.8). The keystream is computed by the JDK's {@code
 * AES/CTR/NoPadding} from IV = V + 1, whose counter is the whole 16-byte block incremented as a
 * 128-bit big-endian integer — exactly V ← (V + 1) mod 2^128 of Section 10.2.1.5.1 with
 * ctr_len = blocklen (checked against the CAVP vector in the tests).
 *
 * <p>Limits kept: at most 2^19 bits (64 KiB) per request (Table 3's max_number_of_bits_per_request
 * for AES-256) and a reseed after {@code reseedInterval} requests (Table 3 allows up to 2^48). The
 * 384 bits of seed material for instantiation and every reseed come from {@code entropy}.
 *
 * <p>Not thread-safe on its own; {@link SecureBits} calls {@link #generate} under a lock.
 */
final class CtrDrbg {

  /** The largest request in bytes: 2^19 bits (SP 800-90A Rev. 1, Table 3). */
  static final int MAX_REQUEST_BYTES = 1 << 16;

  private static final int SEED_BYTES = 48;
  private static final int KEY_BYTES = 32;
  private static final int BLOCK_BYTES = 16;

  private final Consumer<byte[]> entropy;
  private final long reseedInterval;
  private final Cipher ecb;
  private final Cipher ctr;
  private final byte[] zeros = new byte[MAX_REQUEST_BYTES];
  private byte[] key = new byte[KEY_BYTES];
  private final byte[] v = new byte[BLOCK_BYTES];
  private long reseedCounter;

  /**
   * Instantiates from 384 bits of {@code entropy} (SP 800-90A 10.2.1.3.1 with Key = 0, V = 0).
   *
   * @param entropy fills the array it is given (48 bytes) with seed material
   * @param reseedInterval requests between reseeds, 1 ≤ interval ≤ 2^48
   */
  CtrDrbg(Consumer<byte[]> entropy, long reseedInterval) {
    if (reseedInterval < 1 || reseedInterval > 1L << 48) {
      throw new IllegalArgumentException(
          "reseedInterval must be in [1, 2^48], got " + reseedInterval);
    }
    this.entropy = entropy;
    this.reseedInterval = reseedInterval;
    try {
      this.ecb = Cipher.getInstance("AES/ECB/NoPadding");
      this.ctr = Cipher.getInstance("AES/CTR/NoPadding");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK's AES is not available", e);
    }
    reseed();
  }

  /** Fills {@code out} (at most 64 KiB) with the next request's output. */
  void generate(byte[] out) {
    if (out.length > MAX_REQUEST_BYTES) {
      throw new IllegalArgumentException(
          "request must be at most " + MAX_REQUEST_BYTES + " bytes, got " + out.length);
    }
    if (reseedCounter > reseedInterval) {
      reseed();
    }
    increment(v, 1);
    try {
      ctr.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(v));
      ctr.doFinal(zeros, 0, out.length, out, 0);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-CTR failed", e);
    }
    increment(v, (out.length + BLOCK_BYTES - 1) / BLOCK_BYTES - 1); // V = the last counter used
    update(null);
    reseedCounter++;
  }

  /** Reseed (10.2.1.4.1, no additional input; 10.2.1.3.1 when Key = V = 0). */
  private void reseed() {
    byte[] seed = new byte[SEED_BYTES];
    entropy.accept(seed);
    update(seed);
    Arrays.fill(seed, (byte) 0);
    reseedCounter = 1;
  }

  /** CTR_DRBG_Update (10.2.1.2): three blocks AES_Key(V + i), XOR provided data, new Key ‖ V. */
  private void update(byte[] provided) {
    byte[] temp = new byte[SEED_BYTES];
    try {
      ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
      for (int i = 0; i < SEED_BYTES; i += BLOCK_BYTES) {
        increment(v, 1);
        ecb.doFinal(v, 0, BLOCK_BYTES, temp, i);
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES failed", e);
    }
    if (provided != null) {
      for (int i = 0; i < SEED_BYTES; i++) {
        temp[i] ^= provided[i];
      }
    }
    Arrays.fill(key, (byte) 0);
    key = Arrays.copyOf(temp, KEY_BYTES);
    System.arraycopy(temp, KEY_BYTES, v, 0, BLOCK_BYTES);
    Arrays.fill(temp, (byte) 0);
  }

  /** counter ← (counter + amount) mod 2^128, big-endian, for 0 ≤ amount &lt; 2^31. */
  private static void increment(byte[] counter, int amount) {
    int carry = amount;
    for (int i = counter.length - 1; i >= 0 && carry != 0; i--) {
      int sum = (counter[i] & 0xff) + carry;
      counter[i] = (byte) sum;
      carry = sum >>> 8;
    }
  }
}
