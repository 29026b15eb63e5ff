package dev.tradeoff.accounting.pld;

import java.util.function.Supplier;

/**
 * A value computed on first use, once, by whichever thread asks first (the others wait for it).
 * The lower-bound composition of a direction that no question finds dominant is then never
 * computed.
 */
final class Lazily<T> implements Supplier<T> {

  private Supplier<T> compute;
  private T value;

  private Lazily(Supplier<T> compute) {
    this.compute = compute;
  }

  /** The value of {@code compute}, computed when first asked for. */
  static <T> Lazily<T> of(Supplier<T> compute) {
    return new Lazily<>(compute);
  }

  /** A value already computed. */
  static <T> Lazily<T> done(T value) {
    Lazily<T> lazily = new Lazily<>(null);
    lazily.value = value;
    return lazily;
  }

  @Override
  public synchronized T get() {
    if (compute != null) {
      value = compute.get();
      compute = null;
    }
    return value;
  }

  /** Whether the value has been computed. */
  synchronized boolean computed() {
    return compute == null;
  }
}
