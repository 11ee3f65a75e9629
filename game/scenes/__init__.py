"""The scenes of a game, each a module that reads alone: the opening throw, the cube, the
human's turn (with its command table), the computer's turn, the game over, the match's
end and setting up a board. state.Game holds what they share, turn_loop.py plays one game
over them; game/program.py runs game after game."""
