package dev.tradeoff.cli.io;

import dev.tradeoff.shuffle.analysis.ShuffleReport;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * The text table of a shuffled-sum analysis: the local randomizer, the paper's bound, the exact
 * worst case and the other bounds beside it, as {@code shuffle analyze} and {@code reproduce
 * shuffle} print it.
 */
public final class ShuffleTable {

  private ShuffleTable() {}

  /** Prints {@code r} as the table, every privacy value rounded up. */
  public static void print(PrintWriter out, ShuffleReport r) {
    out.printf(Locale.ROOT, "shuffled sum: users=%d lambda=%s bits=%d delta=%s%n",
        r.parameters().users(), r.parameters().lambda(), r.bits(), r.delta());
    out.printf(Locale.ROOT, "%-38s epsilon=%s%n", "local randomizer (no shuffling)",
        Numbers.up(r.bits() * r.localEpsilon()));
    out.printf(Locale.ROOT, "%-38s mu=%s  %s%n",
        r.bits() == 1 ? "paper (Theorem 2, Corollary 3.2)" : "paper (Theorem 3, Corollary 3.3)",
        Numbers.up(r.paper().mu()),
        r.paper().validLowerBound() && r.paper().muValid()
            ? "confirmed by the exact analysis"
            : "NOT confirmed: the exact analysis contradicts it");
    out.printf(Locale.ROOT, "%-38s mu=%s  epsilon=%s at delta=%s%n",
        "exact worst case (" + r.exact().method() + ")", Numbers.up(r.exact().mu()),
        Numbers.up(r.exact().epsilon()),
        r.delta());
    out.printf(Locale.ROOT, "%-38s %s%n", "Cheu et al. 2019 (Claim C.1)",
        r.cheuEpsilon().isPresent()
            ? "epsilon=" + Numbers.up(r.cheuEpsilon().getAsDouble())
            : "not applicable at this delta (|H| <= 8 ln(4/delta))");
    out.printf(Locale.ROOT, "%-38s %s%n", "Feldman-McMillan-Talwar 2021 (generic)",
        r.amplificationEpsilon().isPresent()
            ? "epsilon=" + Numbers.up(r.amplificationEpsilon().getAsDouble())
            : "no amplification");
    out.printf(Locale.ROOT, "guarantee: mu=%s-GDP and (%s, %s)-DP (exact analysis)%n",
        Numbers.up(r.exact().mu()), Numbers.up(r.exact().epsilon()), Numbers.up(r.delta()));
  }
}
