package dev.tradeoff.audit;

import dev.tradeoff.accounting.internal.Require;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * A family of output events from which the auditor picks the ones that best separate M(D) from
 * M(D′). The family sees only the <em>selection</em> half of the samples; the events it proposes
 * are then certified on the independent other half, so choosing events by looking at data does not
 * bias the certified bound.
 *
 * <p>Built-in families: {@link #thresholds} ({o ≤ t} and {o ≥ t} on a grid of sample quantiles,
 * refined in both tails), {@link #histogram} (bins between sample quantiles), {@link #categories}
 * (each frequent output value on its own, e.g. a category, an integer, or an SVT answer pattern),
 * and {@link #of} (user-supplied events). Combine them with {@link #union}.
 *
 * @param <O> output type
 */
@FunctionalInterface
public interface EventFamily<O> {

  /**
   * Proposes candidate events with their counts on the two selection samples.
   *
   * @param first outputs drawn on D (selection half)
   * @param second outputs drawn on D′ (selection half)
   */
  List<CandidateEvent<O>> candidates(List<O> first, List<O> second);

  /** The events of all {@code families}, in order. */
  @SafeVarargs
  static <O> EventFamily<O> union(EventFamily<O>... families) {
    Require.nonNull("families", families);
    List<EventFamily<O>> all = new ArrayList<>(families.length);
    for (EventFamily<O> family : families) {
      all.add(Require.nonNull("family", family));
    }
    return (first, second) -> {
      List<CandidateEvent<O>> candidates = new ArrayList<>();
      for (EventFamily<O> family : all) {
        candidates.addAll(family.candidates(first, second));
      }
      return candidates;
    };
  }

  /** Fixed, user-supplied events, counted by one pass each. */
  static <O> EventFamily<O> of(List<OutputEvent<O>> events) {
    List<OutputEvent<O>> fixed = List.copyOf(Require.nonNull("events", events));
    Require.that(!fixed.isEmpty(), "events", "must not be empty", fixed);
    return (first, second) -> {
      List<CandidateEvent<O>> candidates = new ArrayList<>(fixed.size());
      for (OutputEvent<O> event : fixed) {
        candidates.add(new CandidateEvent<>(event, event.count(first), event.count(second)));
      }
      return candidates;
    };
  }

  /**
   * Threshold events {f(o) ≤ t} and {f(o) ≥ t} for a real-valued feature f, with t ranging over
   * {@code gridSize} evenly spaced quantiles of the pooled selection sample plus the tail quantiles
   * 10^-k and 1 − 10^-k (k = 2, 3, ...) while they still hold about ten pooled outputs: the tails
   * are where the privacy loss of Laplace- and Gaussian-type noise is largest.
   *
   * @param featureName name used in event descriptions, e.g. {@code "output"}
   * @param feature real-valued feature of an output; must not be NaN
   * @param gridSize number of evenly spaced quantiles, ≥ 1
   */
  static <O> EventFamily<O> thresholds(
      String featureName, ToDoubleFunction<? super O> feature, int gridSize) {
    Require.nonNull("featureName", featureName);
    Require.nonNull("feature", feature);
    Require.positive("gridSize", gridSize);
    return (first, second) -> {
      double[] a = sortedFeatures(feature, first);
      double[] b = sortedFeatures(feature, second);
      List<CandidateEvent<O>> candidates = new ArrayList<>();
      for (double t : quantileGrid(a, b, gridSize, true)) {
        candidates.add(
            new CandidateEvent<>(
                new OutputEvent<>(
                    featureName + " <= " + t, o -> feature.applyAsDouble(o) <= t),
                countAtMost(a, t),
                countAtMost(b, t)));
        candidates.add(
            new CandidateEvent<>(
                new OutputEvent<>(
                    featureName + " >= " + t, o -> feature.applyAsDouble(o) >= t),
                a.length - countBelow(a, t),
                b.length - countBelow(b, t)));
      }
      return candidates;
    };
  }

  /**
   * Histogram-bin events {t_i &lt; f(o) ≤ t_{i+1}} with edges at {@code bins − 1} evenly spaced
   * quantiles of the pooled selection sample (the outer bins are unbounded).
   *
   * @param featureName name used in event descriptions
   * @param feature real-valued feature of an output; must not be NaN
   * @param bins number of bins, ≥ 2
   */
  static <O> EventFamily<O> histogram(
      String featureName, ToDoubleFunction<? super O> feature, int bins) {
    Require.nonNull("featureName", featureName);
    Require.nonNull("feature", feature);
    Require.that(bins >= 2, "bins", "must be >= 2", bins);
    return (first, second) -> {
      double[] a = sortedFeatures(feature, first);
      double[] b = sortedFeatures(feature, second);
      List<Double> edges = new ArrayList<>();
      edges.add(Double.NEGATIVE_INFINITY);
      edges.addAll(quantileGrid(a, b, bins - 1, false));
      edges.add(Double.POSITIVE_INFINITY);
      List<CandidateEvent<O>> candidates = new ArrayList<>();
      for (int i = 0; i + 1 < edges.size(); i++) {
        double lo = edges.get(i);
        double hi = edges.get(i + 1);
        candidates.add(
            new CandidateEvent<>(
                new OutputEvent<>(
                    featureName + " in (" + lo + ", " + hi + "]",
                    o -> {
                      double f = feature.applyAsDouble(o);
                      return f > lo && f <= hi;
                    }),
                countAtMost(a, hi) - countAtMost(a, lo),
                countAtMost(b, hi) - countAtMost(b, lo)));
      }
      return candidates;
    };
  }

  /**
   * One event "output = v" for each of the {@code maxCategories} most frequent distinct outputs of
   * the pooled selection sample (ties broken by first appearance). Suits categorical and integer
   * outputs and SVT answer vectors (the event "the output is exactly this ⊥/⊤ pattern"); outputs
   * must implement {@code equals}/{@code hashCode} by value.
   *
   * @param maxCategories how many distinct values to propose, ≥ 1
   */
  static <O> EventFamily<O> categories(int maxCategories) {
    Require.positive("maxCategories", maxCategories);
    return (first, second) -> {
      Map<O, long[]> counts = new LinkedHashMap<>();
      for (O o : first) {
        counts.computeIfAbsent(Require.nonNull("output", o), k -> new long[2])[0]++;
      }
      for (O o : second) {
        counts.computeIfAbsent(Require.nonNull("output", o), k -> new long[2])[1]++;
      }
      return counts.entrySet().stream()
          .sorted(
              Comparator.comparingLong(
                  (Map.Entry<O, long[]> e) -> -(e.getValue()[0] + e.getValue()[1])))
          .limit(maxCategories)
          .map(
              e ->
                  new CandidateEvent<>(
                      OutputEvent.equalTo(e.getKey()), e.getValue()[0], e.getValue()[1]))
          .toList();
    };
  }

  /** Thresholds (32-point grid) and 16 histogram bins on a real-valued output. */
  static EventFamily<Double> forRealOutputs() {
    return union(thresholds("output", Double::doubleValue, 32), histogram("output", x -> x, 16));
  }

  /**
   * For integer outputs: every frequent value (up to 64) and thresholds (32-point grid) on the
   * value.
   */
  static <N extends Number> EventFamily<N> forIntegerOutputs() {
    return union(categories(64), thresholds("output", Number::doubleValue, 32));
  }

  private static <O> double[] sortedFeatures(ToDoubleFunction<? super O> feature, List<O> sample) {
    double[] values = new double[sample.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = feature.applyAsDouble(Require.nonNull("output", sample.get(i)));
      Require.that(!Double.isNaN(values[i]), "feature of output " + sample.get(i), "must not be NaN",
          values[i]);
    }
    Arrays.sort(values);
    return values;
  }

  /**
   * Distinct quantiles of the pooled sample at probabilities i/(size+1), i = 1..size, and, with
   * {@code tails}, 10^-k and 1 − 10^-k while the pooled sample holds at least ten points beyond.
   */
  private static List<Double> quantileGrid(double[] a, double[] b, int size, boolean tails) {
    double[] pooled = new double[a.length + b.length];
    System.arraycopy(a, 0, pooled, 0, a.length);
    System.arraycopy(b, 0, pooled, a.length, b.length);
    Arrays.sort(pooled);
    TreeSet<Double> grid = new TreeSet<>();
    if (pooled.length == 0) {
      return List.of();
    }
    for (int i = 1; i <= size; i++) {
      grid.add(quantile(pooled, (double) i / (size + 1)));
    }
    if (tails) {
      for (double q = 1e-2; q * pooled.length >= 10; q /= 10) {
        grid.add(quantile(pooled, q));
        grid.add(quantile(pooled, 1 - q));
      }
    }
    return new ArrayList<>(grid);
  }

  private static double quantile(double[] sorted, double probability) {
    int index = (int) Math.min(sorted.length - 1, Math.floor(probability * sorted.length));
    return sorted[index];
  }

  /** Number of entries ≤ t in a sorted array. */
  private static long countAtMost(double[] sorted, double t) {
    if (t == Double.POSITIVE_INFINITY) {
      return sorted.length;
    }
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] <= t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Number of entries < t in a sorted array. */
  private static long countBelow(double[] sorted, double t) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] < t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
