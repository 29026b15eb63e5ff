package dev.tradeoff.beam.label;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.audit.AuditCase;
import dev.tradeoff.audit.AuditResult;
import dev.tradeoff.audit.EventFamily;
import dev.tradeoff.audit.OutputEvent;
import dev.tradeoff.audit.PrivacyAuditor;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.learning.features.ColumnEncoder;
import dev.tradeoff.learning.features.FeatureMap;
import dev.tradeoff.mechanisms.random.Randomness;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * A statistical privacy test of {@link Aggregator#DP_MAJORITY} end to end on a dataset pair that
 * differs by one record: the teacher trained exactly as the pipeline trains it
 * ({@link TrainTeachers#teacher}: noisy partition size, DP-SGD, the run's calibrated noise), then
 * the label of one query. The one record is the only example of its class, placed on the query,
 * so a non-private teacher's label flips with it (the auditor sees that as an unbounded ε); the
 * DP teacher's label must not give the auditor a lower bound above the charged ε.
 */
class DpMajorityAuditTest {

  static final CsvSchema SCHEMA = CsvSchema.training(new String[] {"label", "x"}, "audit");
  static final ClassSet CLASSES = new ClassSet(List.of("a", "b"));
  static final Featurizer FEATURES = new Featurizer.Table(new FeatureMap(List.of(
      new ColumnEncoder.Ranged("x", 0, -1, 1))));
  static final List<String> D = List.of("b,-1", "b,-0.5");
  static final List<String> D_PRIME = List.of("b,-1", "b,-0.5", "a,1");
  static final String[] QUERY = {"1"};

  static AuditResult audit(PartitionTrainer trainer, ApproxDp claimed, int samples) {
    AuditCase<List<String>, Integer> auditCase = new AuditCase<>("dp-majority",
        (rows, random) -> TrainTeachers.teacher(0, rows, SCHEMA, CLASSES, FEATURES, trainer,
            ElementRandomness.seeded(random.nextLong())).vote(FEATURES.features(QUERY)),
        D, D_PRIME, claimed, EventFamily.of(List.of(OutputEvent.equalTo(0),
            OutputEvent.equalTo(1))));
    return PrivacyAuditor.withSamples(samples).audit(auditCase, Randomness.seeded(3));
  }

  @Test
  void theAuditorsLowerBoundStaysBelowTheChargedEpsilon() {
    // few DP-SGD steps, so that many runs fit in a test; the noise is calibrated as in a real run
    LabelPrivacy privacy = LabelPrivacy.derive(new LabelPrivacy.Target(new ApproxDp(1, 1e-5),
        Aggregator.DP_MAJORITY, 1, OptionalDouble.empty(), new LabelPrivacy.Training(0.5, 5, 1, 2)),
        1);
    AuditResult result = audit(privacy.trainer(), privacy.total(), 20_000);
    assertThat(result.passed()).as("%s", result).isTrue();
    assertThat(result.epsilonLowerBound()).isLessThan(privacy.total().epsilon());
    // the pair has power: the record moves the DP teacher's label measurably
    assertThat(result.epsilonLowerBound()).as("%s", result).isPositive();
  }

  @Test
  void aNonPrivateTeacherOnTheSamePairFailsTheAudit() {
    AuditResult result = audit(PartitionTrainer.Softmax.nonPrivate(), new ApproxDp(1, 1e-5),
        2_000);
    assertThat(result.passed()).as("%s", result).isFalse();
    assertThat(result.epsilonLowerBound()).isGreaterThan(3);
  }
}
