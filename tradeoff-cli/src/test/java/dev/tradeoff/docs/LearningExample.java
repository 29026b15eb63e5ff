package dev.tradeoff.docs;

import dev.tradeoff.learning.data.BinaryTask;
import dev.tradeoff.learning.data.Dataset;
import dev.tradeoff.learning.logistic.LogisticRegression;
import dev.tradeoff.learning.teachers.TeacherEnsemble;
import dev.tradeoff.learning.teachers.TeacherTrainer;
import dev.tradeoff.learning.teachers.TrainingProgress;
import dev.tradeoff.learning.teachers.VoteMatrix;
import dev.tradeoff.mechanisms.random.Randomness;

/** docs/learning.md. */
final class LearningExample {
  private LearningExample() {}

  static double run() {
    // [example]
    BinaryTask task = BinaryTask.shipped(5, 8); // shipped Fashion-MNIST sandals vs bags, 7x7
    Dataset train = task.train().withBiasUnitNorm(1);
    Dataset test = task.test().withBiasUnitNorm(1);
    TeacherEnsemble teachers = TeacherEnsemble.train(train, 11, 1,
        new TeacherTrainer.NonPrivate(new LogisticRegression(1e-3)),
        Randomness.seeded(1), TrainingProgress.none());
    VoteMatrix votes = teachers.votes(test); // one row of 11 votes per test example
    int correct = 0;
    for (int q = 0; q < votes.queries(); q++) {
      correct += votes.majority(q) == test.label(q) ? 1 : 0;
    }
    double accuracy = (double) correct / votes.queries(); // about 0.98
    // [/example]
    return accuracy;
  }
}
