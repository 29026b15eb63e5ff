package dev.tradeoff.cli.options;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.ledger.PrivacyLedger;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The {@code --ledger FILE|postgresql://HOST[:PORT]/DB [--dataset NAME] [--ledger-budget
 * EPSILON,DELTA]} flags of a command that charges an (ε, δ) ledger ({@code label}, {@code
 * aggregate}), a picocli mixin: checked before any work, opened (or created) to charge.
 */
public final class LedgerFlags {

  @Mixin LedgerTarget target = new LedgerTarget();

  @Option(names = "--ledger-budget", paramLabel = "EPSILON,DELTA",
      converter = PrivacyParameters.Budget.class,
      description = "Create the ledger's dataset with this total budget.")
  ApproxDp ledgerBudget;

  /** The {@code --ledger} given, or null. */
  public LedgerLocation location() {
    return target.location();
  }

  /**
   * Refuses an orphan {@code --ledger-budget} (its value was checked when parsed), a {@code --seed} next to a ledger, and
   * (when the run will charge) a ledger that is missing without a budget, not writable, or not an
   * (ε, δ) ledger.
   */
  public void check(Long seed, boolean willCharge) {
    LedgerLocation ledger = target.location();
    String dataset = target.dataset();
    if (ledgerBudget != null && ledger == null) {
      throw new IllegalArgumentException("--ledger-budget needs --ledger FILE");
    }
    if (dataset != null && ledger == null) {
      throw new IllegalArgumentException("--dataset needs --ledger");
    }
    if (seed != null && ledger != null) {
      throw new IllegalArgumentException("--seed must not be combined with --ledger: a seeded "
          + "run's noise is determined by its seed, so it is not private and cannot be charged as"
          + " such");
    }
    if (ledger == null || !willCharge) {
      return;
    }
    ledger.toWrite("--ledger");
    boolean exists = ledger.exists(dataset);
    if (ledgerBudget == null && !exists) {
      throw new IllegalArgumentException("--ledger " + ledger + (dataset == null ? ""
          : " dataset " + dataset) + " does not exist; pass --ledger-budget EPSILON,DELTA to"
          + " create it");
    }
    if (exists) {
      try (PrivacyLedger l = ledger.open(dataset)) {
        if (!(l.budget() instanceof ApproxDp)) {
          throw new IllegalArgumentException("--ledger " + ledger + " must hold an (epsilon, "
              + "delta) budget, but holds " + l.budget());
        }
      }
    }
  }

  /** The ledger: opened, or created with {@code --ledger-budget}; null without {@code --ledger}. */
  public PrivacyLedger open() {
    LedgerLocation ledger = target.location();
    if (ledger == null) {
      return null;
    }
    return ledgerBudget == null ? ledger.open(target.dataset())
        : ledger.openOrCreate(target.dataset(), ledgerBudget);
  }
}
