package dev.tradeoff.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.beam.label.Aggregator;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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

  @Test
  void aBudgetIsAnEpsilonDeltaPairCheckedPartByPart() {
    assertThat(new PrivacyParameters.Budget().convert("1, 1e-5"))
        .isEqualTo(new ApproxDp(1, 1e-5));
    assertThatThrownBy(() -> new PrivacyParameters.Budget().convert("1"))
        .isInstanceOf(TypeConversionException.class)
        .hasMessage("must be EPSILON,DELTA, but was '1'");
    assertThatThrownBy(() -> new PrivacyParameters.Budget().convert("1,1e-5,3"))
        .hasMessage("must be EPSILON,DELTA, but was '1,1e-5,3'");
    assertThatThrownBy(() -> new PrivacyParameters.Budget().convert("1,1"))
        .hasMessage("delta must be in [1E-300, 1) (a privacy delta), but was 1.0");
    assertThatThrownBy(() -> new PrivacyParameters.Budget().convert("x,1e-5"))
        .hasMessage("epsilon must be a number, but was 'x'");
    assertThat(new PrivacyParameters.TotalEpsilon().convert("5000")).isEqualTo(5000.0);
    assertThatThrownBy(() -> new PrivacyParameters.TotalEpsilon().convert("1e5"))
        .hasMessage("must be in [0.000001, 10000] (a total epsilon budget), but was 100000.0");
  }

  /**
   * Every pair flag, tune's budget and label's ε and δ: a bad value is the flag's one line,
   * status 2, before anything is read, charged or written.
   */
  @Test
  void eachTypedFlagRefusesABadValueInOneLineAndWritesNothing(@TempDir Path dir)
      throws Exception {
    Path votes = Files.writeString(dir.resolve("votes.csv"), "id,a,b\nq1,3,1\n");
    Path out = dir.resolve("out");
    Path ledger = dir.resolve("ledger.db");
    String[] label = {"label", "--train", "t.csv", "--queries", "q.csv", "--out", out.toString(),
        "--classes", "a,b"};
    String[] aggregate = {"aggregate", "--votes", votes.toString(), "--classes", "a,b", "--out",
        out.toString(), "--delta", "1e-5", "--sigma2", "1"};
    Object[][] cases = {
        {label, "--epsilon", "0", "must be in [0.000001, 100] (an epsilon", "--delta", "1e-5"},
        {label, "--delta", "1", "must be in [1E-300, 1) (a privacy delta), but was 1.0",
            "--epsilon", "1"},
        {label, "--ledger-budget", "1,2", "delta must be in [1E-300, 1)", "--epsilon", "1",
            "--delta", "1e-5", "--ledger", ledger.toString()},
        {aggregate, "--ledger-budget", "1", "must be EPSILON,DELTA, but was '1'", "--ledger",
            ledger.toString()},
        {aggregate, "--answer-until", "-1,1e-5", "epsilon must be in [0.000001, 100]"},
        {new String[] {"predict", "--seed", "1"}, "--budget", "1,NaN",
            "delta must be in [1E-300, 1) (a privacy delta), but was NaN"},
        {new String[] {"ledger", "create", "--ledger", ledger.toString()}, "--budget", "x,1e-5",
            "epsilon must be a number, but was 'x'"},
        {new String[] {"tune", "--plan", "plan.json"}, "--budget", "0",
            "must be in [0.000001, 10000] (a total epsilon budget), but was 0.0"},
    };
    for (Object[] c : cases) {
      List<String> args = new ArrayList<>(List.of((String[]) c[0]));
      for (int i = 4; i < c.length; i++) {
        args.add((String) c[i]);
      }
      args.addAll(List.of((String) c[1], (String) c[2]));
      assertThat(refusal(args.toArray(String[]::new))).as(args.toString())
          .startsWith("tradeoff: " + c[1] + " " + c[3]);
    }
    assertThat(out).doesNotExist();
    assertThat(ledger).doesNotExist();
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
