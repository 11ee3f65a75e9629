"""The scenes' Game (game/scenes/state.py) in its four parts: the table, the game state, the
prompt and the saving, each small and fixed in shape, and what a new game starts from. Not the
scenes that use them (the other tests of this folder)."""
import dataclasses

import pytest

from game.files.settings import Settings
from game.model.dice import Dice
from game.model.match import COMPUTER, HUMAN, Match
from game.model.position import Position
from game.scenes.state import Game, GameState, Prompt, Saving, Table
from game.zx.usr import first_legal_play

MAX_ATTRIBUTES = 12                    # issue 49: no part holds more


class _Quiet:
    """Stands in for the BASIC layer and the screen: nothing here draws or beeps."""


def a_game(settings: Settings | None = None, **where) -> Game:
    table = Table(_Quiet(), _Quiet(), Dice(1), first_legal_play, settings or Settings())
    return Game(table, **where)


@pytest.mark.parametrize("part", [Game, Table, GameState, Prompt, Saving])
def test_rule_no_part_of_a_game_holds_more_than_12_attributes(part):
    assert 0 < len(part.__slots__) <= MAX_ATTRIBUTES


def test_a_game_holds_its_four_parts_and_its_listener_only():
    board_game = a_game()
    assert Game.__slots__ == ("table", "state", "prompt", "saving", "on_event")
    with pytest.raises(AttributeError):         # the flat Game of before: its names are gone
        board_game.screen = _Quiet()
    with pytest.raises(AttributeError):
        board_game.state.double_wanted = True  # a prompt flag, not the state's


@pytest.mark.parametrize("players,typed", [
    ("human-computer", {HUMAN: True, COMPUTER: False}),
    ("human-human", {HUMAN: True, COMPUTER: True}),
    ("computer-computer", {HUMAN: False, COMPUTER: False}),
])
def test_a_new_game_types_the_sides_the_players_option_names(players, typed):
    state = a_game(Settings(players=players)).state
    assert state.typed == typed and (state.bottom, state.top) == (HUMAN, COMPUTER)
    assert state.two_players == (players == "human-human")


def test_a_new_game_starts_from_the_usual_position_in_a_new_money_session():
    board_game = a_game(Settings(cube=False))
    state = board_game.state
    assert state.position == Position.start() and state.at == (Position.start(), None, None)
    assert state.match.length is None and not state.match.cube_enabled   # the options' cube
    assert state.turn is None and state.dice_shown is None and state.resume is None
    assert state.replay == [] and board_game.prompt == Prompt()          # nothing asked yet
    assert board_game.saving == Saving() and board_game.on_event is None


def test_a_game_in_a_match_from_a_set_up_board_keeps_both():
    match = Match(5)
    start = Position.from_points({6: 2}, {6: 2})
    state = a_game(start=start, match=match, resume=(HUMAN, (3, 1), [(7, 3)])).state
    assert state.match is match and state.position == start and state.at[0] == start
    assert state.resume == (HUMAN, (3, 1), [(7, 3)])
    assert state.held_for(COMPUTER) == start.swapped() and state.held_for(HUMAN) == start


def test_the_prompts_of_two_games_are_their_own():
    first, second = a_game(), a_game()
    first.prompt.board_clicks["cube"] = "d"
    assert second.prompt.board_clicks == {} and second.state.replay is not first.state.replay


def test_saving_without_a_keeper_saves_and_says_nothing():
    saving = Saving()
    saving.autosave()
    saving.autosave(between_games=True)
    saving.forget()
    assert saving.take_unsaid() is None


def test_a_command_without_a_turn_being_typed_is_a_clear_error():
    with pytest.raises(RuntimeError, match="no turn is being typed"):
        a_game().state.typed_turn()


def test_the_table_is_a_plain_record_of_what_it_was_given():
    table = a_game(Settings(level=3)).table
    assert [f.name for f in dataclasses.fields(table)] == [
        "basic", "screen", "dice", "chooser", "settings", "cube_policy"]
    assert table.settings.level == 3 and table.cube_policy is None
