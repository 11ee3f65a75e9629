"""The program that runs on the 48K, as the 1983 BASIC listing did: the instructions, then
game after game of a match until the machine is switched off. A generator: one `yield` is
one 50 Hz frame. The scenes are game/scenes/; rules from game/model/rules.py, drawing from
game/board/screen.py."""
from game import instructions
from game.files import savegame
from game.board import screen as S
from game.model.dice import Dice
from game.interfaces import Chooser, CubePolicy
from game.model.match import Match
from game.model.position import Position
from game.scenes import match_end
from game.scenes.game_over import game_over
from game.scenes.resume import offer_resume, short_warning
from game.scenes.state import Game
from game.scenes.timing import WARNING_FRAMES
from game.files.session import Session
from game.files.settings import Settings, short_words
from game.zx.usr import first_legal_play


def program(basic, dice: Dice | None = None, chooser: Chooser | None = None,
            ask_instructions: bool = True, games: list | None = None,
            start: Position | None = None, settings: Settings | None = None,
            cube_policy: CubePolicy | None = None, session: Session | None = None,
            warning: str | None = None, export_dir=None,
            resume: bool = False, match: Match | None = None):
    """The whole program after the tape has loaded; runs until the machine is switched off.
    `start`: the first game's position (human on roll), for tests; later games start
    from the usual position. `settings`: the options (game/files/settings.py; defaults if None),
    `warning` a line to show first (a damaged settings file). `cube_policy`: the computer's
    cube decisions (game/zx/usr.py evaluator_cube); None: it never doubles and always takes.
    `session` is kept up to date and autosaves into its slot; `resume`: offer a saved game
    first (a session without a slot then gets the default one, so the match goes on being
    saved).
    For tests: `start` may be a list (the first games' positions, in order) and `match` the
    first match (a game already started in it keeps its cube). The computer's level is
    the chooser's and the options' business."""
    settings = settings or Settings()
    session = session or Session(settings)
    session.settings = settings
    if resume and session.slot is None:
        session.slot = savegame.Autosave()
    basic.silent = basic.silent or not settings.sound
    screen = S.Screen(basic.memory, basic.print_at)
    if warning:                                 # a damaged settings file: the defaults
        screen.message(short_warning(warning, short_words(warning)))
        yield from basic.pause(WARNING_FRAMES)
    carry_on = (yield from offer_resume(basic, screen, session)) if resume else None
    if ask_instructions and carry_on is None:
        session.tell("prompt", {"asks": "instructions"})
        yield from instructions.offer(basic)
    table = dict(basic=basic, screen=screen, dice=dice or Dice(),
                 chooser=chooser or first_legal_play, settings=settings,
                 cube_policy=cube_policy, export_dir=export_dir, keeper=session)
    starts = list(start) if isinstance(start, (list, tuple)) else [start]
    while True:
        start = starts.pop(0) if starts else None
        resume_turn = None
        if carry_on is not None and carry_on[0] == "between":
            match, carry_on = carry_on[1], None          # resumed between two games
        elif carry_on is not None:
            match, start, side, saved_dice, typed = carry_on
            resume_turn, carry_on = (side, saved_dice, typed), None
        elif match is None or not match.in_game and match.is_over:
            if session.game is not None:                 # the last one over or left
                session.forget()
            match = match_end.new_match(settings)
        session.match = match
        game = Game(start=start, match=match, resume=resume_turn, **table)
        session.game = game
        if games is not None:
            games.append(game)                  # for tests and the console's --seed replay
        match = yield from after_game(game, (yield from game.play()), starts)


def after_game(game: Game, result, starts: list):
    """What follows a game's end (a result, 'quit' or 'stop'): the banner, the match-over
    page, the options between games. Returns the match to play on in, or None for a new
    one; a board set up between games goes to the front of `starts`."""
    basic, screen, settings, match = game.basic, game.screen, game.settings, game.match
    if result in ("quit", "stop"):
        match_end.abandon(match)
    if match.is_over:
        game.forget_save()
    else:
        game.autosave(between_games=True)
    if result == "quit":
        yield from match_end.abandoned(basic, screen)
        return match if match_end.fits(match, settings) else None
    key = "stop" if result == "stop" else (yield from game_over(basic, screen, result, game))
    if key == "stop":                           # a key stopped the demo
        yield from match_end.demo_over(basic, screen, settings)
        starts[:0] = [(yield from match_end.between_games(basic, screen, settings, game))]
        return None
    if match.is_over:
        yield from match_end.match_over(basic, screen, game)
        return None
    if key in (ord("o"), ord("O")):
        starts[:0] = [(yield from match_end.between_games(basic, screen, settings, game))]
    return match if match_end.fits(match, settings) else None
