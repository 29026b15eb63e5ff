package dev.tradeoff.accounting.pld;

import static dev.tradeoff.accounting.guarantee.Neighbouring.ADD_OR_REMOVE_ONE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.EpsilonBounds;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A Poisson-sampled composition has two directions (remove, add); a question composes the bounds
 * of the direction whose coarse screen is largest, and the other direction's only if its screen
 * says it might be larger. Nothing is lost by that: the upper end equals the largest of the
 * directions' upper bounds and the lower end the largest of their lower bounds, each computed in
 * full here.
 */
class DominantDirectionTest {

  @Test
  void theEndsAreTheLargestOfTheDirectionsBounds() {
    for (double delta : new double[] {1e-5, 1e-12}) {
      for (double sigma : new double[] {0.8, 1.1, 2.0}) {
        PldProfile profile = new PldAccountant().account(
            new SelfComposedEvent(new PoissonSampledEvent(0.01, new GaussianEvent(sigma)), 500),
            ADD_OR_REMOVE_ONE);
        EpsilonBounds bounds = profile.epsilonBounds(delta);
        List<PrivacyLossDistribution> upper = profile.distributions();
        assertThat(upper).hasSize(2);
        assertThat(bounds.upper()).as("σ = %s, δ = %s: %s", sigma, delta, bounds)
            .isEqualTo(Math.max(upper.get(0).epsilon(delta), upper.get(1).epsilon(delta)));
        List<PrivacyLossDistribution> lower = profile.optimisticDistributions();
        assertThat(lower).hasSize(2);
        double largest = Math.max(lower.get(0).epsilon(delta), lower.get(1).epsilon(delta));
        assertThat(bounds.lower()).as("σ = %s, δ = %s: %s", sigma, delta, bounds)
            .isEqualTo(largest);
        assertThat(bounds.gap()).as("σ = %s, δ = %s: %s", sigma, delta, bounds)
            .isLessThan(1e-3 * bounds.upper());
      }
    }
  }
}
