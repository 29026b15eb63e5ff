package dev.tradeoff.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.Charge;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The advanced-composition filter for opaque (ε, δ) charges (Whitehouse, Ramdas, Rogers and Wu
 * 2023, Theorem 2), checked against a direct evaluation of its condition √(2 log(1/δ′) Σ ε_i²) +
 * ½ Σ ε_i² ≤ ε and Σ δ_i ≤ δ″ (δ′ = δ″ = δ/2) on each prefix, in plain double arithmetic with a
 * relative margin of 1e-12 (the ledger rounds its bound down, so it may refuse a charge that sits
 * within that margin of the boundary; the sequences here stay clear of it).
 */
class LedgerAdvancedFilterTest {

  private static final ApproxDp BUDGET = new ApproxDp(8, 1e-5);

  @TempDir Path dir;

  /** Whether the prefix with these (ε, δ)'s satisfies the filter's condition. */
  static boolean condition(List<ApproxDp> charges, ApproxDp budget) {
    double deltaPrime = budget.delta() / 2;
    double squares = 0;
    double deltas = 0;
    for (ApproxDp c : charges) {
      squares += c.epsilon() * c.epsilon();
      deltas += c.delta();
    }
    double epsilon = Math.sqrt(2 * Math.log(1 / deltaPrime) * squares) + squares / 2;
    return epsilon <= budget.epsilon() * (1 - 1e-12) && deltas <= budget.delta() / 2;
  }

  /** How many of {@code sequence}, charged one by one, the direct condition admits (it stops at the first refusal). */
  static int expected(List<ApproxDp> sequence, ApproxDp budget) {
    List<ApproxDp> prefix = new ArrayList<>();
    for (ApproxDp c : sequence) {
      prefix.add(c);
      if (!condition(prefix, budget)) {
        return prefix.size() - 1;
      }
    }
    return sequence.size();
  }

  private int admitted(String name, String policy, List<ApproxDp> sequence) {
    try (SqliteLedger ledger = SqliteLedger.create(dir.resolve(name + ".db"), BUDGET,
        LedgerPolicy.parse(policy, null, 1e-7))) {
      int n = 0;
      for (ApproxDp c : sequence) {
        try {
          ledger.charge("opaque " + n, Charge.opaque(c));
        } catch (BudgetExceededException e) {
          break;
        }
        n++;
      }
      return n;
    }
  }

  @Test
  void opaqueReleasesOfOneTenthFitTwoHundredTimesUnderAdvancedAndSeventyNineUnderBasic() {
    List<ApproxDp> sequence = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      sequence.add(new ApproxDp(0.1, 1e-8));
    }
    int advanced = admitted("adv", "advanced", sequence);
    int basic = admitted("basic", "basic", sequence);
    int both = admitted("both", "advanced:0.5,basic:0.5", sequence);
    int advancedHalf = expected(sequence, new ApproxDp(4, 5e-6));
    System.out.printf("opaque (0.1, 1e-8) releases under (8, 1e-5): advanced %d (direct %d),"
        + " basic %d; advanced:0.5,basic:0.5 %d%n", advanced, expected(sequence, BUDGET), basic,
        both);
    assertThat(advanced).isEqualTo(expected(sequence, BUDGET));
    // 79, not 80: the double nearest 0.1 is 0.1000000000000000055..., and the ledger sums exactly
    assertThat(basic).isEqualTo(79);
    assertThat(advanced).isGreaterThan(2 * basic);
    // the mixed policy fills advanced's half first, then basic's half (4, 5e-6): 39 more
    assertThat(both).isEqualTo(advancedHalf + 39);
  }

  @Test
  void seededSequencesOfMixedChargesAreAdmittedExactlyAsTheConditionSays() {
    for (long seed = 0; seed < 30; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      List<ApproxDp> sequence = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        double epsilon = random.nextDouble() < 0.1 ? 0.5 + random.nextDouble()
            : 0.02 + 0.2 * random.nextDouble();
        double delta = random.nextDouble() < 0.5 ? 0 : 1e-8 * random.nextDouble();
        sequence.add(new ApproxDp(epsilon, delta));
      }
      assertThat(admitted("s" + seed, "advanced", sequence))
          .as("seed %d", seed).isEqualTo(expected(sequence, BUDGET));
    }
  }

  @Test
  void theDeltaHalfCapsTheCountWhenTheChargesCarryLargeDeltas() {
    List<ApproxDp> sequence = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      sequence.add(new ApproxDp(0.01, 1e-6));
    }
    // Σ δ_i ≤ δ″ = 5e-6 allows 5 (ε would allow thousands)
    assertThat(admitted("d", "advanced", sequence)).isEqualTo(5);
  }

  @Test
  void fewLargeChargesAreBetterUnderBasicAndTheMixedPolicyFallsBackToIt() {
    List<ApproxDp> sequence = List.of(new ApproxDp(3, 0), new ApproxDp(3, 0), new ApproxDp(1.5, 0));
    assertThat(admitted("few-basic", "basic", sequence)).isEqualTo(3);
    assertThat(admitted("few-adv", "advanced", sequence)).isEqualTo(expected(sequence, BUDGET));
    assertThat(expected(sequence, BUDGET)).isLessThan(3);
    try (SqliteLedger ledger = SqliteLedger.create(dir.resolve("mix.db"), BUDGET,
        LedgerPolicy.parse("advanced:0.5,basic:0.5", null, 1e-7))) {
      ledger.charge("big", Charge.opaque(new ApproxDp(3.5, 0)));
      assertThat(ledger.history().get(0).description().filter()).isEqualTo(FilterKind.BASIC);
      ledger.charge("small", Charge.opaque(new ApproxDp(0.1, 0)));
      assertThat(ledger.history().get(1).description().filter()).isEqualTo(FilterKind.ADVANCED);
    }
  }

  @Test
  void theBoundOnTheSumOfSquaresSatisfiesTheConditionAndIsTight() {
    for (double epsilon : new double[] {0.1, 1, 8, 50}) {
      for (double delta : new double[] {1e-12, 1e-6, 1e-2}) {
        double v = Filters.advancedLimit(epsilon, delta);
        double l = Math.log(1 / delta);
        assertThat(Math.sqrt(2 * l * v) + v / 2).isLessThanOrEqualTo(epsilon);
        double over = v * (1 + 1e-9);
        assertThat(Math.sqrt(2 * l * over) + over / 2).isGreaterThan(epsilon);
      }
    }
  }
}
