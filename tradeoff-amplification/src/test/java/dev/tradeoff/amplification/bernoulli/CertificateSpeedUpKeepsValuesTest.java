package dev.tradeoff.amplification.bernoulli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The certificate's search reuses what a box shares with its parent and neighbours (corners,
 * interval values) and stops trying bounds on a box once one is at or below max(1, largest closed
 * bound), which provably changes neither a box's closing, nor a split decision, nor the returned
 * bound (see {@code LagrangianCertificate.Goal}). So every value must be the one the search gave
 * before it was made faster, bit for bit: converged points (whose upper end is the largest closed
 * bound), and points stopped by a small node budget (whose upper end is the largest open bound,
 * which depends on the order of the whole search).
 */
class CertificateSpeedUpKeepsValuesTest {

  /**
   * {post, lower bound, upper bound, certified, gap} as {@link Double#doubleToLongBits} in hex, for
   * the points of {@link #point(Random)} drawn from {@code new Random(2025)} in order, computed by
   * {@code amplify(ε, new SearchBudget(1e-6, budget))} with the code before the speed-up (commit
   * 5146c51); the comment gives α, c, dk, ε, budget.
   */
  private static final String[][] BEFORE = {
      // alpha 20, c 0.01, dk 2, epsilon 8.8, budget 600000
      {"40209061ae7dd7be", "40209061ae7dd7be", "40209061ca98ac23", "true", "3eac1ad465000000"},
      // alpha 20, c 0.3, dk 5, epsilon 8.35, budget 300
      {"4010816f35236629", "4010816f35236629", "4010816f707a450d", "true", "3eadab6f72000000"},
      // alpha 20, c 0.1, dk 11, epsilon 3, budget 600000
      {"4007fef60de4cc66", "4007fef60de4cc66", "4007fef686abfdf5", "true", "3eae31cc63c00000"},
      // alpha 20, c 0.05, dk 12, epsilon 6, budget 3000
      {"4017fffbce79e286", "4017fffbce79e286", "4017fffc0348a08f", "true", "3eaa675f04800000"},
      // alpha 20, c 0.3, dk 8, epsilon 10, budget 3000
      {"401a5b39704697e7", "401a5b39704697e7", "401a5b39a90e93a3", "true", "3eac63fdde000000"},
      // alpha 5, c 0.05, dk 1, epsilon 4.25, budget 300
      {"4005850631135931", "4005850631135931", "40058506930b5f59", "true", "3ea87e018a000000"},
      // alpha 20, c 0.01, dk 11, epsilon 5.45, budget 3000
      {"4015cccccc9843a4", "4015cccccc9843a4", "4015cccccccccccd", "true", "3e2a449480000000"},
      // alpha 5, c 0.05, dk 9, epsilon 4.7, budget 3000
      {"4012cc82aef1f0f8", "4012cc82aef1f0f8", "4012cc82eb563c58", "true", "3eae3225b0000000"},
      // alpha 5, c 0.1, dk 9, epsilon 6.35, budget 3000
      {"401957d6d8f5c592", "401957d6d8f5c592", "401957d7154ec1b1", "true", "3eae2c7e0f800000"},
      // alpha 20, c 0.1, dk 7, epsilon 1.3, budget 300
      {"3ff4c4c1149e841e", "3ff4c4c1149e841e", "3ff4cccccccccccd", "false", "3f6017705c915e00"},
      // alpha 50, c 0.3, dk 8, epsilon 5.25, budget 300
      {"4013fb59a6f10ea0", "4013fb59a6f10ea0", "4013fbce0ef27d43", "false", "3f3d1a005ba8c000"},
      // alpha 5, c 0.01, dk 2, epsilon 4.6, budget 600000
      {"401256e36153f2b7", "401256e36153f2b7", "401256e39d944794", "true", "3eae202a6e800000"},
      // alpha 50, c 0.1, dk 8, epsilon 2.15, budget 3000
      {"4001312d0749cb6e", "4001312d0749cb6e", "4001312d7ff967bf", "true", "3eae2be714400000"},
      // alpha 20, c 0.1, dk 7, epsilon 0.7, budget 300
      {"3fe65983b887984d", "3fe65983b887984d", "3fe6666666666667", "false", "3f59c55bbd9c3400"},
      // alpha 50, c 0.1, dk 3, epsilon 7.65, budget 300
      {"4019263489ef6195", "4019263489ef6195", "40192634a97cf7ed", "true", "3e9f8d9658000000"},
      // alpha 5, c 0.05, dk 9, epsilon 9.9, budget 300
      {"4023cb7846a4771b", "4023cb7846a4771b", "4023cccccccccccd", "false", "3f654862855b2000"},
      // alpha 5, c 0.3, dk 2, epsilon 7.55, budget 300
      {"3ff837d892047b7b", "3ff837d892047b7b", "3ff837d983615d81", "true", "3eae2b9c40c00000"},
      // alpha 20, c 0.05, dk 12, epsilon 1.9, budget 300
      {"3ffe6662e7fed743", "3ffe6662e7fed743", "3ffe666666666667", "false", "3ecbf33c79200000"},
      // alpha 5, c 0.1, dk 9, epsilon 2.65, budget 600000
      {"40052d305be7f938", "40052d305be7f938", "40052d30d4b082e7", "true", "3eae32226bc00000"},
      // alpha 20, c 0.1, dk 1, epsilon 3.6, budget 3000
      {"3fff94ed8f7f991a", "3fff94ed8f7f991a", "3fff94edba7a5dc2", "true", "3e857d6254000000"},
      // alpha 5, c 0.1, dk 7, epsilon 9.9, budget 600000
      {"4023888866e40362", "4023888866e40362", "4023888884cacd0d", "true", "3eade6c9ab000000"},
      // alpha 50, c 0.01, dk 1, epsilon 1.4, budget 3000
      {"3ff5cac10d8c4e35", "3ff5cac10d8c4e35", "3ff5cac1fcb5574b", "true", "3eade52122c00000"},
      // alpha 50, c 0.1, dk 10, epsilon 8.2, budget 300
      {"402064fb6bebe9a7", "402064fb6bebe9a7", "4020666666666667", "false", "3f66afa7a7cc0000"},
      // alpha 20, c 0.3, dk 2, epsilon 3.75, budget 600000
      {"3ff8a3e88ecb52c1", "3ff8a3e88ecb52c1", "3ff8a3e963053737", "true", "3eaa873c8ec00000"},
  };

  /** α, c, dk, ε and the node budget of one seeded point. */
  private static double[] point(Random random) {
    double[] alphas = {5, 20, 50};
    double[] cs = {0.01, 0.05, 0.1, 0.3};
    long[] budgets = {300, 3_000, 600_000};
    double alpha = alphas[random.nextInt(alphas.length)];
    double c = cs[random.nextInt(cs.length)];
    int dk = 1 + random.nextInt(12);
    double epsilon = 0.05 * (1 + random.nextInt(200));
    long budget = budgets[random.nextInt(budgets.length)];
    return new double[] {alpha, c, dk, epsilon, budget};
  }

  @Test
  void everyValueIsBitForBitTheOneBeforeTheSpeedUp() {
    Random random = new Random(2025);
    for (String[] before : BEFORE) {
      double[] p = point(random);
      Amplification now =
          new BernoulliSampling(p[0], p[1], (int) p[2], 1)
              .amplify(p[3], new SearchBudget(1e-6, (long) p[4]));
      String at = "alpha=" + p[0] + " c=" + p[1] + " dk=" + (int) p[2] + " eps=" + p[3]
          + " budget=" + (long) p[4];
      assertThat(hex(now.post())).as(at + " post").isEqualTo(before[0]);
      assertThat(hex(now.lowerBound())).as(at + " lower bound").isEqualTo(before[1]);
      assertThat(hex(now.upperBound())).as(at + " upper bound").isEqualTo(before[2]);
      assertThat(now.certified()).as(at + " certified").isEqualTo(Boolean.parseBoolean(before[3]));
      assertThat(hex(now.gap())).as(at + " gap").isEqualTo(before[4]);
    }
  }

  private static String hex(double value) {
    return Long.toHexString(Double.doubleToLongBits(value));
  }
}
