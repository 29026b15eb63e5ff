/**
 * The experiments of [ExPost25]: Figure 1 ({@link
 * dev.tradeoff.selection.experiment.InvocationCurves}) and Table 1 on synthetic message boards
 * ({@link dev.tradeoff.selection.experiment.AnswerCountExperiment}); see REPRODUCTION.md, "Ex-post
 * tuning".
 */
package dev.tradeoff.selection.experiment;
