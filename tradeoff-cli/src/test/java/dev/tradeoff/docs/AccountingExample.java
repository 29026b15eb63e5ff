package dev.tradeoff.docs;

import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.methods.Accountants;

/** docs/accounting.md. */
final class AccountingExample {
  private AccountingExample() {}

  static double run() {
    // [example]
    // 100 releases of a Gaussian mechanism with sigma = 1 (sensitivity 1).
    var event = new SelfComposedEvent(new GaussianEvent(1.0), 100);
    Accountant pld = Accountants.forMethod(AccountingMethod.PLD);
    PrivacyProfile profile = pld.account(event, Neighbouring.ADD_OR_REMOVE_ONE);
    double epsilon = profile.epsilon(1e-5); // an upper bound: about 91.817
    // [/example]
    return epsilon;
  }
}
