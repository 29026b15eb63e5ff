package dev.tradeoff.accounting.accountant;

import java.util.Locale;

/** The accounting methods Tradeoff offers; each names the analysis its accountant implements. */
public enum AccountingMethod {
  /** Basic composition: (Σε, Σδ). */
  BASIC,
  /** Kairouz, Oh and Viswanath (2015) closed-form general composition [DaRRM24, Thm 2.3]. */
  KAIROUZ,
  /** The exact optimal composition of Kairouz, Oh and Viswanath (2015), Theorem 3.3. */
  OPTIMAL,
  /** Rényi DP (Mironov 2017) added over an order grid, converted to (ε, δ) at the best order. */
  RDP,
  /** Zero-concentrated DP (Bun and Steinke 2016): ρ adds. */
  ZCDP,
  /** Gaussian DP (Dong, Roth and Su 2022): μ composes as √Σμ². */
  GDP,
  /** Numerical privacy-loss-distribution composition with pessimistic discretization. */
  PLD;

  /** Parses a lower-case CLI name such as {@code pld}. */
  public static AccountingMethod parse(String name) {
    for (AccountingMethod m : values()) {
      if (m.name().equalsIgnoreCase(name)) {
        return m;
      }
    }
    throw new IllegalArgumentException(
        "method must be one of basic, kairouz, optimal, rdp, zcdp, gdp, pld, but was " + name);
  }

  /** The CLI spelling. */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
