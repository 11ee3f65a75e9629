"""The human's side typed on a GameDriver: one legal play for the turn in progress (the
engine's first legal play, step by step), and a game played to its end that way, ENTER
answered wherever it is asked. Used by the scenes' tests. Not a test."""
from game.board import screen as S
from game.model import rules
from game.model.position import Position
from gamedriver import GameDriver


def play_human_turn(driver: GameDriver) -> None:
    """Type one legal play for the turn in progress (the engine's first), step by step."""
    turn = driver.game.state.turn
    play = rules.legal_plays(turn.start, turn.dice)[0]
    for step in play.steps:
        letter = Position.letter_of_index(step.from_index)
        driver.type(f"{letter}{step.die}\n")


def play_to_end(driver: GameDriver, max_loops: int = 20000) -> str:
    """The game played to its end; the line that names the winner."""
    for _ in range(max_loops):
        lines = driver.text()
        if any("WIN" in line for line in lines):
            return next(line for line in lines if "WIN" in line).strip()
        if "Your move?" in lines[S.MESSAGE_ROW]:
            play_human_turn(driver)
            driver.run(2)
        elif "ENTER" in lines[S.MESSAGE_ROW]:
            driver.type("\n")
        else:
            driver.run(5)
    raise AssertionError("the game did not end")
