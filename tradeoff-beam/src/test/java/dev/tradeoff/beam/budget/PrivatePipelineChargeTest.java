package dev.tradeoff.beam.budget;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.budget.Charge;
import dev.tradeoff.accounting.budget.InMemoryBudgetStore;
import dev.tradeoff.accounting.budget.LedgerEntry;
import dev.tradeoff.accounting.budget.Reservation;
import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.beam.histogram.HistogramNoise;
import dev.tradeoff.beam.histogram.PrivateHistogram;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.beam.runner.BeamRunner;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.junit.jupiter.api.Test;

/** What {@link PrivatePipeline#run()} hands an (ε, δ) store: the run's event and its (ε, δ). */
class PrivatePipelineChargeTest {

  /** An in-memory store that keeps the descriptions it was charged with. */
  private static final class Recording implements BudgetStore {
    final InMemoryBudgetStore store;
    final List<Charge> charges = new ArrayList<>();

    Recording(ApproxDp budget) {
      store = new InMemoryBudgetStore(budget);
    }

    @Override
    public PrivacyGuarantee budget() {
      return store.budget();
    }

    @Override
    public Reservation reserve(String label, PrivacyGuarantee worstCase) {
      return store.reserve(label, worstCase);
    }

    @Override
    public LedgerEntry commit(Reservation reservation, PrivacyGuarantee realised) {
      return store.commit(reservation, realised);
    }

    @Override
    public void cancel(Reservation reservation) {
      store.cancel(reservation);
    }

    @Override
    public LedgerEntry charge(String label, PrivacyGuarantee cost) {
      return store.charge(label, cost);
    }

    @Override
    public LedgerEntry charge(String label, Charge charge) {
      charges.add(charge);
      return store.charge(label, charge);
    }

    @Override
    public PrivacyGuarantee spent() {
      return store.spent();
    }

    @Override
    public PrivacyGuarantee remaining() {
      return store.remaining();
    }

    @Override
    public List<LedgerEntry> entries() {
      return store.entries();
    }

    @Override
    public void close() {
      store.close();
    }
  }

  @Test
  void aRunOfTwoReleasesChargesTheirComposedEventWithTheRunsEpsilonDelta() {
    Recording store = new Recording(new ApproxDp(10, 1e-5));
    PrivatePipeline pp = PrivatePipeline.create(BeamRunner.DIRECT.options(1), store, 1e-6,
        ElementRandomness.seeded(5));
    PCollection<KV<String, String>> in = pp.pipeline().apply(Create.of(List.of(KV.of("u", "a")))
        .withCoder(KvCoder.of(StringUtf8Coder.of(), StringUtf8Coder.of())));
    PrivateHistogram first = PrivateHistogram.over(List.of("a"), HistogramNoise.laplace(1, 1),
        pp.randomness());
    PrivateHistogram second = PrivateHistogram.over(List.of("a"),
        HistogramNoise.discreteLaplace(0.5, 1), pp.randomness());
    pp.apply("First", in, first);
    pp.apply("Second", in, second);
    PrivatePipeline.Outcome outcome = pp.run();
    assertThat(store.charges).hasSize(1);
    Charge c = store.charges.get(0);
    assertThat(c.event()).isEqualTo(new ComposedEvent(List.of(first.event(), second.event())));
    assertThat(c.approxDp()).isEqualTo(outcome.guarantee().total());
    assertThat(store.entries()).hasSize(1);
  }
}
