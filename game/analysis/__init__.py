"""Judging, for the review, the tutor and the dice on trial: a record replayed and checked,
each play and cube action judged, the verdicts and totals, the dice's statistics. It needs only
the model: not a page (game/pages/), not a file (game/matchfiles/, game/files/)."""
