package dev.tradeoff.amplification.bernoulli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The split rule of the certificate's branch and bound changes how fast it closes, never what it
 * certifies: on a sample of {@code reproduce bernoulli} points (gap 1e-6, 600 000 boxes, as the
 * reproduction runs them), including α = 50, c = 0.1, dk = 20, ε = 30, which took 45 CPU-s before,
 * the released value and the lower bound are those computed before the change (lowered only by
 * the 1e-12·max(1, |value|) by which the lower end is now rounded down, as its Javadoc promises;
 * never above), the point is certified as before, and the new upper end lies within the same
 * certified gap.
 */
class CertificateSplitTest {

  /**
   * {α, c, dk, ε, post, lower bound, upper bound, certified} computed with the wider-side split
   * rule (the code before this change) by {@code amplify(ε, new SearchBudget(1e-6, 600_000))}.
   */
  private static final double[][] BEFORE = {
      {50.0, 0.1, 20, 30.0, 29.989776476119726, 29.989776476119726, 29.989777376088565, 1},
      {50.0, 0.1, 1, 1.0, 0.7730714246441412, 0.7730714246441412, 0.7730722061784964, 1},
      {5.0, 0.1, 1, 0.5, 0.3636734943486027, 0.3636734943486027, 0.3636743677223547, 1},
      {50.0, 0.01, 3, 2.0, 1.9993964636823562, 1.9993964636823562, 1.999397361266634, 1},
      {5.0, 0.3, 2, 10.0, 1.51625424254966, 1.51625424254966, 1.5162551362223102, 1},
      {50.0, 0.3, 5, 1.0, 0.9302588902569761, 0.9302588902569761, 0.9302596953643381, 1},
      {5.0, 0.01, 15, 0.3, 0.2999999999994615, 0.2999999999994615, 0.3, 1},
      {50.0, 0.1, 15, 5.0, 4.999927852624545, 4.999927852624545, 4.999928744367088, 1},
      {5.0, 0.1, 5, 3.0, 2.969265398714636, 2.969265398714636, 2.9692662483591468, 1},
      {50.0, 0.3, 1, 30.0, 0.8400187798984787, 0.8400187798984787, 0.8400187798986584, 1},
      {5.0, 0.3, 3, 0.1, 0.04059059648600457, 0.04059059648600457, 0.04059148329660821, 1},
      {50.0, 0.01, 5, 20.0, 19.949216328591536, 19.949216328591536, 19.949217228429955, 1},
      {50.0, 0.1, 4, 10.0, 8.519573102294896, 8.519573102294896, 8.51957398747332, 1},
      {5.0, 0.1, 12, 1.0, 0.9997504953770028, 0.9997504953770028, 0.9997513939621402, 1},
      {50.0, 0.1, 9, 0.6, 0.5997497505465882, 0.5997497505465882, 0.5997506487589402, 1},
      {5.0, 0.01, 2, 30.0, 9.185214531425263, 9.185214531425263, 9.18521453234243, 1},
      {50.0, 0.3, 15, 3.0, 2.9709902772377683, 2.9709902772377683, 2.9709911593927454, 1},
      {5.0, 0.1, 20, 30.0, 29.91486966548039, 29.91486966548039, 29.914870565392523, 1}
  };

  private static final double GAP = 1e-6;

  /** The old value less twice the rounding the lower end now gets (room for one more ulp). */
  private static double roundedDown(double old) {
    return old - 2e-12 * Math.max(1, Math.abs(old));
  }

  @Test
  void valuesAreThoseCertifiedBeforeTheSplitRuleChanged() {
    for (double[] row : BEFORE) {
      BernoulliSampling setting = new BernoulliSampling(row[0], row[1], (int) row[2], 1);
      Amplification now = setting.amplify(row[3], new SearchBudget(GAP, 600_000));
      String point = "alpha=" + row[0] + " c=" + row[1] + " dk=" + (int) row[2] + " eps=" + row[3];
      assertThat(now.post()).as(point).isBetween(roundedDown(row[4]), row[4]);
      assertThat(now.lowerBound()).as(point).isBetween(roundedDown(row[5]), row[5]);
      assertThat(now.certified()).as(point).isEqualTo(row[7] == 1);
      assertThat(now.upperBound()).as(point).isBetween(now.post(), now.post() + GAP);
      assertThat(now.upperBound()).as(point).isBetween(row[6] - GAP, row[6] + GAP);
    }
  }
}
