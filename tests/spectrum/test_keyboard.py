"""The key matrix through port 0xFE: each of the 40 keys reaches its half-row and bit,
several rows selected at once are ANDed, several keys at once; and the PC key map."""
import pytest

from spectrum import hw
from spectrum.keyboard import KEY_NAMES, KEY_POSITIONS, KeyMatrix
from spectrum.ula import Ula

# docs/HARDWARE.md §6, typed out independently of hw.KEYBOARD_ROWS
MATRIX = {
    0xFEFE: ["CAPS SHIFT", "Z", "X", "C", "V"],
    0xFDFE: ["A", "S", "D", "F", "G"],
    0xFBFE: ["Q", "W", "E", "R", "T"],
    0xF7FE: ["1", "2", "3", "4", "5"],
    0xEFFE: ["0", "9", "8", "7", "6"],
    0xDFFE: ["P", "O", "I", "U", "Y"],
    0xBFFE: ["ENTER", "L", "K", "J", "H"],
    0x7FFE: ["SPACE", "SYMBOL SHIFT", "M", "N", "B"],
}
ALL_KEYS = [(port, bit, name) for port, names in MATRIX.items() for bit, name in enumerate(names)]


def test_there_are_40_keys():
    assert len(KEY_NAMES) == 40 and len(ALL_KEYS) == 40


@pytest.mark.parametrize("port, bit, name", ALL_KEYS)
def test_each_key_reaches_its_half_row_and_bit(port, bit, name):
    u = Ula()
    u.keyboard.press(name)
    for other_port in MATRIX:
        value = u.port_in(other_port, 0)
        expected_low = 0x1F & ~(1 << bit) if other_port == port else 0x1F
        assert value & 0x1F == expected_low, f"{name} seen on {other_port:#06x}"
    assert u.port_in(0x00FE, 0) & 0x1F == 0x1F & ~(1 << bit)      # all rows at once
    u.keyboard.release(name)
    assert u.port_in(port, 0) & 0x1F == 0x1F


def test_several_selected_rows_are_anded():
    u = Ula()
    u.keyboard.press("Z")          # row 0 bit 1
    u.keyboard.press("D")          # row 1 bit 2
    u.keyboard.press("P")          # row 5 bit 0
    assert u.port_in(0xFCFE, 0) & 0x1F == 0b11001      # rows 0 and 1
    assert u.port_in(0xDEFE, 0) & 0x1F == 0b11100      # rows 0 and 5
    assert u.port_in(0xFDFE, 0) & 0x1F == 0b11011


def test_several_keys_at_once_in_one_row():
    k = KeyMatrix()
    k.set_pressed(["CAPS SHIFT", "0"])                  # DELETE
    assert k.read(0xFE) == 0b11110 and k.read(0xEF) == 0b11110
    k.set_pressed(["Q", "W", "T"])
    assert k.read(0xFB) == 0b01100                      # E and R still up
    k.release_all()
    assert all(k.read(1 << i ^ 0xFF) == 0x1F for i in range(8))


def test_positions_match_the_hardware_table():
    for row, (port, names) in enumerate(hw.KEYBOARD_ROWS):
        assert MATRIX[port] == list(names)
        for bit, name in enumerate(names):
            assert KEY_POSITIONS[name] == (row, bit)


def test_unknown_key_name_is_a_clear_error():
    with pytest.raises(KeyError, match="no Spectrum key named 'F13'"):
        KeyMatrix().press("F13")


def test_pc_letters_digits_enter_space_backspace_and_shifts_map_to_the_matrix():
    import pygame

    from spectrum.display import pc_key_map
    keys = pc_key_map(pygame)
    for c in "abcdefghijklmnopqrstuvwxyz":
        assert keys[getattr(pygame, f"K_{c}")] == (c.upper(),)
    for d in "0123456789":
        assert keys[getattr(pygame, f"K_{d}")] == (d,)
    assert keys[pygame.K_RETURN] == ("ENTER",) and keys[pygame.K_SPACE] == ("SPACE",)
    assert set(keys[pygame.K_BACKSPACE]) == {"CAPS SHIFT", "0"}
    assert keys[pygame.K_LSHIFT] == keys[pygame.K_RSHIFT] == ("CAPS SHIFT",)
    assert keys[pygame.K_LCTRL] == ("SYMBOL SHIFT",)
    for names in keys.values():
        assert all(name in KEY_POSITIONS for name in names)
