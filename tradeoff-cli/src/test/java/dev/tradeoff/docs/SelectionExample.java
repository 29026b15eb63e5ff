package dev.tradeoff.docs;

import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.ledger.SqliteLedger;
import dev.tradeoff.mechanisms.laplace.LaplaceMechanism;
import dev.tradeoff.mechanisms.random.Randomness;
import dev.tradeoff.selection.expost.PureDpCandidate;
import dev.tradeoff.selection.expost.RandomDroppingTuner;
import dev.tradeoff.selection.expost.RepetitionCount;
import dev.tradeoff.selection.expost.Scored;
import dev.tradeoff.selection.expost.TuningOutcome;
import dev.tradeoff.selection.expost.TuningRun;
import dev.tradeoff.selection.filter.PureDpFilter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** docs/selection.md. */
final class SelectionExample {
  private SelectionExample() {}

  record Out(long copies, TuningRun<String> run, double exPostEpsilon, PrivacyGuarantee spent,
      PrivacyGuarantee remaining, int entries) {}

  static Out run(Path dir) {
    // [example]
    // Three learning rates; each candidate releases its validation accuracy (1000 examples, so
    // sensitivity 1/1000) with Laplace noise at epsilon_i = 0.1.
    String[] names = {"lr=0.01", "lr=0.1", "lr=1"};
    double[] accuracy = {0.81, 0.93, 0.64};
    // Theorem 12: listing each candidate T times makes the result at least as good as the best
    // candidate's median score with probability >= 0.9 (a = 0.5, beta = 0.1, epsilon' = 0.1).
    long copies = RepetitionCount.of(0.5, 0.1, 0.1, 0.1).asLong().orElseThrow(); // 120
    List<PureDpCandidate<String>> candidates = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      LaplaceMechanism laplace = LaplaceMechanism.of(0.1, 1e-3);
      String name = names[i];
      double value = accuracy[i];
      for (long c = 0; c < copies; c++) {
        candidates.add(new PureDpCandidate<>(
            random -> new Scored<>(laplace.release(value, random), name), laplace.epsilon()));
      }
    }
    // Algorithm 3 with epsilon' = 0.1: choosing candidate i costs 2 epsilon_i + epsilon' (Thm 11),
    // however many copies ran; choosing none costs 0.
    RandomDroppingTuner<String> tuner = RandomDroppingTuner.of(candidates, 0.1);

    // Charged through the pure-DP filter on a persistent ledger with budget epsilon = 1.
    TuningRun<String> run;
    try (SqliteLedger ledger = SqliteLedger.openOrCreate(dir.resolve("ledger.db"), new PureDp(1))) {
      PureDpFilter filter = new PureDpFilter(ledger);
      run = filter.answer("tune learning rate", tuner.guarantee(),
          () -> tuner.run(Randomness.seeded(7)), // seeded: reproducible, not private
          TuningRun::outcome);
    }
    double exPost = tuner.guarantee().epsilonOf(run.outcome()); // what the ledger was charged
    if (run.outcome() instanceof TuningOutcome.Selected<String> chosen) {
      System.out.printf("chosen %s (score %.3f), ex-post epsilon %.2f%n",
          chosen.result().output(), chosen.result().score(), exPost);
    } else {
      System.out.println("no candidate survived the dropping; ex-post epsilon 0");
    }
    // prints "chosen lr=0.1 (score 0.977), ex-post epsilon 0.30"; ledger.db keeps the charge
    // 0.3 (rounded up), 0.7 remains: ./tradeoff ledger show --ledger ledger.db
    // [/example]
    try (SqliteLedger ledger = SqliteLedger.open(dir.resolve("ledger.db"))) {
      return new Out(copies, run, exPost, ledger.spent(), ledger.remaining(),
          ledger.entries().size());
    }
  }
}
