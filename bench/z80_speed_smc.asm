; Self-modifying mix for bench/z80_speed.py (assembled with pasmo --bin): each pass patches operands and one
; opcode inside a running loop, then regenerates 96 bytes of straight-line code (32 x ADD A,n / INC E, the
; n different every pass) and calls it once -- the way sprite routines, decompressors and test harnesses
; work. Runs PASSES passes, then reaches 'done' (trapped).
PASSES  equ 400

        org 8000h
start:  di
        ld sp, 0FF00h
        ld bc, PASSES
pass:   push bc
        ; --- operands and an opcode patched inside a running loop
        ld b, 48
ploop:  ld a, b
        ld (op1 + 1), a         ; the operand of ADD A,n below
        add a, c
        ld (op2 + 1), a         ; the operand of LD E,n below
        ld a, (op3)
        xor 1                   ; INC D (14h) <-> DEC D (15h)
        ld (op3), a
op1:    add a, 0
op2:    ld e, 0
op3:    inc d
        xor e
        ld h, a
        djnz ploop
        ; --- 96 bytes of straight-line code regenerated, then called once
        pop bc
        push bc
        ld hl, gen
        ld d, c                 ; the immediates depend on the pass
        ld b, 32
gloop:  ld (hl), 0C6h           ; ADD A,n
        inc hl
        ld (hl), d
        inc hl
        ld (hl), 1Ch            ; INC E
        inc hl
        inc d
        djnz gloop
        ld (hl), 0C9h           ; RET
        call gen
        pop bc
        dec bc
        ld a, b
        or c
        jp nz, pass
done:   halt

gen:    ds 97
