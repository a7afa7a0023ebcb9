"""verifiers_train: the training and evaluation extension of `verifiers` (verl data, rewards, runs, eval)."""

__all__: list[str] = []
