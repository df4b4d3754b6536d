"""Simulation and balance: many seeded games, statistics with confidence intervals."""
