"""Proofs that something cannot be: checked certificates of refutations (today: DRUP proofs of
SAT refutations, :mod:`.drup`); counting relaxations and score bounds are to come (issue 12)."""
