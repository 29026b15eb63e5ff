package dev.tradeoff.ensemble.pate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.budget.Charge;
import dev.tradeoff.accounting.conversion.GaussianDpConversion;
import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.numerics.StandardNormal;
import dev.tradeoff.accounting.rdp.RdpAccountant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PateRunTest {

  static VoteTable table(SplittableRandom random, int queries, int teachers, int classes) {
    List<Votes> rows = new ArrayList<>();
    for (int q = 0; q < queries; q++) {
      int[] counts = new int[classes];
      double concentration = random.nextDouble();
      int favourite = random.nextInt(classes);
      for (int t = 0; t < teachers; t++) {
        counts[random.nextDouble() < concentration ? favourite : random.nextInt(classes)]++;
      }
      rows.add(new Votes("q" + q, counts));
    }
    return VoteTable.of(rows);
  }

  @Test
  void gnmaxRdpIsLambdaOverSigmaSquaredPerQuery() {
    // L2 sensitivity √2: α·2/(2σ²) = α/σ² per query (Papernot et al. 2018, Proposition 8)
    RenyiDp rdp = new RdpAccountant(new double[] {2, 10, 32})
        .rdp(PateRun.exAnteEvent(new PateAggregator.Gnmax(40), 7), Neighbouring.ADD_OR_REMOVE_ONE);
    assertThat(rdp.epsilons()[0]).isCloseTo(7 * 2 / 1600.0, within(1e-15));
    assertThat(rdp.epsilons()[1]).isCloseTo(7 * 10 / 1600.0, within(1e-15));
    assertThat(rdp.epsilons()[2]).isCloseTo(7 * 32 / 1600.0, within(1e-15));
  }

  @Test
  void confidentGnmaxRdpAddsAlphaOverTwoSigma1SquaredPerCheck() {
    RenyiDp rdp = new RdpAccountant(new double[] {2, 10}).rdp(
        PateRun.exAnteEvent(new PateAggregator.ConfidentGnmax(200, 150, 40), 3),
        Neighbouring.ADD_OR_REMOVE_ONE);
    assertThat(rdp.epsilons()[0]).isCloseTo(3 * (2 / (2 * 22500.0) + 2 / 1600.0), within(1e-15));
    assertThat(rdp.epsilons()[1]).isCloseTo(3 * (10 / (2 * 22500.0) + 10 / 1600.0),
        within(1e-15));
  }

  @Test
  void theChargedGuaranteeIsTheExactGdpCompositionAndBeatsRdp() {
    SplittableRandom random = new SplittableRandom(1);
    VoteTable votes = table(random, 640, 250, 10);
    PateAggregator agg = new PateAggregator.ConfidentGnmax(200, 150, 40);
    PateRun run = PateRun.allQueries(votes, agg, 1e-5, random);
    double mu = Math.sqrt(640 / 22500.0 + 2 * 640 / 1600.0);
    assertThat(run.guarantee().epsilon())
        .isCloseTo(GaussianDpConversion.epsilon(mu, 1e-5), within(1e-9));
    double rdpEpsilon = new RdpAccountant().account(run.event(), Neighbouring.ADD_OR_REMOVE_ONE)
        .epsilon(1e-5);
    assertThat(run.guarantee().epsilon()).isLessThan(rdpEpsilon);
    assertThat(run.guarantee().epsilon())
        .isLessThanOrEqualTo(Charge.of(run.event(), 1e-5).approxDp().epsilon());
    assertThat(run.processed()).isEqualTo(640);
  }

  @Test
  void papernotsMnistSettingCostsThisMuchWithoutTheDataDependentAnalysis() {
    // K = 250, T = 200, σ₁ = 150, σ₂ = 40, 640 queries, 286 answered ([PATE18], Table 2: the
    // data-dependent ε is 1.97 at δ = 1e-5). Values from the GDP closed form δ(ε) = Φ(−ε/μ + μ/2)
    // − e^ε Φ(−ε/μ − μ/2), solved with scipy 1.17.1's brentq.
    PateAggregator agg = new PateAggregator.ConfidentGnmax(200, 150, 40);
    assertThat(PateRun.guarantee(PateRun.exAnteEvent(agg, 640), 1e-5).epsilon())
        .isCloseTo(3.9267012011606943, within(1e-6));
    DpEvent realised = ComposedEvent.of(new SelfComposedEvent(agg.checkEvent().orElseThrow(), 640),
        new SelfComposedEvent(agg.answerEvent(), 286));
    assertThat(PateRun.guarantee(realised, 1e-5).epsilon())
        .isCloseTo(2.542602085457759, within(1e-6));
    // the filter at (1.97, 1e-5) with every one of the 640 queries checked: μ_B = 0.49480822
    double muB = GaussianDpConversion.mu(1.97, 1e-5);
    assertThat(muB).isCloseTo(0.4948082213051683, within(1e-7));
    assertThat((muB * muB - agg.checkMuSquared() * 640) / agg.answerMuSquared())
        .isCloseTo(173.11, within(0.01));
  }

  @Test
  void answerUntilStaysWithinTheBudgetAndStopsOnlyWhenTheNextQueryCouldExceedIt() {
    SplittableRandom random = new SplittableRandom(2);
    for (int trial = 0; trial < 50; trial++) {
      VoteTable votes = table(random, 1 + random.nextInt(400), 1 + random.nextInt(300),
          2 + random.nextInt(9));
      PateAggregator agg = random.nextBoolean()
          ? new PateAggregator.Gnmax(5 + 60 * random.nextDouble())
          : new PateAggregator.ConfidentGnmax(votes.teachers() * random.nextDouble(),
              5 + 200 * random.nextDouble(), 5 + 60 * random.nextDouble());
      ApproxDp budget = new ApproxDp(0.1 + 5 * random.nextDouble(), 1e-6);
      PateRun run = PateRun.answerUntil(votes, agg, budget, random);
      double cap = Math.pow(GaussianDpConversion.mu(budget.epsilon(), budget.delta()), 2);
      double spent = run.processed() * agg.checkMuSquared() + run.answered() * agg.answerMuSquared();
      assertThat(spent).isLessThanOrEqualTo(cap);
      if (run.processed() < votes.size()) {
        assertThat(spent + agg.checkMuSquared() + agg.answerMuSquared())
            .isGreaterThan(cap * (1 - 1e-12));
      }
      assertThat(run.guarantee()).isEqualTo(budget);
    }
  }

  @Test
  void abstentionsCostOnlyTheirCheckSoTheFilterAnswersMoreThanTheExAntePlan() {
    SplittableRandom random = new SplittableRandom(3);
    VoteTable votes = table(random, 2000, 250, 10);
    ApproxDp budget = new ApproxDp(2, 1e-5);
    PateAggregator agg = new PateAggregator.ConfidentGnmax(200, 150, 40);
    PateRun filtered = PateRun.answerUntil(votes, agg, budget, random);
    double mu = GaussianDpConversion.mu(2, 1e-5);
    int exAnte = (int) Math.floor(mu * mu / (agg.checkMuSquared() + agg.answerMuSquared()));
    VoteTable firstQueries = VoteTable.of(votes.rows().subList(0, exAnte));
    PateRun planned = PateRun.allQueries(firstQueries, agg, 1e-5, random);
    assertThat(planned.guarantee().epsilon()).isLessThanOrEqualTo(2);
    // the ex-ante plan that fits the budget decides on fewer queries and labels fewer of them
    assertThat(filtered.processed()).isGreaterThan(exAnte);
    assertThat(filtered.answered()).isGreaterThan(planned.answered() + 20);
  }

  @Test
  void dataDependentRdpNeverExceedsTheDataIndependentBound() {
    SplittableRandom random = new SplittableRandom(4);
    double[] orders = {1.5, 2, 4, 8, 16, 32, 64, 128};
    for (int trial = 0; trial < 300; trial++) {
      VoteTable votes = table(random, 1, 1 + random.nextInt(500), 2 + random.nextInt(20));
      double s1 = 1 + 200 * random.nextDouble();
      double s2 = 1 + 100 * random.nextDouble();
      PateAggregator.ConfidentGnmax agg = new PateAggregator.ConfidentGnmax(
          votes.teachers() * random.nextDouble(), s1, s2);
      Votes v = votes.rows().get(0);
      for (double lambda : orders) {
        double checkOnly = agg.dataDependentRdp(v, false, lambda);
        double both = agg.dataDependentRdp(v, true, lambda);
        assertThat(checkOnly).isBetween(0.0, lambda / (2 * s1 * s1) * (1 + 1e-12));
        assertThat(both - checkOnly).isBetween(-1e-15, lambda / (s2 * s2) * (1 + 1e-12));
      }
    }
  }

  @Test
  void confidentGnmaxAnswersWithTheProbabilityOfItsNoisyThresholdCheck() {
    SplittableRandom random = new SplittableRandom(5);
    PateAggregator.ConfidentGnmax agg = new PateAggregator.ConfidentGnmax(100, 20, 10);
    Votes votes = new Votes("q", new int[] {90, 60, 0});
    int n = 200_000;
    int answered = 0;
    int top = 0;
    for (int i = 0; i < n; i++) {
      if (agg.answer(votes, random) instanceof Answer.Labelled l) {
        answered++;
        top += l.label() == 0 ? 1 : 0;
      }
    }
    double p = StandardNormal.cdf((90 - 100) / 20.0);
    assertThat(answered / (double) n).isCloseTo(p, within(5 * Math.sqrt(p * (1 - p) / n)));
    // GNMax among the answered: Pr[class 0 beats 1] = Φ(30/(√2·10)), class 2 negligible
    double first = StandardNormal.cdf(30 / (Math.sqrt(2) * 10));
    assertThat(top / (double) answered).isCloseTo(first, within(0.005));
  }

  @Test
  void theCalibrationRuleMeetsItsTargetOverAllQueries() {
    SplittableRandom random = new SplittableRandom(6);
    for (int trial = 0; trial < 30; trial++) {
      int q = 1 + random.nextInt(5000);
      ApproxDp target = new ApproxDp(0.2 + 8 * random.nextDouble(), 1e-5);
      for (PateAggregator agg : List.<PateAggregator>of(PateCalibration.gnmax(target, q),
          PateCalibration.confidentGnmax(target, q, 250))) {
        VoteTable one = table(random, 1, 250, 3);
        double eps = PateRun.allQueries(one, agg, 1e-5, random).guarantee().epsilon();
        double epsQ = PateRun.guarantee(PateRun.exAnteEvent(agg, q), 1e-5).epsilon();
        assertThat(eps).isLessThanOrEqualTo(epsQ);
        assertThat(epsQ).isLessThanOrEqualTo(target.epsilon())
            .isGreaterThan(target.epsilon() * 0.999);
      }
    }
    PateAggregator.ConfidentGnmax mnist = PateCalibration.confidentGnmax(new ApproxDp(2, 1e-5),
        640, 250);
    assertThat(mnist.threshold()).isEqualTo(200);
    assertThat(mnist.sigma1() / mnist.sigma2()).isCloseTo(3.75, within(1e-12));
  }

  @Test
  void badVotesAreRefusedWithTheParameterAndItsValue() {
    assertThatThrownBy(() -> new Votes("a", new int[] {3, -1}))
        .hasMessageContaining("counts[1] of query a").hasMessageContaining("-1");
    assertThatThrownBy(() -> new Votes("a", new int[] {3}))
        .hasMessageContaining("classes").hasMessageContaining("1");
    assertThatThrownBy(() -> new Votes(" ", new int[] {3, 1})).hasMessageContaining("id");
    assertThatThrownBy(() -> VoteTable.of(List.of(new Votes("a", new int[] {3, 1}),
        new Votes("b", new int[] {3, 2})))).hasMessageContaining("teachers of query b")
        .hasMessageContaining("5");
    assertThatThrownBy(() -> VoteTable.of(List.of(new Votes("a", new int[] {3, 1}),
        new Votes("b", new int[] {2, 1, 1})))).hasMessageContaining("classes of query b");
    assertThatThrownBy(() -> VoteTable.of(List.of(new Votes("a", new int[] {3, 1}),
        new Votes("a", new int[] {2, 2})))).hasMessageContaining("id");
    assertThatThrownBy(() -> VoteTable.fromPredictions(List.of("a"), new int[][] {{0, 2}}, 2))
        .hasMessageContaining("teacher 1").hasMessageContaining("2");
  }

  @Test
  void predictionsBecomeCounts() {
    VoteTable t = VoteTable.fromPredictions(List.of("a", "b"), new int[][] {{0, 2, 2}, {1, 1, 1}},
        3);
    assertThat(t.rows().get(0).counts()).containsExactly(1, 0, 2);
    assertThat(t.rows().get(1).counts()).containsExactly(0, 3, 0);
    assertThat(t.teachers()).isEqualTo(3);
  }
}
