/**
 * The experiments of [ExPost25]: Figure 1 ({@link
 * dev.tradeoff.experiments.expost.InvocationCurves}) and Table 1 on synthetic message boards
 * ({@link dev.tradeoff.experiments.expost.AnswerCountExperiment}); see REPRODUCTION.md, "Ex-post
 * tuning".
 */
package dev.tradeoff.experiments.expost;
