package dev.tradeoff.ensemble.pate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.numerics.StandardNormal;
import dev.tradeoff.audit.AuditCase;
import dev.tradeoff.audit.AuditResult;
import dev.tradeoff.audit.EventFamily;
import dev.tradeoff.audit.OutputEvent;
import dev.tradeoff.audit.PrivacyAuditor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Interactive-GNMax, Papernot et al. 2018, Algorithm 2. */
class InteractiveGnmaxTest {

  static final double[] ORDERS = TensorFlowPrivacyFixturesTest.ORDERS;

  static PateAggregator.InteractiveGnmax aggregator(double t, double s1, double s2, double gamma,
      Map<String, double[]> student) {
    return new PateAggregator.InteractiveGnmax(t, s1, s2, gamma, student);
  }

  /**
   * The check's data-dependent RDP on n − K·p against TensorFlow Privacy's {@code
   * compute_rdp_threshold(compute_logpr_answered(T, σ₁, votes − baseline))} (numpy 2.4.6, scipy
   * 1.17.1), with K·p integral so that the script's rounding of the maximum changes nothing.
   */
  @Test
  void theChecksDataDependentRdpOnTheDisagreementMatchesTensorFlowPrivacy() {
    Votes v = new Votes("q", TensorFlowPrivacyFixturesTest.STRONG);
    double[] disagrees = {0.2, 0.8, 0, 0, 0, 0, 0, 0, 0, 0};
    double[] agrees = {0.8, 0.12, 0.08, 0, 0, 0, 0, 0, 0, 0};
    double[][] expected = {{0.0018749999999999997, 0.0021449911234190404, 0.0024541139275592416,
        0.0032606137733903248, 0.007156460376160062, 0.05821463700123506, 0.12499999999999999},
        {1.7479428076892148e-07, 1.8105661103656366e-07, 2.3428817437913153e-07,
            4.3904561470585905e-07, 2.916721334062529e-06, 0.003908542186299397,
            0.12353233717995447}};
    double[][] student = {disagrees, agrees};
    for (int c = 0; c < 2; c++) {
      PateAggregator.InteractiveGnmax agg = aggregator(100, 20, 40, 0.5,
          Map.of("q", student[c]));
      assertThat(agg.disagreement(v)).isCloseTo(c == 0 ? 150 : 0, within(1e-9));
      for (int i = 0; i < ORDERS.length; i++) {
        assertThat(agg.dataDependentRdp(v, false, ORDERS[i])).as("case %s order %s", c, ORDERS[i])
            .isCloseTo(expected[c][i], withinPercentage(1e-4));
      }
    }
  }

  @Test
  void theThreeBranchesOccurAtTheirRates() {
    // n − K p = (1, −1): Pr[teachers answer] = Φ((1 − T)/σ₁); otherwise the student's class 0
    // (probability 0.5, the first of two equal) when γ ≤ 0.5, else an abstention
    Votes v = new Votes("q", new int[] {6, 4});
    PateAggregator.InteractiveGnmax agg = aggregator(2, 1.5, 1.5, 0.55,
        Map.of("q", new double[] {0.5, 0.5}));
    assertThat(agg.disagreement(v)).isEqualTo(1);
    PateAggregator.InteractiveGnmax confident = aggregator(2, 1.5, 1.5, 0.5,
        Map.of("q", new double[] {0.5, 0.5}));
    SplittableRandom random = new SplittableRandom(5);
    int n = 200_000;
    int teachers = 0;
    int reinforced = 0;
    int abstained = 0;
    for (int i = 0; i < n; i++) {
      Answer a = agg.answer(v, random);
      teachers += a instanceof Answer.Labelled ? 1 : 0;
      abstained += a instanceof Answer.Abstained ? 1 : 0;
      Answer b = confident.answer(v, random);
      reinforced += b instanceof Answer.Reinforced r && r.label() == 0 ? 1 : 0;
    }
    double pTeachers = StandardNormal.cdf((1 - 2) / 1.5);
    double tolerance = 5 * Math.sqrt(0.25 / n);
    assertThat(teachers / (double) n).isCloseTo(pTeachers, within(tolerance));
    // γ = 0.55 above the student's 0.5: no reinforcement, so every other query abstains
    assertThat(abstained / (double) n).isCloseTo(1 - pTeachers, within(tolerance));
    assertThat(reinforced / (double) n).isCloseTo(1 - pTeachers, within(tolerance));
  }

  @Test
  void theDataIndependentAccountingIsConfidentGnmaxsAndAReinforcedLabelCostsOnlyItsCheck() {
    PateAggregator.InteractiveGnmax agg = aggregator(200, 150, 40, 0.9, Map.of());
    PateAggregator.ConfidentGnmax same = new PateAggregator.ConfidentGnmax(200, 150, 40);
    assertThat(agg.checkEvent()).isEqualTo(same.checkEvent());
    assertThat(agg.answerEvent()).isEqualTo(same.answerEvent());
    assertThat(agg.checkMuSquared()).isEqualTo(1 / 22500.0);
    assertThat(agg.answerMuSquared()).isEqualTo(2 / 1600.0);
    // a student that agrees with unanimous teachers: every query is reinforced, so the filter,
    // charging only the checks, reaches all of them where Confident-GNMax stops early
    List<Votes> rows = new ArrayList<>();
    Map<String, double[]> student = new HashMap<>();
    for (int q = 0; q < 400; q++) {
      rows.add(new Votes("q" + q, new int[] {250, 0, 0}));
      student.put("q" + q, new double[] {1, 0, 0});
    }
    VoteTable table = VoteTable.of(rows);
    PateAggregator.InteractiveGnmax interactive = aggregator(200, 150, 40, 0.9, student);
    PateRun run = PateRun.answerUntil(table, interactive, new ApproxDp(1, 1e-5),
        new SplittableRandom(9));
    PateRun confident = PateRun.answerUntil(table, same, new ApproxDp(1, 1e-5),
        new SplittableRandom(9));
    assertThat(run.processed()).isGreaterThan(confident.processed());
    assertThat(run.answers()).allMatch(a -> !(a instanceof Answer.Abstained));
    long reinforced = run.answers().stream().filter(a -> a instanceof Answer.Reinforced).count();
    assertThat(reinforced + run.answered()).isEqualTo(run.processed());
    assertThat(reinforced).isGreaterThan(run.processed() / 2);
  }

  @Test
  void badStudentPredictionsAreRefusedNamingTheQuery() {
    assertThatThrownBy(() -> aggregator(1, 1, 1, 0.5, Map.of("q7", new double[] {0.7, 0.7})))
        .hasMessageContaining("q7").hasMessageContaining("sum to 1");
    assertThatThrownBy(() -> aggregator(1, 1, 1, 0.5, Map.of("q7", new double[] {1.2, -0.2})))
        .hasMessageContaining("q7");
    assertThatThrownBy(() -> aggregator(1, 1, 1, 1.5, Map.of()))
        .hasMessageContaining("studentConfidence");
    PateAggregator.InteractiveGnmax agg = aggregator(1, 1, 1, 0.5,
        Map.of("q1", new double[] {0.5, 0.5}));
    assertThatThrownBy(() -> agg.answer(new Votes("q2", new int[] {3, 2}),
        new SplittableRandom(1))).hasMessageContaining("q2");
    assertThatThrownBy(() -> agg.answer(new Votes("q1", new int[] {3, 2, 0}),
        new SplittableRandom(1))).hasMessageContaining("classes");
    assertThatThrownBy(() -> GnssRelease.of(20, 10).requireConditions(agg, 2))
        .hasMessageContaining("interactive-gnmax");
  }

  static AuditResult audit(PateAggregator agg, ApproxDp claimed, int samples) {
    Votes d = new Votes("q", new int[] {6, 4});
    Votes dPrime = new Votes("q", new int[] {5, 5});
    AuditCase<Votes, Integer> auditCase = new AuditCase<>("interactive-gnmax",
        (votes, random) -> code(agg.answer(votes, random)), d, dPrime, claimed, EventFamily.of(List.of(OutputEvent.equalTo(-1),
            OutputEvent.equalTo(0), OutputEvent.equalTo(1), OutputEvent.equalTo(10))));
    return PrivacyAuditor.withSamples(samples).audit(auditCase, new SplittableRandom(13));
  }

  /** The teachers' class c as c, the student's as 10 + c, an abstention as −1. */
  static int code(Answer a) {
    if (a instanceof Answer.Labelled l) {
      return l.label();
    }
    return a instanceof Answer.Reinforced r ? 10 + r.label() : -1;
  }

  static final Map<String, double[]> UNSURE_STUDENT = Map.of("q", new double[] {0.5, 0.5});

  @Test
  void theAuditorsLowerBoundStaysBelowTheDataIndependentEpsilon() {
    PateAggregator agg = aggregator(0.5, 1.5, 1.5, 0.5, UNSURE_STUDENT);
    ApproxDp claimed = PateRun.allQueries(VoteTable.of(List.of(new Votes("q", new int[] {6, 4}))),
        agg, 1e-5, new SplittableRandom(1)).guarantee();
    AuditResult result = audit(agg, claimed, 400_000);
    assertThat(result.passed()).as("%s", result).isTrue();
    assertThat(result.epsilonLowerBound()).as("%s", result).isGreaterThan(0.3);
  }

  @Test
  void aCheckWithoutItsNoiseFailsTheAudit() {
    // σ₁ ≈ 0: D (disagreement 1) always goes to the teachers, D′ (0) always to the student
    PateAggregator broken = aggregator(0.5, 1e-9, 1.5, 0.5, UNSURE_STUDENT);
    ApproxDp claimed = PateRun.allQueries(VoteTable.of(List.of(new Votes("q", new int[] {6, 4}))),
        aggregator(0.5, 1.5, 1.5, 0.5, UNSURE_STUDENT), 1e-5, new SplittableRandom(1))
        .guarantee();
    AuditResult result = audit(broken, claimed, 20_000);
    assertThat(result.passed()).as("%s", result).isFalse();
  }
}
