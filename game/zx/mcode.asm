; game/zx/mcode.asm: the game's machine-code block, loaded from tape by LOAD "" CODE.
; USR_ENTRY is where the host's PC trap calls the C evaluator bg_usr(memory, PARAMS)
; and puts its result in BC; the RET then returns to the caller as USR does.
; Assemble: pasmo --bin game/zx/mcode.asm game/zx/mcode.bin game/zx/mcode.sym

        ORG 0F000h
USR_ENTRY:
        ret
PARAMS:                         ; the request block; layout in native/bg.h
        DEFS 512
MCODE_END:
