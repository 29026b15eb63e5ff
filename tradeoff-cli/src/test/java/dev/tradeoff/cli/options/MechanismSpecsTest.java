package dev.tradeoff.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.event.DiscreteGaussianEvent;
import dev.tradeoff.accounting.event.DiscreteLaplaceEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.RandomizedResponseEvent;
import dev.tradeoff.accounting.event.SampledWithoutReplacementEvent;
import dev.tradeoff.accounting.event.ShuffledEpochsEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.ZeroConcentratedDp;
import org.junit.jupiter.api.Test;

class MechanismSpecsTest {

  @Test
  void parsesEveryDocumentedSpec() {
    assertThat(MechanismSpecs.parse("pure:epsilon=0.1")).isEqualTo(new GuaranteeEvent(new PureDp(0.1)));
    assertThat(MechanismSpecs.parse("approx:epsilon=0.2676,delta=0.0003"))
        .isEqualTo(new GuaranteeEvent(new ApproxDp(0.2676, 0.0003)));
    assertThat(MechanismSpecs.parse("gaussian:sigma=1.0")).isEqualTo(new GaussianEvent(1.0));
    assertThat(MechanismSpecs.parse("subsampled-gaussian:sigma=1.0,q=0.01"))
        .isEqualTo(new PoissonSampledEvent(0.01, new GaussianEvent(1.0)));
    assertThat(MechanismSpecs.parse("randomized-response:epsilon=1"))
        .isEqualTo(RandomizedResponseEvent.binary(1));
    assertThat(MechanismSpecs.parse("randomized-response:epsilon=1,k=4"))
        .isEqualTo(new RandomizedResponseEvent(1, 4));
    assertThat(MechanismSpecs.parse("laplace:scale=2")).isEqualTo(new LaplaceEvent(2));
    assertThat(MechanismSpecs.parse("discrete-laplace:scale=2"))
        .isEqualTo(new DiscreteLaplaceEvent(2));
    assertThat(MechanismSpecs.parse("discrete-gaussian:sigma=3"))
        .isEqualTo(new DiscreteGaussianEvent(3));
    assertThat(MechanismSpecs.parse("gdp:mu=1")).isEqualTo(new GuaranteeEvent(new GaussianDp(1)));
    assertThat(MechanismSpecs.parse("zcdp:rho=0.5"))
        .isEqualTo(new GuaranteeEvent(new ZeroConcentratedDp(0.5)));
    assertThat(MechanismSpecs.parse("batch-gaussian:sigma=1.1,n=60000,batch=256"))
        .isEqualTo(new SampledWithoutReplacementEvent(60000, 256, new GaussianEvent(1.1)));
    assertThat(MechanismSpecs.parse("shuffled-gaussian:sigma=1.1,batches=235"))
        .isEqualTo(new ShuffledEpochsEvent(new GaussianEvent(1.1), 1, 235));
  }

  @Test
  void malformedSpecsAreRejectedWithTheSpecInTheMessage() {
    assertThatThrownBy(() -> MechanismSpecs.parse("gaussian"))
        .hasMessageContaining("gaussian spec needs sigma=VALUE");
    assertThatThrownBy(() -> MechanismSpecs.parse("gaussian:sigma"))
        .hasMessage("--mechanism must look like NAME:KEY=VALUE[,KEY=VALUE], but was 'gaussian:sigma'");
    assertThatThrownBy(() -> MechanismSpecs.parse("gaussian:sigma=abc"))
        .hasMessage("sigma must be a number, but was 'abc' in 'gaussian:sigma=abc'");
    assertThatThrownBy(() -> MechanismSpecs.parse("gaussian:sigma=1,sigma=2")).hasMessageContaining("repeats");
    assertThatThrownBy(() -> MechanismSpecs.parse("gaussian:scale=1")).hasMessageContaining("accepts keys");
    assertThatThrownBy(() -> MechanismSpecs.parse("cauchy:scale=1")).hasMessageContaining("--mechanism must be one of");
    assertThatThrownBy(() -> MechanismSpecs.parse("")).hasMessageContaining("was empty");
    assertThatThrownBy(() -> MechanismSpecs.parse("randomized-response:epsilon=1,k=2.5"))
        .hasMessageContaining("k must be an integer");
  }

  @Test
  void outOfRangeValuesNameTheParameter() {
    assertThatThrownBy(() -> MechanismSpecs.parse("gaussian:sigma=-1"))
        .hasMessage("--mechanism gaussian:sigma must be in [0.001, 1000000000] (a noise scale for"
            + " sensitivity 1: smaller costs epsilon > 1000 per release), but was -1.0");
    assertThatThrownBy(() -> MechanismSpecs.parse("gaussian:sigma=NaN")).hasMessageContaining("sigma must be");
    assertThatThrownBy(() -> MechanismSpecs.parse("approx:epsilon=1,delta=1"))
        .hasMessage("--mechanism approx:delta must be 0 or in [1E-300, 1) (a privacy delta), but was 1.0");
    assertThatThrownBy(() -> MechanismSpecs.parse("pure:epsilon=-0.5")).hasMessageContaining("--mechanism pure:epsilon must be in [");
    assertThatThrownBy(() -> MechanismSpecs.parse("subsampled-gaussian:sigma=1,q=1.5"))
        .hasMessage("--mechanism subsampled-gaussian:q must be in [1E-12, 1] (a sampling probability), but was 1.5");
    assertThatThrownBy(() -> MechanismSpecs.parse("laplace:scale=Infinity")).hasMessageContaining("scale must be");
  }
}
