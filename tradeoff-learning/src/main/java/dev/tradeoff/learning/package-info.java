/**
 * Private teachers for [DaRRM24, Section 6.2]: L2-regularised logistic regression, its differentially private trainers (DP-SGD of
 * Abadi et al. 2016 and output perturbation of Chaudhuri, Monteleoni and Sarwate 2011), the data
 * readers and the teacher ensemble whose 0/1 votes the private majority aggregates.
 */
package dev.tradeoff.learning;
