package dev.tradeoff.cli;

import dev.tradeoff.audit.AuditedMechanism;
import java.util.random.RandomGenerator;

/**
 * The mechanisms and randomness sources {@code tradeoff audit} runs. The CLI builds its audit
 * cases (neighbouring inputs, claimed guarantee, events) in {@link AuditCases}; this interface is
 * the one place that decides <em>which implementation</em> of each mechanism is audited, so the
 * production mechanisms of {@code tradeoff-mechanisms} plug in here without touching the command.
 */
interface AuditableMechanisms {

  /** Laplace mechanism on a sensitivity-1 real value with noise scale {@code scale}. */
  AuditedMechanism<Double, Double> laplace(double scale);

  /** Binary randomized response (keeps the bit with probability e^ε / (1 + e^ε)). */
  AuditedMechanism<Integer, Integer> randomizedResponse(double epsilon);

  /** The production randomness source (cryptographically secure). */
  RandomGenerator secureRandomness();

  /** An explicitly seeded, reproducible randomness source. */
  RandomGenerator seededRandomness(long seed);
}
