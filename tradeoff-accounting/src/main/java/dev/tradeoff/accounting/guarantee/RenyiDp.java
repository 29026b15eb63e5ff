package dev.tradeoff.accounting.guarantee;

import dev.tradeoff.accounting.internal.Require;
import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

/**
 * Rényi differential privacy (Mironov 2017; [ExPost25, Definition 4]): D_α(M(D) ‖ M(D′)) ≤ ε(α)
 * for each order α on a grid. A single-order guarantee is a grid of one order.
 *
 * <p>ε(α) may be {@code +∞} at orders where nothing is guaranteed. Between grid orders,
 * {@link #epsilonAt(double)} answers with the next larger grid order's ε, which is a valid bound
 * because Rényi divergence is non-decreasing in α (rounding in the safe direction).
 */
public final class RenyiDp implements PrivacyGuarantee {

  /**
   * The default order grid: fine near 1 (where conversions to (ε, δ) with large ε pick their order)
   * and geometric up to 1024 (small ε, tiny δ).
   */
  private static final double[] DEFAULT_ORDERS = buildDefaultOrders();

  private final double[] orders;
  private final double[] epsilons;

  private RenyiDp(double[] orders, double[] epsilons) {
    this.orders = orders;
    this.epsilons = epsilons;
  }

  /**
   * A guarantee on a grid of orders.
   *
   * @param orders strictly increasing orders, each &gt; 1 and finite
   * @param epsilons ε(α) ≥ 0 at each order ({@code +∞} allowed: no bound at that order)
   */
  public static RenyiDp of(double[] orders, double[] epsilons) {
    Require.nonNull("orders", orders);
    Require.nonNull("epsilons", epsilons);
    if (orders.length == 0) {
      throw new IllegalArgumentException("orders must not be empty");
    }
    if (orders.length != epsilons.length) {
      throw new IllegalArgumentException(
          "epsilons must have one value per order ("
              + orders.length
              + "), but had "
              + epsilons.length);
    }
    double[] a = orders.clone();
    double[] e = epsilons.clone();
    for (int i = 0; i < a.length; i++) {
      Require.renyiOrder("orders[" + i + "]", a[i]);
      if (i > 0 && !(a[i] > a[i - 1])) {
        throw new IllegalArgumentException(
            "orders must be strictly increasing, but orders[" + i + "] was " + a[i]);
      }
      if (!(e[i] >= 0)) {
        throw new IllegalArgumentException(
            "epsilons[" + i + "] must be >= 0 (or +Infinity), but was " + e[i]);
      }
    }
    return new RenyiDp(a, e);
  }

  /** A single-order guarantee (α, ε). */
  public static RenyiDp ofOrder(double alpha, double epsilon) {
    return of(new double[] {alpha}, new double[] {epsilon});
  }

  /** Evaluates an RDP curve ε(α) on the given orders. */
  public static RenyiDp ofCurve(double[] orders, DoubleUnaryOperator epsilonOfOrder) {
    Require.nonNull("orders", orders);
    double[] e = new double[orders.length];
    for (int i = 0; i < orders.length; i++) {
      Require.renyiOrder("orders[" + i + "]", orders[i]);
      e[i] = epsilonOfOrder.applyAsDouble(orders[i]);
    }
    return of(orders, e);
  }

  /** A copy of the default order grid. */
  public static double[] defaultOrders() {
    return DEFAULT_ORDERS.clone();
  }

  /** The orders of this guarantee, increasing (a copy). */
  public double[] orders() {
    return orders.clone();
  }

  /** ε at each order (a copy). */
  public double[] epsilons() {
    return epsilons.clone();
  }

  /** Number of grid orders. */
  public int size() {
    return orders.length;
  }

  /** The i-th order. */
  public double order(int i) {
    return orders[i];
  }

  /** ε at the i-th order. */
  public double epsilon(int i) {
    return epsilons[i];
  }

  /**
   * A valid bound on D_α at any order α &gt; 1: ε at the smallest grid order ≥ α, or {@code +∞}
   * when α exceeds the grid.
   */
  public double epsilonAt(double alpha) {
    Require.renyiOrder("alpha", alpha);
    int i = Arrays.binarySearch(orders, alpha);
    if (i >= 0) {
      return epsilons[i];
    }
    int insertion = -i - 1;
    return insertion < orders.length ? epsilons[insertion] : Double.POSITIVE_INFINITY;
  }

  /**
   * Composition (Mironov 2017, Proposition 1): ε adds order by order. The result lives on the
   * orders both guarantees share; with none in common, composition is refused.
   */
  public RenyiDp compose(RenyiDp other) {
    Require.nonNull("other", other);
    double[] a = new double[Math.min(orders.length, other.orders.length)];
    double[] e = new double[a.length];
    int n = 0;
    int i = 0;
    int j = 0;
    while (i < orders.length && j < other.orders.length) {
      if (orders[i] == other.orders[j]) {
        a[n] = orders[i];
        e[n] = epsilons[i] + other.epsilons[j];
        n++;
        i++;
        j++;
      } else if (orders[i] < other.orders[j]) {
        i++;
      } else {
        j++;
      }
    }
    if (n == 0) {
      throw new IllegalArgumentException(
          "cannot compose Rényi guarantees with no order in common: "
              + Arrays.toString(orders)
              + " and "
              + Arrays.toString(other.orders));
    }
    return new RenyiDp(Arrays.copyOf(a, n), Arrays.copyOf(e, n));
  }

  /** k-fold self-composition: ε(α) multiplied by k. */
  public RenyiDp times(int k) {
    Require.positive("count", k);
    double[] e = new double[epsilons.length];
    for (int i = 0; i < e.length; i++) {
      e[i] = epsilons[i] * k;
    }
    return new RenyiDp(orders.clone(), e);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RenyiDp r
        && Arrays.equals(orders, r.orders)
        && Arrays.equals(epsilons, r.epsilons);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(orders) + Arrays.hashCode(epsilons);
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("RenyiDp[");
    for (int i = 0; i < orders.length; i++) {
      if (i > 0) {
        s.append(", ");
      }
      s.append("α=").append(orders[i]).append(": ε=").append(epsilons[i]);
    }
    return s.append(']').toString();
  }

  private static double[] buildDefaultOrders() {
    double[] grid = new double[200];
    int n = 0;
    for (double a = 1.05; a < 2; a += 0.05) {
      grid[n++] = Math.round(a * 100) / 100.0;
    }
    for (double a = 2; a < 10; a += 0.25) {
      grid[n++] = a;
    }
    for (int a = 10; a <= 64; a++) {
      grid[n++] = a;
    }
    for (double a = 80; a <= 4096; a *= 1.25) {
      grid[n++] = Math.rint(a);
    }
    return Arrays.copyOf(grid, n);
  }
}
