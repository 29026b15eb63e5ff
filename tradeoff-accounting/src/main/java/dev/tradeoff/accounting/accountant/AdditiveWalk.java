package dev.tradeoff.accounting.accountant;

import dev.tradeoff.accounting.guarantee.Neighbouring;
import java.util.List;

/**
 * A walk for a privacy quantity that adds under composition (zCDP ρ, GDP μ²): k times the inner
 * value under k-fold self-composition, the sum over a composition.
 */
public abstract class AdditiveWalk extends CompositionWalk<Double> {

  /** @param neighbouring the relation the tree is accounted under */
  protected AdditiveWalk(Neighbouring neighbouring) {
    super(neighbouring);
  }

  @Override
  protected final Analysis<Double> repeated(Double value, int count) {
    return Analysis.of(count * value);
  }

  @Override
  protected final Analysis<Double> together(List<Double> values) {
    double total = 0;
    for (double v : values) {
      total += v;
    }
    return Analysis.of(total);
  }
}
