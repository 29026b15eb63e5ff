package dev.tradeoff.accounting.rdp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.SampledWithoutReplacementEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * DP-SGD with fixed-size batches drawn without replacement, under replace-one neighbouring,
 * against Google's dp_accounting (its RDP accountant on {@code SampledWithoutReplacementDpEvent} of
 * a Gaussian; version and commit in the resource {@code dp-accounting-without-replacement.csv},
 * written by {@code src/test/python/dp_accounting_without_replacement.py}).
 *
 * <p>The two implement different statements of Wang, Balle and Kasiviswanathan (2019): we the
 * general Theorem 9 (any inner mechanism, its RDP at integer orders and its pure-DP ε(∞)), it the
 * Gaussian-specific Theorem 27 of the arXiv version, which can replace the j-th term's
 * 2·e^{(j−1)ε(j)} by a bound from forward differences of the Gaussian's cumulant generating
 * function. On these cases the minimum it takes always picks the shared term (ε(∞) = ∞ for the
 * Gaussian), so the per-order values agree to the last digits; ours are then the larger by our
 * upward rounding margins only (at most 1e-9 relative), and so are the ε at δ after all steps (the
 * same improved conversion on its default order grid, which ours contains).
 */
class WithoutReplacementReferenceTest {

  private record Row(double sigma, int n, int m, int steps, double delta, int order,
      double stepRdp, double epsilon) {}

  private static List<Row> rows() throws IOException {
    List<Row> rows = new ArrayList<>();
    try (InputStream in = WithoutReplacementReferenceTest.class.getResourceAsStream(
            "dp-accounting-without-replacement.csv");
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.startsWith("#") || line.startsWith("sigma")) {
          continue;
        }
        String[] f = line.split(",");
        rows.add(new Row(Double.parseDouble(f[0]), Integer.parseInt(f[1]), Integer.parseInt(f[2]),
            Integer.parseInt(f[3]), Double.parseDouble(f[4]), Integer.parseInt(f[5]),
            Double.parseDouble(f[6]), Double.parseDouble(f[7])));
      }
    }
    return rows;
  }

  @Test
  void oneStepRdpAndTheEpsilonAfterAllStepsAgreeWithDpAccounting() throws IOException {
    List<Row> rows = rows();
    assertThat(rows).hasSize(44);
    for (Row r : rows) {
      DpEvent step = new SampledWithoutReplacementEvent(r.n(), r.m(), new GaussianEvent(r.sigma()));
      RenyiDp ours = new RdpAccountant(new double[] {r.order()})
          .rdp(step, Neighbouring.REPLACE_ONE);
      assertThat(ours.epsilon(0)).as("%s", r)
          .isGreaterThanOrEqualTo(r.stepRdp() * (1 - 1e-12))
          .isLessThanOrEqualTo(r.stepRdp() * (1 + 1e-9));
      double epsilon = new RdpAccountant()
          .account(new SelfComposedEvent(step, r.steps()), Neighbouring.REPLACE_ONE)
          .epsilon(r.delta());
      assertThat(epsilon).as("%s", r)
          .isGreaterThanOrEqualTo(r.epsilon() * (1 - 1e-12))
          .isLessThanOrEqualTo(r.epsilon() * (1 + 1e-9));
    }
  }
}
