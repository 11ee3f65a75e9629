"""Rough edges a player met while play-testing the program (QA), each pinned by a test:
messages that must fit the 32-column line, keys that must do what the help says."""
import roms
from game.board import screen as S
from game.files.settings import Settings
from game.model.dice import Dice
from game.model.match import BLACK, COMPUTER, HUMAN, WHITE
from game.model.position import Position
from game.scenes.game_over import fit_banner
from game.words import result_words
from gamedriver import GameDriver, board

HUMAN_STARTS = [1, 3]             # the human wins the opening throw with 3-1


def test_take_back_with_nothing_moved_fits_the_message_line():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS))
    driver.until("Your move?")
    driver.type("T\n")
    driver.until("Press", row=23)
    assert driver.message().endswith("Press ENTER")


def test_demo_chosen_mid_game_then_quit_plays_white_against_black():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS + [4, 2]), settings=Settings())
    driver.until("Your move?")
    driver.type("O\n")
    driver.until("OPTIONS")
    driver.type("CC\n")                       # players: human v human, then the demo
    driver.until("Your move?")
    driver.resign_single()
    driver.until("plays", row=23)
    assert driver.game.state.match.sides == (WHITE, BLACK)
    assert driver.message().startswith(("White plays", "Black plays"))


def test_match_length_changed_mid_game_then_quit_starts_the_new_match():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS * 3), settings=Settings())
    driver.until("Your move?")
    driver.type("O\n")
    driver.until("OPTIONS")
    driver.type("5")
    driver.until("Match length")
    driver.type("3\n\n")
    driver.until("Your move?")
    driver.resign_single()
    driver.until("Your move?")
    assert driver.game.state.match.length == 3


def test_set_dice_opening_prompt_says_whose_die_is_typed_first():
    driver = GameDriver(settings=Settings(set_dice=True))
    driver.until("Opening", row=23)
    assert driver.message().startswith("Opening: my die, yours?")
    driver.type("1 3\n")                      # mine 1, yours 3: you start with 3-1
    driver.until("You start with 3 and 1")


def test_set_dice_opening_prompt_names_the_sides_for_two_players():
    driver = GameDriver(settings=Settings(set_dice=True, players="human-human"))
    driver.until("Opening", row=23)
    assert driver.message().startswith("Opening: Black's, White's?")



def banner(driver) -> str:
    return driver.text()[S.BOTTOM_FIRST_ROW - 1].strip()


def test_two_player_game_over_banner_is_whole_on_the_line():
    settings = Settings(players="human-human")
    driver = GameDriver(dice=Dice.scripted([1, 3]), settings=settings,
                        start=board({0: 1}, {5: 10}))
    driver.until("White's move?")
    driver.type("a3\n")
    driver.until("WINS")
    assert banner(driver).startswith("WHITE WINS") and banner(driver).endswith(")")


def test_fit_banner_keeps_every_result_within_32_columns():
    for who in ("YOU WIN", "I WIN", "WHITE WINS", "BLACK WINS"):
        for kind in (1, 2, 3):
            for cube in (1, 2, 4, 8, 16, 32, 64):
                words = fit_banner(f"{who} {result_words(kind, kind * cube)}")
                assert len(words) <= 32 and words.startswith(who) and words.endswith(")")
        for loser in (HUMAN, COMPUTER, WHITE, BLACK):
            words = fit_banner(f"{who}: {result_words('drop', 64, loser)}")
            assert len(words) <= 32 and words.endswith(")")


def test_game_over_banner_does_not_cut_the_centred_cube_in_half():
    driver = GameDriver(dice=Dice.scripted([1, 3]), start=board({0: 1}, {5: 10}))
    driver.until("Your move?")
    assert S.read_cube(driver.machine.memory) == (1, None)
    driver.type("a3\n")
    driver.until("YOU WIN")
    memory = driver.machine.memory
    top_half = [memory[S.bitmap_addr(col, S.CUBE_ROW[None] * 8 + line)]
                for col in range(S.CUBE_COL, S.CUBE_COL + S.CUBE_COLS) for line in range(8)]
    assert not any(top_half)                  # no half cube left above the banner


def test_last_man_borne_off_with_the_exact_lower_die_is_accepted():
    # one white man on a, 3-1: a1 takes him off as a3 would; rule 4's "the higher" is met
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), start=board({0: 1}, {5: 10}))
    driver.until("Your move?")
    driver.type("a1\n")
    driver.until("YOU WIN")
    assert driver.log[-1] == "human 31 a3"


def test_lower_die_that_would_not_bear_the_man_off_keeps_the_refusal():
    from game.model import rules
    from game.scenes.human_turn import same_man_off_with_higher
    from native import lib
    turn = rules.Turn(board({2: 1}, {5: 10}), (6, 1))
    why = lib.BG_STEP_HIGHER_DIE
    assert same_man_off_with_higher(turn, 2, 1, why) is None      # c1 only moves him to b
    assert same_man_off_with_higher(turn, 2, 6, why) is None      # the higher die itself
    assert same_man_off_with_higher(turn, 0, 1, lib.BG_STEP_BLOCKED) is None


def test_match_over_screen_says_one_point_in_the_singular():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), settings=Settings(match_length=1),
                        start=board({0: 1}, {5: 10}))
    driver.until("Your move?")
    driver.type("a3\n")
    driver.until("Press any key", row=23)
    driver.type(" ")
    driver.until("MATCH OVER")
    page = "\n".join(driver.text())
    assert "1 point to 0" in page and "1 points" not in page


def test_key_that_ends_the_pip_count_starts_the_next_move():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS))
    driver.until("Your move?")
    driver.type("P\n")
    driver.until("Pips:", row=23)
    driver.type("h3\n")                       # typed at once, over the pip count
    driver.until("Your move?")
    assert driver.game.state.turn.made == [(7, 3)]


def test_console_keys_type_punctuation_through_symbol_shift():
    # --keys "3-1" or a position ID with "/" and "+" crashed the headless console
    from types import SimpleNamespace

    from game.main import Runner
    from game.zx.basic import rom_ready
    from gamedriver import rom_symbols
    from spectrum.machine import Spectrum48
    machine = Spectrum48(roms.ROM_PATH)
    symbols = rom_symbols()
    while not rom_ready(machine):
        machine.run_frame()
    runner = SimpleNamespace(machine=machine, holding=False)
    for ch in "?-/+3a":
        Runner.type_key(runner, ch)
        machine.run_frame()
        machine.keyboard.release_all()
        for _ in range(3):
            machine.run_frame()
        assert chr(machine.peek(symbols["LAST_K"])) == ch


def test_window_shift_slash_types_a_question_mark_and_shift_equals_a_plus():
    # a PC keyboard's "?" and "+" (for set-up's ? and a position ID) typed nothing
    import pygame

    from spectrum import display
    from spectrum.pattern_rom import pattern_machine
    from spectrum.window_options import WindowOptions
    machine = pattern_machine()
    seen = []
    presses = [(pygame.K_SLASH, "?"), (pygame.K_EQUALS, "+"), (pygame.K_a, "A")]

    every = 10                     # frames between presses: a stroke and its gap are 8

    def on_frame(m):
        step, at = divmod(len(seen), every)
        if step < 3 and at == 0:
            key, char = presses[step]
            if step:
                pygame.event.post(pygame.event.Event(pygame.KEYUP, key=presses[step - 1][0]))
                pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_LSHIFT))
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LSHIFT,
                                                 mod=0, unicode=""))
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=char))
        elif step == 3:
            pygame.event.post(pygame.event.Event(pygame.QUIT))
        seen.append({name for name in ("CAPS SHIFT", "SYMBOL SHIFT", "C", "K", "A")
                     if m.keyboard.is_pressed(name)})
        return len(seen) < 40

    loop = display.DisplayLoop(machine, on_frame, WindowOptions(scale=1, fast=True))
    assert loop.run_window() == 0
    assert seen[1] == {"SYMBOL SHIFT", "C"}          # ? = SYMBOL SHIFT + C
    assert seen[every + 1] == {"SYMBOL SHIFT", "K"}  # + = SYMBOL SHIFT + K
    assert seen[2 * every + 1] == {"CAPS SHIFT", "A"}   # a capital letter is still CAPS + A


def test_demo_throws_again_after_a_tied_opening_without_a_key():
    settings = Settings(players="computer-computer", speed="quick")
    driver = GameDriver(dice=Dice.scripted([4, 4, 3, 1, 6, 2]), settings=settings)
    driver.until("plays", row=23, max_frames=600)
    assert driver.log[:2] == ["opening 4 4", "opening 3 1"]


def test_instructions_tell_a_new_player_that_h_lists_the_other_keys():
    from game.pages import instructions
    last = " ".join(instructions.page_lines(len(instructions.PAGES) - 1))
    assert "H to see every other key" in last
    for page in range(len(instructions.PAGES)):          # still clear of the footer row
        assert len(instructions.page_lines(page)) <= S.ROWS - 3


def test_setup_board_counts_take_the_board_styles_panel_colours():
    from game.scenes import setup_board
    from game.zx.basic import Basic
    from gamedriver import SYMBOLS, StandInMachine
    basic = Basic(StandInMachine(), dict(SYMBOLS))
    for style in ("classic", "midnight", "tournament"):
        screen = S.Screen(basic.memory, basic.print_at, style=style)
        setup_board.show(screen, Position.start().board, redraw=True)
        for row in (setup_board.BLACK_COUNT_ROW, setup_board.WHITE_COUNT_ROW):
            for col in range(S.PANEL_COL, S.PANEL_COL + 4):
                assert basic.memory[S.attr_addr(screen.column(col), row)] == screen.panel_attr


def test_help_says_where_the_set_up_board_is_reached():
    # S is only in the options shown between games; "S in options" sent players to the
    # options at "Your move?", which have no S
    from game.scenes.keys import HELP_PAGES
    words = " ".join(" ".join(lines) for _title, lines in HELP_PAGES)
    assert "O between games" in words and "S in options" not in words


def test_resume_offer_with_a_two_digit_score_keeps_its_y_n(tmp_path, monkeypatch):
    from game.files.session import Session, save_session
    from game.model.match import Match
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(tmp_path))
    settings = Settings(match_length=25)
    session = Session(settings)
    match = Match(25)
    match.score[HUMAN], match.score[COMPUTER] = 12, 11
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), settings=settings, session=session,
                        match=match)
    driver.until("Your move?")
    assert save_session(session)
    again = GameDriver(dice=Dice.scripted([]), settings=settings, session=Session(settings),
                       resume=True)
    again.until("12-11", row=23)
    assert again.message().endswith("(Y/N)")


def test_wrong_key_at_a_two_player_double_keeps_the_question_whole():
    settings = Settings(players="human-human")
    driver = GameDriver(dice=Dice.scripted([1, 3, 3, 1]), settings=settings)
    driver.until("White's move?")
    driver.type("h3\n")
    driver.until("White's move?")
    driver.type("f1\n")
    driver.until("Black: ENTER rolls, D doubles")
    driver.type("d")
    driver.until("Black doubles to 2. Take? (Y/N)")
    driver.type("x")                            # neither Y nor N: asked again
    driver.run(4)
    assert driver.message().endswith(("Take?", "(Y/N)"))
