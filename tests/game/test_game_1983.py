"""A whole game under the 1983 rules (--1983) through the real window loop: the console's
Runner in a DisplayLoop on SDL's dummy driver, keys posted as pygame events, the screen read
back through the machine's own font every frame. Nothing the 1983 program could not have
shown is ever on the screen (no cube, no score, no "D doubles", no command pages), a later
command is an illegal entry, QUIT starts a new game and no score is kept."""
import json
import re
import time

import pytest

from game.board import screen as S
from game.model import rules
from game.model.position import Position
from screentext import screen_text
from windowdriver import Player, window_config

# the player's options ask for everything the card lacks: --1983 must hold them all off
FULL_OPTIONS = {"cube": True, "match_length": 3, "confirm_turn": True, "tutor": "?",
                "who_starts": "human", "set_dice": True, "sound": False, "speed": "quick"}
# words of the later programs (the cube, a match, the score, the commands' pages, the other
# options) that the 1983 program never showed; "double" and "point" alone are the card's own
NEVER = ("cube", "doubles", "doubling", "take?", "score", "match", "point)", "points)",
         "gammon", "pip", "tutor", "ready?", "resume", "review", "advice", "crawford",
         "level", "options", "demo", "dice for", "rolls", "roll out", "version", "help")
NEVER_SEEN = re.compile("|".join(rf"(?<![a-z]){re.escape(word)}" for word in NEVER))
SCREEN_BYTES = slice(0x4000, 0x5B00)              # the bitmap and the attributes
SEED = 3
LEVEL = 1


@pytest.fixture
def config(tmp_path, monkeypatch):
    return window_config(tmp_path, monkeypatch, FULL_OPTIONS)


class Hands:
    """The player: instructions read page by page, each turn the engine's first play typed
    step by step, A tried once (an illegal entry), QUIT typed in the first game's third
    turn, the second game played to its end, then any key."""

    def __init__(self):
        self.seen: set[str] = set()
        self.pixels, self.text = b"", []
        self.done: set = set()
        self.games: list = []
        self.quit_typed = False
        self.a_typed = False
        self.banner = None
        self.words_at_a = None
        self.turns: list = []                    # the typed turns seen, kept (ids unique)

    def read(self, p) -> list[str]:
        """The screen as text, read again only when its memory changed since last frame;
        each new screen is checked for words the 1983 program never showed."""
        pixels = bytes(p.machine.memory[SCREEN_BYTES])
        if pixels != self.pixels:
            self.pixels, self.text = pixels, screen_text(p.machine)
            bad = NEVER_SEEN.findall("\n".join(self.text).lower())   # not "Backgammon"
            assert not bad, f"{bad} on the screen:\n" + "\n".join(self.text)
            self.seen.update(line.strip() for line in self.text)
        return self.text

    def __call__(self, p) -> bool:
        text = self.read(p)
        lower = "\n".join(text).lower()
        board_game = p.game
        if board_game is not None and (not self.games or self.games[-1] is not board_game):
            self.games.append(board_game)
        if p.typing or p.held is not None:
            return True
        message = text[S.MESSAGE_ROW]
        if "instructions?" in lower:
            return self.once(p, "instructions", "y")
        if "Press any key to go on" in text[-1]:
            return self.once(p, ("page", text[0]), " ")
        if "WIN" in text[S.BOTTOM_FIRST_ROW - 1]:
            self.banner = text[S.BOTTOM_FIRST_ROW - 1].strip()
            return self.once(p, ("banner", len(self.games)), "x")
        if self.banner is not None and len(self.games) == 3:
            return False                        # the third game begun: done
        if p.at_move_prompt():
            return self.move(p, board_game)
        if message.startswith("I play") and board_game.state.turn is None:
            # a key cuts my play's reading time short (the 1983 program has nothing to say to
            # a key then: it is dropped, never a double)
            actions = board_game.state.match.record.games[-1].actions
            return self.once(p, ("read", id(board_game), len(actions)), " ")
        if "Press ENTER" in message:
            if self.a_typed and self.words_at_a is None:
                self.words_at_a = message.strip()
            state = board_game.state
            return self.once(p, ("enter", id(state.turn), message, state.position), "\n")
        return True

    def once(self, p, what, keys: str) -> bool:
        if what not in self.done:
            self.done.add(what)
            p.type(keys)
        return True

    def move(self, p, board_game) -> bool:
        turn = board_game.state.turn
        if not self.a_typed:
            self.a_typed = True
            p.type("a\n")                       # advice in FULL: an illegal entry here
            return True
        if turn not in self.turns:
            self.turns.append(turn)
        if len(self.games) == 1 and len(self.turns) >= 3 and not self.quit_typed:
            self.quit_typed = True
            p.type("quit\n")
            return True
        plan = rules.legal_plays(turn.start, turn.dice)[0].steps
        step = plan[len(turn.made)]
        return self.once(p, (id(turn), len(turn.made)),
                         f"{Position.letter_of_index(step.from_index)}{step.die}\n")


def test_a_whole_1983_game_in_the_window_shows_only_what_the_card_describes(config):
    hands = Hands()
    player = Player(seed=SEED, frames=40_000, keys="", level=LEVEL, rules="1983")
    assert player.runner.title.endswith("1983 rules")
    started = time.perf_counter()
    player.run(hands)
    print(f"{player.count} frames, {time.perf_counter() - started:.1f} s")
    assert len(hands.games) == 3, f"stopped after {player.count} frames"
    assert hands.words_at_a == "Not a move, e.g. k4. Press ENTER"
    assert "Game abandoned. A new game..." in hands.seen
    assert hands.banner in ("YOU WIN", "I WIN")
    first, second, third = (g.state.match for g in hands.games)
    assert first is not second is not third
    assert not first.results                        # QUIT: the game left, nothing scored
    assert len(second.results) == 1                 # the game played out, in its own match
    assert not third.results and set(third.score.values()) == {0}
    assert all(m.length is None and not m.cube_enabled for m in (first, second, third))
    assert not (config / "savegame.json").exists()  # the 1983 rules keep no save
    assert json.loads((config / "settings.json").read_text()) == FULL_OPTIONS
