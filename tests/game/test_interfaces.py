"""The program's two interfaces (game/interfaces.py) are met by every machine and screen it
is given: the real Spectrum48 and the tests' StandInMachine; game/board/screen.py's Screen."""
import roms
from game.board import screen as S
from game.interfaces import Machine, Screen
from game.zx.basic import Basic
from gamedriver import StandInMachine
from spectrum.machine import Spectrum48


def test_the_real_48k_and_the_stand_in_are_both_machines():
    assert isinstance(Spectrum48(roms.ROM_PATH), Machine)
    assert isinstance(StandInMachine(), Machine)
    assert not isinstance(object(), Machine)


def test_a_usr_trap_gives_usr_its_value_on_the_stand_in():
    machine = StandInMachine()
    machine.set_usr_trap(0x8000, lambda: 0x12345)
    assert machine.usr(0x8000) == 0x2345              # BC is 16 bits
    assert machine.usr(0x8001) == 0x8001              # no trap: USR gives its address back


def test_the_board_screen_is_a_screen():
    machine = StandInMachine()
    basic = Basic(machine, {"PRINT_A": 0x0010})
    assert isinstance(S.Screen(basic.memory, basic.print_at), Screen)
