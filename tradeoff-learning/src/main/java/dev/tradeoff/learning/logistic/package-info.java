/**
 * L2-regularised logistic regression (Chaudhuri, Monteleoni and Sarwate 2011, eq. (1)): the loss,
 * its gradient, a linear model, and a deterministic solver with a certified distance to the optimum.
 */
package dev.tradeoff.learning.logistic;
