"""Every page the window shows outside the board's own play: the menus and options, the
instructions, the review's pages, the rollout, dice and import pages. Generators, one yield a
frame. Not the judging (game/analysis/), not the scenes of the match (game/scenes/)."""
