package dev.tradeoff.accounting.internal;

/**
 * The one precondition helper of Tradeoff. Every public constructor and factory validates its
 * inputs with it, so every rejection reads the same way: the parameter's name, the allowed range and
 * the value received, e.g. {@code "epsilon must be > 0 and finite, but was -1.0"}.
 *
 * <p>All checks throw {@link IllegalArgumentException}; the CLI turns that message into its one
 * line on standard error.
 */
public final class Require {

  private Require() {}

  /** Rejects NaN and infinities. */
  public static double finite(String name, double value) {
    if (!Double.isFinite(value)) {
      throw fail(name, "must be finite", value);
    }
    return value;
  }

  /** Requires {@code 0 < value < ∞}. */
  public static double positive(String name, double value) {
    if (!(value > 0) || Double.isInfinite(value)) {
      throw fail(name, "must be > 0 and finite", value);
    }
    return value;
  }

  /** Requires {@code 0 ≤ value < ∞}. */
  public static double nonNegative(String name, double value) {
    if (!(value >= 0) || Double.isInfinite(value)) {
      throw fail(name, "must be >= 0 and finite", value);
    }
    return value;
  }

  /** Requires {@code 0 ≤ value < 1}: the range of a privacy δ. */
  public static double delta(String name, double value) {
    if (!(value >= 0 && value < 1)) {
      throw fail(name, "must be in [0, 1)", value);
    }
    return value;
  }

  /** Requires {@code 0 < value < 1}. */
  public static double openUnit(String name, double value) {
    if (!(value > 0 && value < 1)) {
      throw fail(name, "must be in (0, 1)", value);
    }
    return value;
  }

  /** Requires {@code 0 ≤ value ≤ 1}: a probability. */
  public static double probability(String name, double value) {
    if (!(value >= 0 && value <= 1)) {
      throw fail(name, "must be in [0, 1]", value);
    }
    return value;
  }

  /** Requires {@code value > 1} and finite: the range of a Rényi order α. */
  public static double renyiOrder(String name, double value) {
    if (!(value > 1) || Double.isInfinite(value)) {
      throw fail(name, "must be > 1 and finite", value);
    }
    return value;
  }

  /** Requires {@code lower ≤ value ≤ upper}. */
  public static double inClosedRange(String name, double value, double lower, double upper) {
    if (!(value >= lower && value <= upper)) {
      throw fail(name, "must be in [" + lower + ", " + upper + "]", value);
    }
    return value;
  }

  /** Requires {@code value > bound} and finite. */
  public static double greaterThan(String name, double value, double bound) {
    if (!(value > bound) || Double.isInfinite(value)) {
      throw fail(name, "must be > " + bound + " and finite", value);
    }
    return value;
  }

  /** Requires an integer {@code value ≥ 1}. */
  public static int positive(String name, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be >= 1, but was " + value);
    }
    return value;
  }

  /** Requires an integer {@code value ≥ 1}. */
  public static long positive(String name, long value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be >= 1, but was " + value);
    }
    return value;
  }

  /** Requires an integer {@code value ≥ 0}. */
  public static int nonNegative(String name, int value) {
    if (value < 0) {
      throw new IllegalArgumentException(name + " must be >= 0, but was " + value);
    }
    return value;
  }

  /** Requires an integer {@code lower ≤ value ≤ upper}. */
  public static int inClosedRange(String name, int value, int lower, int upper) {
    if (value < lower || value > upper) {
      throw new IllegalArgumentException(
          name + " must be in [" + lower + ", " + upper + "], but was " + value);
    }
    return value;
  }

  /** Requires a non-null reference. */
  public static <T> T nonNull(String name, T value) {
    if (value == null) {
      throw new IllegalArgumentException(name + " must not be null");
    }
    return value;
  }

  /** Requires a non-empty array of finite values and returns a defensive copy. */
  public static double[] finiteValues(String name, double[] values) {
    nonNull(name, values);
    if (values.length == 0) {
      throw new IllegalArgumentException(name + " must not be empty");
    }
    for (int i = 0; i < values.length; i++) {
      if (!Double.isFinite(values[i])) {
        finite(name + "[" + i + "]", values[i]); // the element's name is built only to fail
      }
    }
    return values.clone();
  }

  /** Fails with the standard message unless {@code condition} holds. */
  public static void that(boolean condition, String name, String requirement, Object value) {
    if (!condition) {
      throw new IllegalArgumentException(name + " " + requirement + ", but was " + value);
    }
  }

  private static IllegalArgumentException fail(String name, String requirement, double value) {
    return new IllegalArgumentException(name + " " + requirement + ", but was " + value);
  }
}
