/**
 * Private selection and hyperparameter tuning with ex-post guarantees 
 * [ExPost25]: Algorithm 2 with
 * Theorem 10 ({@link dev.tradeoff.selection.expost.RandomDroppingAboveThreshold}), Algorithm 3 with
 * geometric dropping and Theorem 11 ({@link dev.tradeoff.selection.expost.RandomDroppingTuner}) or
 * exponential dropping and Theorem 13 ({@link
 * dev.tradeoff.selection.expost.RenyiRandomDroppingTuner}), Theorem 12's repetition counts ({@link
 * dev.tradeoff.selection.expost.RepetitionCount}) and the law of the number of runs behind Figure 1
 * ({@link dev.tradeoff.selection.expost.RunCountDistribution}). Candidates are user code ({@link
 * dev.tradeoff.selection.expost.Candidate}) with a stated guarantee; randomness is explicit.
 */
package dev.tradeoff.selection.expost;
