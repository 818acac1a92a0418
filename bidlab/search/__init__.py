"""Search over bridge auctions: test-time joint policy search (Tian et al. 2020) and belief
Monte Carlo search (Qiu et al. 2024). Each module is imported on its own."""
