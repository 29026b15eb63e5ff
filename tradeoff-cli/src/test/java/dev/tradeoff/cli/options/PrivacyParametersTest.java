package dev.tradeoff.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.beam.label.Aggregator;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.cli.CliRun;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

/**
 * The typed flags are checked once, when the arguments are parsed: a command's {@code call()}
 * receives values in range, and a refusal is the flag's one line.
 */
class PrivacyParametersTest {

  static String refusal(String... args) {
    CliRun r = CliRun.of(args);
    assertThat(r.status()).as(r.err()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().strip().lines()).hasSize(1);
    return r.err().strip();
  }

  @Test
  void convertersAcceptTheirRangesAndRefuseTheRestWithTheRuleOfInputs() {
    assertThat(new PrivacyParameters.Epsilon().convert("0.5")).isEqualTo(0.5);
    assertThat(new PrivacyParameters.EpsilonOrZero().convert("0")).isZero();
    assertThat(new PrivacyParameters.Delta().convert(" 1e-5")).isEqualTo(1e-5);
    assertThat(new PrivacyParameters.DeltaOrZero().convert("-0.0")).isEqualTo(0.0)
        .hasToString("0.0");
    assertThat(new PrivacyParameters.AggregatorName().convert("GNMAX"))
        .isEqualTo(Aggregator.GNMAX);
    assertThat(new PrivacyParameters.RunnerName().convert("flink")).isEqualTo(BeamRunner.FLINK);
    assertThatThrownBy(() -> new PrivacyParameters.Epsilon().convert("0"))
        .isInstanceOf(TypeConversionException.class)
        .hasMessageStartingWith("must be in [0.000001, 100] (an epsilon")
        .hasMessageEndingWith(", but was 0.0");
    assertThatThrownBy(() -> new PrivacyParameters.Delta().convert("1"))
        .hasMessage("must be in [1E-300, 1) (a privacy delta), but was 1.0");
    assertThatThrownBy(() -> new PrivacyParameters.Delta().convert("NaN"))
        .hasMessage("must be in [1E-300, 1) (a privacy delta), but was NaN");
    assertThatThrownBy(() -> new PrivacyParameters.EpsilonOrZero().convert("lots"))
        .hasMessage("must be a number, but was 'lots'");
  }

  @Test
  void aRefusalIsTheFlagsOneLineBeforeTheCommandRuns() {
    assertThat(refusal("account", "compose", "--mechanism", "gaussian:sigma=1", "--delta", "2"))
        .isEqualTo("tradeoff: --delta must be in [1E-300, 1) (a privacy delta), but was 2.0");
    assertThat(refusal("account", "calibrate", "--mechanism", "laplace", "--target-epsilon",
        "abc")).isEqualTo("tradeoff: --target-epsilon must be a number, but was 'abc'");
    assertThat(refusal("label", "--train", "t.csv", "--queries", "q.csv", "--out", "o",
        "--epsilon", "1", "--delta", "1e-5", "--classes", "a,b", "--aggregator", "vote"))
        .isEqualTo("tradeoff: --aggregator must be one of dp-majority, darrm-opt, darrm-sub, "
            + "gnmax, but was vote");
    assertThat(refusal("label", "--train", "t.csv", "--queries", "q.csv", "--out", "o",
        "--epsilon", "1", "--delta", "1e-5", "--classes", "a,b", "--runner", "dataflow"))
        .isEqualTo("tradeoff: --runner must be one of direct, spark, flink, but was dataflow");
  }

  /** A spec's refusal names the flag and the key once. */
  @Test
  void aMechanismSpecIsParsedAndCheckedWhenTheArgumentsAre() {
    assertThat(refusal("account", "compose", "--mechanism", "pure:epsilon=-0.5", "--delta",
        "1e-5")).startsWith("tradeoff: --mechanism pure:epsilon must be in [")
        .doesNotContain("--mechanism --mechanism");
    assertThat(refusal("ledger", "fits", "--ledger", "none.db", "--mechanism", "cauchy:scale=1"))
        .startsWith("tradeoff: --mechanism must be one of");
    MechanismSpecs.Mechanism m = new MechanismSpecs.Converter().convert("gaussian:sigma=2");
    assertThat(m.text()).isEqualTo("gaussian:sigma=2");
    assertThat(m.event()).isEqualTo(new dev.tradeoff.accounting.event.GaussianEvent(2));
  }
}
