package dev.tradeoff.selection.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.InMemoryBudgetStore;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.selection.expost.TuningOutcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link CommandTuning} on real shell-command candidates, with and without a budget store. */
class CommandTuningTest {

  @TempDir Path dir;

  /** A plan whose candidates echo their score and ε and touch a file named after themselves. */
  private Path plan(String extra, String candidates) throws IOException {
    Path file = dir.resolve("plan.json");
    Files.writeString(file, "{\"epsilonPrime\": 0.05, " + extra
        + " \"command\": \"touch " + dir + "/ran-{name}; echo '{\\\"score\\\": {score},"
        + " \\\"epsilon\\\": {epsilon}}'\", \"candidates\": [" + candidates + "]}");
    return file;
  }

  private static String candidate(String name, double score, double epsilon) {
    return "{\"name\": \"" + name + "\", \"epsilon\": " + epsilon
        + ", \"hyperparameters\": {\"name\": \"" + name + "\", \"score\": " + score + "}}";
  }

  @Test
  void aChargedRunSpendsExactlyTheRealisedExPostEpsilonOfTheOutcome() throws IOException {
    TuningPlan plan = TuningPlan.read(plan("",
        candidate("low", 0.2, 0.5) + "," + candidate("high", 0.9, 0.3)));
    for (long seed = 0; seed < 20; seed++) {
      InMemoryBudgetStore store = new InMemoryBudgetStore(new PureDp(1e6));
      CommandTuning.Result r = CommandTuning.run(plan, store, "tune", new SplittableRandom(seed));
      double spent = ((PureDp) store.spent()).epsilon();
      assertThat(spent).isEqualTo(r.epsilon());
      if (r.run().outcome() instanceof TuningOutcome.Selected<JsonNode> s) {
        // Theorem 11: the chosen candidate's 2 epsilon_i + epsilon'
        double epsilonI = s.index() == 0 ? 0.5 : 0.3;
        assertThat(r.epsilon()).isCloseTo(2 * epsilonI + 0.05, within(1e-12));
        assertThat(s.result().output().get("score").asDouble()).isIn(0.2, 0.9);
      } else {
        assertThat(r.epsilon()).isZero();
      }
      assertThat(r.epsilon()).isLessThanOrEqualTo(r.exAnteEpsilon());
      assertThat(r.guaranteeKind()).contains("Theorem 11");
    }
  }

  @Test
  void aRunWhoseWorstCaseDoesNotFitIsRefusedBeforeAnyCandidateRuns() throws IOException {
    TuningPlan plan = TuningPlan.read(plan("", candidate("only", 0.5, 0.5)));
    InMemoryBudgetStore store = new InMemoryBudgetStore(new PureDp(1.0));
    assertThatThrownBy(() -> CommandTuning.run(plan, store, "tune", new SplittableRandom(1)))
        .isInstanceOf(BudgetExceededException.class);
    assertThat(dir.resolve("ran-only")).doesNotExist();
    assertThat(store.entries()).isEmpty();
  }

  @Test
  void aCandidateReportingMoreThanItDeclaredFailsTheRunAndChargesNothing() throws IOException {
    Path file = dir.resolve("liar.json");
    Files.writeString(file, "{\"epsilonPrime\": 0.05, \"candidates\": [{\"name\": \"liar\","
        + " \"epsilon\": 0.1, \"command\": \"echo '{\\\"score\\\": 1, \\\"epsilon\\\": 0.7}'\"}]}");
    TuningPlan plan = TuningPlan.read(file);
    InMemoryBudgetStore store = new InMemoryBudgetStore(new PureDp(100));
    // the dropping may skip the only candidate; some seed in 50 runs it
    boolean failed = false;
    for (long seed = 0; seed < 50 && !failed; seed++) {
      try {
        CommandTuning.run(plan, store, "tune", new SplittableRandom(seed));
      } catch (IllegalArgumentException e) {
        assertThat(e).hasMessage("candidate 'liar' reported epsilon 0.7 above its declared 0.1");
        failed = true;
      }
    }
    assertThat(failed).isTrue();
    assertThat(store.entries()).allSatisfy(entry ->
        assertThat(((PureDp) entry.charged()).epsilon()).isZero());
  }

  @Test
  void aRenyiPlanIsTunedWithExponentialDroppingAndTheoremThirteen() throws IOException {
    TuningPlan plan = TuningPlan.read(plan("\"alpha\": 8,",
        candidate("a", 0.4, 0.2) + "," + candidate("b", 0.6, 0.4)));
    InMemoryBudgetStore store = new InMemoryBudgetStore(RenyiDp.ofOrder(8, 1e6));
    CommandTuning.Result r = CommandTuning.run(plan, store, "tune", new SplittableRandom(3));
    assertThat(r.guaranteeKind()).isEqualTo("ex-post RDP at alpha 8.0 (Theorem 13)");
    assertThat(((RenyiDp) store.spent()).epsilonAt(8)).isCloseTo(r.epsilon(), within(1e-12));
    assertThat(CommandTuning.run(plan, new SplittableRandom(3)).epsilon()).isEqualTo(r.epsilon());
  }

  @Test
  void aPlanFieldOutOfRangeIsNamedInTheMessage() throws IOException {
    Path file = dir.resolve("bad.json");
    Files.writeString(file, "{\"epsilonPrime\": 0.05, \"command\": \"true\","
        + " \"candidates\": [{\"epsilon\": 0.1}, {\"epsilon\": -2}]}");
    assertThatThrownBy(() -> TuningPlan.read(file))
        .hasMessage("candidates[1].epsilon must be > 0 and finite, but was -2.0");
  }
}
