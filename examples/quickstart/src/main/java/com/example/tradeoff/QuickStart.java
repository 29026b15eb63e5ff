package com.example.tradeoff;

import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.pld.PldAccountant;
import dev.tradeoff.mechanisms.laplace.LaplaceMechanism;
import dev.tradeoff.mechanisms.random.Randomness;

/** Release a count with its guarantee, then account for 100 Gaussian releases. */
public final class QuickStart {

  private QuickStart() {}

  public static void main(String[] args) {
    // A count released by the Laplace mechanism (epsilon = 1, sensitivity 1) with secure noise.
    LaplaceMechanism laplace = LaplaceMechanism.of(1.0, 1.0);
    double noisyCount = laplace.release(42.0, Randomness.secure());
    PureDp guarantee = laplace.guarantee();
    System.out.printf("noisy count %.1f under %s%n", noisyCount, guarantee);

    // 100 releases of a Gaussian mechanism (sigma = 1, sensitivity 1), accounted with privacy loss
    // distributions: the epsilon is an upper bound at delta = 1e-5.
    var event = new SelfComposedEvent(new GaussianEvent(1.0), 100);
    PrivacyProfile profile = new PldAccountant().account(event, Neighbouring.ADD_OR_REMOVE_ONE);
    System.out.printf("100 Gaussian releases: epsilon %.2f at delta 1e-5%n", profile.epsilon(1e-5));
  }
}
