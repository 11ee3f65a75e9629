; Z80 speed benchmark for spectrum/z80.py (bench/z80_speed.py assembles this with pasmo --bin).
; A CPU-bound mix: 8-bit ALU, 16-bit arithmetic, loads, (HL) and (IX+d) accesses, jumps, calls,
; returns, DJNZ, CB rotates and bit tests, LDIR. Runs OUTER passes, then reaches 'done' (trapped).
OUTER   equ 2600

        org 8000h
start:  di
        ld sp, 0FF00h
        ld bc, OUTER
outer:  push bc
        ; --- 8-bit ALU, loads and (IX+d) over a table
        ld ix, table
        ld b, 16
        ld c, 5
        ld de, 0102h
alu:    ld a, (ix+0)
        add a, (ix+1)
        ld (ix+2), a
        xor c
        and 7Fh
        or e
        sub d
        sbc a, 3
        cp 40h
        jr c, small
        ld c, a
        jp nextal
small:  adc a, c
        ld e, a
nextal: inc ix
        djnz alu
        ; --- 16-bit arithmetic
        ld hl, 1234h
        ld de, 0FEDh
        ld b, 8
arith:  add hl, de
        adc hl, bc
        sbc hl, de
        inc hl
        dec de
        ex de, hl
        djnz arith
        ; --- (HL) accesses, CB rotates and bit tests
        ld hl, table
        ld b, 32
cbl:    ld a, (hl)
        rlca
        rl (hl)
        srl a
        bit 3, a
        jr z, cbz
        set 1, (hl)
        jr cbn
cbz:    res 1, (hl)
cbn:    bit 7, (hl)
        rr c
        inc hl
        djnz cbl
        ; --- calls and returns
        ld hl, buf
        ld b, 8
cl:     call sub1
        inc hl
        djnz cl
        ; --- block copy
        ld hl, table
        ld de, buf
        ld bc, 64
        ldir
        pop bc
        dec bc
        ld a, b
        or c
        jp nz, outer
done:   halt

sub1:   push bc
        ld a, (hl)
        inc a
        ld (hl), a
        call sub2
        pop bc
        ret
sub2:   cp 80h
        ret nc
        add a, l
        ld (hl), a
        ret

table:  db 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5
        db 0, 2, 8, 8, 4, 1, 9, 7, 1, 6, 9, 3, 9, 9, 3, 7, 5, 1, 0, 5, 8, 2, 0, 9, 7, 4, 9, 4, 4, 5, 9, 2
buf:    ds 64
