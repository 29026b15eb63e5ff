package dev.tradeoff.learning.features;

import dev.tradeoff.accounting.internal.Require;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;

/**
 * Turns one String cell of a raw CSV row into a fixed number of features, never looking at any
 * other row: a function of the cell and of public parameters alone. Encoding never throws on a
 * cell's content (an empty, absent, unparsable or non-finite cell is "missing"), so no sensitive
 * row can make a job fail or be refused.
 */
public sealed interface ColumnEncoder extends Serializable
    permits ColumnEncoder.Numeric, ColumnEncoder.Ranged, ColumnEncoder.Hashed {

  /** The column's name, as shown in {@link #describe()} (and hashed by {@link Hashed}). */
  String name();

  /** The 0-based index of the cell this encoder reads. */
  int column();

  /** The number of features written by {@link #encode}. */
  int dimension();

  /**
   * Writes this column's {@link #dimension()} features for the row into {@code out} from
   * {@code offset}; a column beyond {@code cells.length} or a null cell counts as missing.
   */
  void encode(String[] cells, double[] out, int offset);

  /** One human-readable line for a manifest. */
  String describe();

  /**
   * A numeric column standardised with public statistics: v ↦ clip((v − center)/scale, ±clip), then
   * a missing indicator (1 for an empty, unparsable or non-finite cell, whose value feature is 0).
   *
   * @param name the column's name, not null
   * @param column the cell index ≥ 0
   * @param center a finite public centre (e.g. the query set's mean)
   * @param scale a public scale &gt; 0 (e.g. the query set's standard deviation)
   * @param clip the bound &gt; 0 on the standardised value
   */
  record Numeric(String name, int column, double center, double scale, double clip)
      implements ColumnEncoder {

    public Numeric {
      Require.nonNull("name", name);
      Require.nonNegative("column", column);
      Require.finite("center", center);
      Require.positive("scale", scale);
      Require.positive("clip", clip);
    }

    @Override
    public int dimension() {
      return 2;
    }

    @Override
    public void encode(String[] cells, double[] out, int offset) {
      double v = Cells.number(Cells.stripped(cells, column));
      boolean missing = Double.isNaN(v);
      // (v − center)/scale may overflow to ±∞; the clip brings it back to ±clip
      out[offset] = missing ? 0 : Math.max(-clip, Math.min(clip, (v - center) / scale));
      out[offset + 1] = missing ? 1 : 0;
    }

    @Override
    public String describe() {
      return name + " (column " + column + "): numeric, standardised with public statistics"
          + " (center " + center + ", scale " + scale + "), clipped to ±" + clip
          + ", missing indicator";
    }
  }

  /**
   * A numeric column with a user-given range: v clipped to [low, high] and mapped linearly onto
   * [−1, 1], then a missing indicator as for {@link Numeric}.
   *
   * @param name the column's name, not null
   * @param column the cell index ≥ 0
   * @param low the finite lower end of the range
   * @param high the upper end, with high − low &gt; 0 and finite
   */
  record Ranged(String name, int column, double low, double high) implements ColumnEncoder {

    public Ranged {
      Require.nonNull("name", name);
      Require.nonNegative("column", column);
      Require.finite("low", low);
      Require.finite("high", high);
      Require.that(high > low && Double.isFinite(high - low), "high",
          "must be > low " + low + " with a finite difference", high);
    }

    @Override
    public int dimension() {
      return 2;
    }

    @Override
    public void encode(String[] cells, double[] out, int offset) {
      double v = Cells.number(Cells.stripped(cells, column));
      boolean missing = Double.isNaN(v);
      double clipped = Math.max(low, Math.min(high, v));
      out[offset] = missing ? 0 : Math.max(-1, Math.min(1, 2 * ((clipped - low) / (high - low)) - 1));
      out[offset + 1] = missing ? 1 : 0;
    }

    @Override
    public String describe() {
      return name + " (column " + column + "): numeric, user range [" + low + ", " + high
          + "] mapped to [-1, 1], missing indicator";
    }
  }

  /**
   * A string column by feature hashing (Weinberger, Dasgupta, Langford, Smola and Attenberg 2009,
   * "Feature Hashing for Large Scale Multitask Learning"): the cell, stripped of white space and
   * put in Unicode normal form C, is keyed as {@code name + "=" + value}; its UTF-8 bytes are hashed
   * by 64-bit FNV-1a (offset basis 0xcbf29ce484222325, prime 0x100000001b3) followed by
   * MurmurHash3's fmix64 finaliser. The low 63 bits modulo {@code buckets} pick the bucket, the top
   * bit its sign (+1 if 0, −1 if 1). The hash is fixed and data-independent (not
   * {@link String#hashCode}), so the same value lands in the same bucket in every run and JVM. An
   * empty cell writes no bucket and sets the final missing indicator.
   *
   * @param name the column's name, not null (part of the hashed key)
   * @param column the cell index ≥ 0
   * @param buckets the number of hash buckets ≥ 1
   */
  record Hashed(String name, int column, int buckets) implements ColumnEncoder {

    public Hashed {
      Require.nonNull("name", name);
      Require.nonNegative("column", column);
      Require.positive("buckets", buckets);
    }

    @Override
    public int dimension() {
      return buckets + 1;
    }

    @Override
    public void encode(String[] cells, double[] out, int offset) {
      String value = Cells.stripped(cells, column);
      for (int b = 0; b <= buckets; b++) {
        out[offset + b] = 0;
      }
      if (value.isEmpty()) {
        out[offset + buckets] = 1;
        return;
      }
      long h = hash(name + "=" + Normalizer.normalize(value, Normalizer.Form.NFC));
      int bucket = (int) Long.remainderUnsigned(h & Long.MAX_VALUE, buckets);
      out[offset + bucket] = h < 0 ? -1 : 1;
    }

    @Override
    public String describe() {
      return name + " (column " + column + "): categorical, hashed into " + buckets
          + " buckets with ±1 signs (FNV-1a 64 + fmix64 of \"" + name
          + "=value\", NFC), missing indicator";
    }

    /** fmix64(FNV-1a 64(UTF-8 bytes of the key)). */
    static long hash(String key) {
      return fmix64(fnv1a64(key.getBytes(StandardCharsets.UTF_8)));
    }

    /** 64-bit FNV-1a (Fowler, Noll and Vo). */
    static long fnv1a64(byte[] bytes) {
      long h = 0xcbf29ce484222325L;
      for (byte b : bytes) {
        h ^= b & 0xff;
        h *= 0x100000001b3L;
      }
      return h;
    }

    /** MurmurHash3's 64-bit finaliser (Appleby), which spreads every input bit over the output. */
    static long fmix64(long h) {
      h ^= h >>> 33;
      h *= 0xff51afd7ed558ccdL;
      h ^= h >>> 33;
      h *= 0xc4ceb9fe1a85ec53L;
      h ^= h >>> 33;
      return h;
    }
  }
}
