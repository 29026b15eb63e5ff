package dev.tradeoff.accounting.accountant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.event.ShuffledEpochsEvent;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.methods.Accountants;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Shuffled epochs are charged, under replace-one, exactly as the epochs-fold composition of one
 * unsampled step (no amplification), by every method that supports the step, with no lower bound;
 * under add/remove-one every method refuses them, and "supports" agrees with "accounts" (both
 * read one walk).
 */
class ShuffledEpochsAccountingTest {

  @Test
  void everyMethodChargesOneStepPerEpochUnderReplaceOne() {
    SplittableRandom random = new SplittableRandom(20);
    for (int trial = 0; trial < 6; trial++) {
      int epochs = 1 + random.nextInt(20);
      int batches = 1 + random.nextInt(1000);
      DpEvent step = trial % 2 == 0
          ? new GaussianEvent(0.5 + 3 * random.nextDouble())
          : new LaplaceEvent(0.5 + 3 * random.nextDouble());
      DpEvent shuffled = new ShuffledEpochsEvent(step, epochs, batches);
      DpEvent plain = new SelfComposedEvent(step, epochs);
      for (AccountingMethod method : AccountingMethod.values()) {
        Accountant accountant = Accountants.forMethod(method);
        boolean supported = accountant.supports(plain, Neighbouring.REPLACE_ONE);
        assertThat(accountant.supports(shuffled, Neighbouring.REPLACE_ONE))
            .as("%s %s", method, step).isEqualTo(supported);
        if (supported) {
          double delta = 1e-6;
          var bounds = accountant.account(shuffled, Neighbouring.REPLACE_ONE).epsilonBounds(delta);
          assertThat(bounds.upper()).as("%s %s", method, step)
              .isEqualTo(accountant.account(plain, Neighbouring.REPLACE_ONE).epsilon(delta));
          // an upper bound only: shuffling may hide which step holds the record, so no method
          // (not even GDP, exact for the unshuffled steps) claims a lower bound
          assertThat(bounds.lower()).as("%s %s", method, step).isZero();
        }
      }
    }
  }

  @Test
  void theLowerEndOfAMixtureKeepsItsUnshuffledPart() {
    Accountant pld = Accountants.forMethod(AccountingMethod.PLD);
    DpEvent plain = new SelfComposedEvent(new GaussianEvent(2), 4);
    DpEvent mixed = ComposedEvent.of(plain, new ShuffledEpochsEvent(new GaussianEvent(2), 4, 50));
    var alone = pld.account(plain, Neighbouring.REPLACE_ONE).epsilonBounds(1e-6);
    var both = pld.account(mixed, Neighbouring.REPLACE_ONE).epsilonBounds(1e-6);
    // the upper end charges 8 Gaussians, the lower end only the 4 that are not shuffled
    assertThat(both.upper()).isGreaterThan(alone.upper());
    assertThat(both.lower()).isLessThanOrEqualTo(alone.upper()).isGreaterThan(0.99 * alone.lower());
  }

  @Test
  void addOrRemoveOneIsRefusedByEveryMethodWithTheSameReasonItThrows() {
    DpEvent shuffled = ComposedEvent.of(new GaussianEvent(2),
        new ShuffledEpochsEvent(new GaussianEvent(1), 3, 10));
    for (AccountingMethod method : AccountingMethod.values()) {
      Accountant accountant = Accountants.forMethod(method);
      var why = accountant.whyUnsupported(shuffled, Neighbouring.ADD_OR_REMOVE_ONE);
      assertThat(why).as("%s", method).isPresent();
      assertThatThrownBy(() -> accountant.account(shuffled, Neighbouring.ADD_OR_REMOVE_ONE))
          .isInstanceOf(UnsupportedEventException.class)
          .hasMessageContaining(why.get());
    }
  }
}
