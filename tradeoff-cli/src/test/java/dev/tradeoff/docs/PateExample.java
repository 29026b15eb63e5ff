package dev.tradeoff.docs;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.ensemble.pate.PateAggregator;
import dev.tradeoff.ensemble.pate.PateRun;
import dev.tradeoff.ensemble.pate.VoteTable;
import dev.tradeoff.ensemble.pate.Votes;
import dev.tradeoff.mechanisms.random.Randomness;
import java.util.List;

/** docs/pate.md. */
final class PateExample {
  private PateExample() {}

  static PateRun run() {
    // [example]
    // 250 teachers, three classes; one row per public query
    VoteTable votes = VoteTable.of(List.of(
        new Votes("q1", new int[] {231, 12, 7}),
        new Votes("q2", new int[] {90, 85, 75}),
        new Votes("q3", new int[] {5, 240, 5})));
    PateAggregator confident = new PateAggregator.ConfidentGnmax(200, 150, 40);
    PateRun run = PateRun.answerUntil(votes, confident, new ApproxDp(1, 1e-5),
        Randomness.secure());
    // run.answers(): Labelled(class) or Abstained() per query; run.guarantee() = (1, 1e-5),
    // data-independent; run.event() is what a ledger is charged with
    // [/example]
    return run;
  }
}
