package dev.tradeoff.cli.options;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.ledger.SqliteLedger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code --ledger FILE [--ledger-budget EPSILON,DELTA]} pair of a command that charges an (ε, δ)
 * ledger ({@code label}, {@code aggregate}): checked before any work, opened (or created) to charge.
 */
public final class LedgerFlags {

  private LedgerFlags() {}

  /**
   * Refuses a malformed or orphan {@code --ledger-budget}, a {@code --seed} next to a ledger, and
   * (when the run will charge) a ledger that is missing without a budget, not writable, or not an
   * (ε, δ) ledger.
   */
  public static void check(Path ledger, List<Double> ledgerBudget, Long seed, boolean willCharge) {
    if (ledgerBudget != null && ledgerBudget.size() != 2) {
      throw new IllegalArgumentException("--ledger-budget must be EPSILON,DELTA, but was "
          + ledgerBudget);
    }
    if (ledgerBudget != null && ledger == null) {
      throw new IllegalArgumentException("--ledger-budget needs --ledger FILE");
    }
    if (seed != null && ledger != null) {
      throw new IllegalArgumentException("--seed must not be combined with --ledger: a seeded "
          + "run's noise is determined by its seed, so it is not private and cannot be charged as"
          + " such");
    }
    if (ledgerBudget != null) {
      Inputs.epsilon("--ledger-budget epsilon", ledgerBudget.get(0));
      Inputs.delta("--ledger-budget delta", ledgerBudget.get(1));
    }
    if (ledger == null || !willCharge) {
      return;
    }
    Inputs.ledgerToWrite("--ledger", ledger);
    if (ledgerBudget == null && !Files.isRegularFile(ledger)) {
      throw new IllegalArgumentException("--ledger " + ledger + " does not exist; pass "
          + "--ledger-budget EPSILON,DELTA to create it");
    }
    if (Files.isRegularFile(ledger)) {
      try (SqliteLedger l = SqliteLedger.open(ledger)) {
        if (!(l.budget() instanceof ApproxDp)) {
          throw new IllegalArgumentException("--ledger " + ledger + " must hold an (epsilon, "
              + "delta) budget, but holds " + l.budget());
        }
      }
    }
  }

  /** The ledger: opened, or created with {@code --ledger-budget}. */
  public static SqliteLedger open(Path ledger, List<Double> ledgerBudget) {
    return ledgerBudget == null ? SqliteLedger.open(ledger)
        : SqliteLedger.openOrCreate(ledger, new ApproxDp(ledgerBudget.get(0),
            ledgerBudget.get(1)));
  }
}
