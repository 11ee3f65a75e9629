"""The emitter alone (spectrum/z80_emit.py): memory writes by the machine's map, exits and
loop-backs, and an op function, written from records and plans built here."""
from spectrum.z80_bus import CONTENTION_48K
from spectrum.z80_decode import Decoder
from spectrum.z80_emit import Emitter
from spectrum.z80_operands import Expr, Template
from spectrum.z80_passes import Block, Exit, LoopBack
from spectrum.z80_records import Store
from spectrum.z80_timing import timing

ROM_TOP = 0x4000


def test_a_write_known_now_is_dropped_in_rom_logged_on_the_screen_and_plain_elsewhere():
    contended, plain = Emitter(ROM_TOP, CONTENTION_48K), Emitter(ROM_TOP, None)
    assert contended.store(Store(0x1000, "a", "wa"), {"twa": 10}, 3) == []
    assert contended.store(Store(0x4000, "a", "wa"), {"twa": 10}, 3) == \
        ["S._screen_write(16384, a, t + 13)"]
    assert plain.store(Store(0x4000, "a", "wa"), {}, 3) == ["M[16384] = a"]
    assert contended.store(Store(0x5C48, "a", "wa"), {"twa": 10}, 3) == ["M[23624] = a"]


def test_a_write_known_at_run_time_checks_the_map_then():
    emitter = Emitter(ROM_TOP, CONTENTION_48K)
    lines = emitter.store(Store("(h << 8 | l)", "a", "wa"), {"twa": "twa"}, 0)
    assert lines == ["wa = (h << 8 | l)", "if wa >= 23296: M[wa] = a",
                     "elif wa >= 16384: S._screen_write(wa, a, twa)"]
    assert Emitter(0, None).store(Store("wa", "v", "wa"), {}, 0) == ["M[wa] = v"]


def test_exits_and_loop_backs_read_like_what_they_do():
    once = Block(0x8000, [], False, [], [], [], 30)
    loop = Block(0x8000, [], True, [], [], [], 30)
    assert Emitter.exit(Exit(0x9000, 12, 2, "f"), once) == \
        ["S.q = f; npc = 36864; exit_t = 12; exit_m1 = 2; break"]
    assert Emitter.exit(Exit("v", 20, 3, "0", "v != 32771"), loop) == \
        ["if v != 32771:", "    S.q = 0; npc = v; exit_t = 20; exit_m1 = m1_done + 3; break"]
    assert Emitter.loop_back(LoopBack(26, 3, "0", "32768 <= wa < 32772"), loop) == [
        "t += 26", "m1_done += 3", "if t + 30 < limit and not (32768 <= wa < 32772): continue",
        "S.q = 0; npc = 32768; exit_t = 0; exit_m1 = m1_done; break"]


def test_an_op_function_loads_what_its_record_reads_and_stores_what_it_writes():
    ins = Decoder(Template({0: 0x80})).decode(Expr("pc", 0))          # ADD A,B
    source = Emitter(0, None).op_function(ins, timing(ins, None), [])
    assert source.splitlines() == [
        "def op(S, M, pc):", "    a = S.a", "    b = S.b",
        "    f = ADDF[a << 8 | b]", "    a = (a + b) & 255", "    npc = ((pc + 1) & 65535)",
        "    S.tstates += 4; S._rc += 1; S.q = f", "    S.a = a", "    S.f = f", "    return npc"]
