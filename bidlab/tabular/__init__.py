"""Tabular layer: the small collaborative games of Tian et al. 2020 (Sec. 6), exact evaluation of
joint policies, vanilla CFR with purification, the policy-change density (Eqs. 3, 5), and Joint
Policy Search (Alg. 1), full and sample-based, with a brute-force check."""
