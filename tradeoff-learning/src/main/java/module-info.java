/**
 * Private teachers (DP-SGD and output perturbation for logistic and softmax regression), their
 * features and the dataset readers.
 */
module dev.tradeoff.learning {
  requires transitive dev.tradeoff.accounting;
  requires transitive dev.tradeoff.mechanisms;
  requires transitive dev.tradeoff.selection;

  exports dev.tradeoff.learning.data;
  exports dev.tradeoff.learning.dpsgd;
  exports dev.tradeoff.learning.features;
  exports dev.tradeoff.learning.logistic;
  exports dev.tradeoff.learning.perturbation;
  exports dev.tradeoff.learning.softmax;
  exports dev.tradeoff.learning.teachers;
}
