"""The review of a finished game and its files: replaying the record (replay), judging each
play and cube action (judge), its pages on the screen (pages), the .sgf and .mat exports.
Not the match being played (game/scenes/), not the settings or saves (game/files/)."""
