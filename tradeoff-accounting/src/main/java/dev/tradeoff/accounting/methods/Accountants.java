package dev.tradeoff.accounting.methods;

import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.composition.BasicAccountant;
import dev.tradeoff.accounting.composition.KairouzAccountant;
import dev.tradeoff.accounting.composition.OptimalAccountant;
import dev.tradeoff.accounting.gdp.GdpAccountant;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.pld.PldAccountant;
import dev.tradeoff.accounting.rdp.RdpAccountant;
import dev.tradeoff.accounting.zcdp.ZcdpAccountant;

/** The default accountant of each method, as the CLI and the pipelines use them. */
public final class Accountants {

  private Accountants() {}

  /**
   * The accountant for a method with its default settings: PLD at discretization
   * {@value PldAccountant#DEFAULT_INTERVAL}, RDP on {@code RenyiDp.defaultOrders()}, Kairouz with
   * the slack δ′ chosen optimally for the asked δ.
   */
  public static Accountant forMethod(AccountingMethod method) {
    Require.nonNull("method", method);
    return switch (method) {
      case BASIC -> new BasicAccountant();
      case KAIROUZ -> KairouzAccountant.optimalSlack();
      case OPTIMAL -> new OptimalAccountant();
      case RDP -> new RdpAccountant();
      case ZCDP -> new ZcdpAccountant();
      case GDP -> new GdpAccountant();
      case PLD -> new PldAccountant();
    };
  }
}
