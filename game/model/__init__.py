"""The backgammon model: the position, the dice, the rules and the evaluator asked of the
C engine, the match with its cube and score, and the record of what was played.
Nothing here draws, prints or touches the machine; no screen, no files."""
