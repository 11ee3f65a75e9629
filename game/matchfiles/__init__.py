"""Match files: the Jellyfish .mat and GNU Backgammon's .sgf read into a match record (checked
by replay) and written out, the .sgf with the analysis. Not the player's own options and save
(game/files/), not the pages that show an imported match (game/pages/)."""
