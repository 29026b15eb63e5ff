/** Private majority of teacher ensembles per query: DaRRM (Zhang, Jagielski et al., TMLR 2024) and GNMax (Papernot et al. 2018). */
package dev.tradeoff.beam.majority;
