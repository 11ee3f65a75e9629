"""The dice: an injectable, seedable source of die throws so every game can be replayed.
Not the drawing of dice (game/board/screen.py) and not the rules of using them
(game/model/rules.py)."""
import random
from collections.abc import Iterable, Iterator


class Dice:
    """Throws six-sided dice. `Dice(seed=7)` replays the same game; `Dice.scripted([...])`
    returns the given faces in order (then continues from a seeded generator)."""

    def __init__(self, seed: int | None = None, faces: Iterable[int] = ()):
        self.seed = seed
        self._rng = random.Random(seed)
        self._scripted: Iterator[int] = iter(list(faces))
        self.thrown: list[int] = []            # every face thrown, for replay and tests

    @classmethod
    def scripted(cls, faces: Iterable[int], seed: int | None = 0) -> "Dice":
        faces = list(faces)
        for face in faces:
            if not 1 <= int(face) <= 6:
                raise ValueError(f"a die shows 1 to 6, not {face}")
        return cls(seed=seed, faces=faces)

    def die(self) -> int:
        """One die."""
        face = next(self._scripted, None)
        if face is None:
            face = self._rng.randint(1, 6)
        self.thrown.append(face)
        return face

    def pair(self) -> tuple[int, int]:
        """Two dice, as a player throws them for a turn."""
        return self.die(), self.die()

    def flicker(self) -> int:
        """A face for the rolling animation only; does not consume the scripted or seeded
        stream, so the animation never changes which numbers a game gets."""
        return random.randint(1, 6)
