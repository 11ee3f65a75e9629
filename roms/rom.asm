; roms/rom.asm: Spectrum Backgammon's own 16 KiB ROM for the emulated 48K (assemble with pasmo).
; Reset, IM 1 frame/keyboard handler, RST 10h printing with control codes, CLS, scrolling,
; BEEP, BORDER, an edge-timing tape loader (LD_BYTES) and LOAD_FILE with the header display.
; It is not the Sinclair ROM and holds no BASIC interpreter: only what our programs call.
; The routines the game uses sit at the standard 48K entry points with the 48K's register
; conventions (game/zx/rom48.py); the loader's own entry points reach Python through roms/rom.sym.

; ---------------------------------------------------------------- system variables
; At their usual 48K addresses (docs/HARDWARE.md).
KSTATE          EQU 23552       ; here: +0 key code held (0 none), +1 frames to next repeat
LAST_K          EQU 23560
REPDEL          EQU 23561
REPPER          EQU 23562
TVDATA          EQU 23566       ; +0 control code waiting for operands, +1 first operand
CHARS           EQU 23606
RASP            EQU 23608
PIP             EQU 23609
ERR_NR          EQU 23610
FLAGS           EQU 23611
TV_FLAG         EQU 23612
ERR_SP          EQU 23613
BORDCR          EQU 23624
VARS            EQU 23627
PROG            EQU 23635
DF_SZ           EQU 23659
SEED            EQU 23670
FRAMES          EQU 23672
UDG             EQU 23675
COORDS          EQU 23677
LD_FLAG         EQU 23681       ; (unused on the 48K) flag byte LD_BYTES looks for
DF_CC           EQU 23684
S_POSN          EQU 23688       ; +0 33 - column, +1 24 - line
SCR_CT          EQU 23692
ATTR_P          EQU 23693
MASK_P          EQU 23694
ATTR_T          EQU 23695
MASK_T          EQU 23696
P_FLAG          EQU 23697       ; bit 0 OVER, bit 2 INVERSE (temporary); bits 1, 3 permanent
MEMBOT          EQU 23698       ; 30 bytes; the first 8 build a block-graphics glyph
TAPE_SP         EQU 23728       ; (NMIADD, unused on the 48K) SP inside LD_BYTES, for BREAK
RAMTOP          EQU 23730
P_RAMT          EQU 23732
PROG_START      EQU 23755       ; where a BASIC program goes on a bare 48K

HDR_BUF         EQU 5B00h       ; printer buffer: the 17-byte header LOAD_FILE reads
LD_TYPE         EQU 5B11h       ; file type LOAD_FILE wants (0FFh any)
LD_DEST         EQU 5B12h       ; destination it was given (0 = from the header)
LD_MODE         EQU 5B14h       ; LD_BYTES: 0FFh LOAD, 0 VERIFY
HOST_BUF        EQU 5B20h       ; free for the host's strings (to 5BFFh)

SCREEN          EQU 4000h
ATTRS           EQU 5800h
UDG_DEFAULT     EQU 0FF58h
RAMTOP_DEFAULT  EQU 0FF57h
STACK_TOP       EQU 0FF58h
DEFAULT_ATTR    EQU 38h         ; paper white, ink black

; Report codes in ERR_NR (report letter's number - 1; 0FFh = OK)
ERR_OK          EQU 0FFh
ERR_BREAK       EQU 12          ; D BREAK - CONT repeats
ERR_TAPE        EQU 26          ; R Tape loading error

; ---------------------------------------------------------------- tape loader timing
; LD_EDGE counts one in B every EDGE_LOOP_T T-states while it waits for EAR to change.
; Thresholds are counts (B) measured with a standard pulse train (figures beside each);
; tests/roms/test_rom.py loads pulse trains 15% short and 20% long through them.
EDGE_LOOP_T     EQU 63
PILOT_PAIR_MIN  EQU 53          ; two pilot pulses (4336 T) count about 65, a 1 bit 51
PILOT_PAIR_MAX  EQU 90
SYNC_MAX        EQU 20          ; a sync pulse (667/735 T) counts about 9, a pilot one 33
BIT_THRESHOLD   EQU 37          ; a 0 bit (2 x 855 T) counts about 24, a 1 bit (2 x 1710 T) 51
PILOT_PAIRS     EQU 256         ; pilot pulse pairs needed before the sync is looked for
LDERR_BREAK     EQU 1           ; LD_BYTES failure reasons, in A with carry clear
LDERR_CHECKSUM  EQU 2
LDERR_TIMEOUT   EQU 3
LDERR_VERIFY    EQU 4
BORDER_PILOT    EQU 2           ; red, toggling with cyan (2 xor 7)
BORDER_DATA     EQU 1           ; blue, toggling with yellow (1 xor 7)

; ---------------------------------------------------------------- BEEPER timing
; As the 48K ROM's BEEPER (game/zx/rom48.py gives the source): every half-cycle of the tone
; lasts BEEP_HALF_FIXED_T + BEEP_HALF_PER_COUNT_T * HL T-states, and DE + 1 full cycles
; sound, so  frequency_hz = 3500000 / (2 * (118 + 4 * HL)).
; (Uncontended timing: the stack must not sit in 4000h-7FFFh for exact pitch.)
BEEP_HALF_FIXED_T EQU 118
BEEP_HALF_PER_COUNT_T EQU 4

; ================================================================ restarts
; The standard 48K entry points (RST 10h, 0038h, KEY-SCAN 028Eh, KEYBOARD 02BFh, BEEPER
; 03B5h, LD-BYTES 0556h, CL-ALL 0DAFh, CL-SET 0DD9h, CHAN-OPEN 1601h) take their registers
; as on the 48K; each jumps to our own routine. Every other address up to 1604h is empty.
        ORG 0000h
RESET:
        di
        jp START

        DEFS 0008h - $, 0FFh
ERROR_RST:                      ; RST 8 / DEFB code: ERR_NR = code, unwind to ERR_SP
        jp ERROR_BODY

        DEFS 0010h - $, 0FFh
PRINT_RST:                      ; RST 10h: print the character or control code in A
        jp PRINT_A

        DEFS 0038h - $, 0FFh
; ---------------------------------------------------------------- IM 1: every frame
IM1_HANDLER:
        push af
        push hl
        ld hl,(FRAMES)
        inc hl
        ld (FRAMES),hl
        ld a,h
        or l
        jr nz,im1_keys
        ld hl,FRAMES+2
        inc (hl)
im1_keys:
        push bc
        push de
        call KEYBOARD
        pop de
        pop bc
        pop hl
        pop af
        ei
        ret

        DEFS 0066h - $, 0FFh
NMI_HANDLER:
        retn

; The standard entry points (docs/HARDWARE.md): at each address a jump to our own routine,
; FFh bytes between them.
ENTRY_AT MACRO address, body
        DEFS address - $, 0FFh
        jp body
        ENDM
KEY_SCAN        EQU 028Eh
KEYBOARD        EQU 02BFh
BEEPER          EQU 03B5h
LD_BYTES        EQU 0556h
CL_ALL          EQU 0DAFh
CL_SET          EQU 0DD9h
CHAN_OPEN       EQU 1601h
        ENTRY_AT KEY_SCAN, KEY_SCAN_BODY
        ENTRY_AT KEYBOARD, KEYBOARD_BODY
        ENTRY_AT BEEPER, BEEPER_BODY
        ENTRY_AT LD_BYTES, LD_BYTES_BODY
        ENTRY_AT CL_ALL, CL_ALL_BODY
        ENTRY_AT CL_SET, CL_SET_BODY
        ENTRY_AT CHAN_OPEN, CHAN_OPEN_BODY

ERROR_BODY:
        pop hl
        ld a,(hl)
        ld (ERR_NR),a
        ld sp,(ERR_SP)
        ret

; ================================================================ reset
START:
        ld hl,SCREEN            ; clear all RAM
        ld de,SCREEN+1
        ld bc,0BFFFh
        ld (hl),0
        ldir
        ld sp,STACK_TOP
        ld hl,FONT-256
        ld (CHARS),hl
        ld hl,UDG_DEFAULT
        ld (UDG),hl
        ld hl,RAMTOP_DEFAULT
        ld (RAMTOP),hl
        ld hl,0FFFFh
        ld (P_RAMT),hl
        ld hl,PROG_START
        ld (PROG),hl
        ld (VARS),hl
        ld a,35
        ld (REPDEL),a
        ld a,5
        ld (REPPER),a
        ld a,64
        ld (RASP),a
        ld a,ERR_OK
        ld (ERR_NR),a
        ld a,2
        ld (DF_SZ),a
        ld a,DEFAULT_ATTR
        ld (ATTR_P),a
        ld hl,FONT+8*('A'-32)   ; the UDGs start as copies of A..U
        ld de,UDG_DEFAULT
        ld bc,21*8
        ldir
        ld a,7
        call BORDER
        call CLS
        ld hl,IDLE
        push hl
        ld (ERR_SP),sp
        ld b,23
        ld c,0
        call POS_SET
        ld hl,MSG_SIGNON
        call PR_ZSTR
        im 1
; The machine's resting loop (the host runs ROM routines with IDLE as return address).
IDLE:
        ei
        halt
        jr IDLE
IDLE_END:

; ================================================================ keyboard
; KEYBOARD (from IM 1): a new key, or a held key once REPDEL then every REPPER frames,
; goes to LAST_K with FLAGS bit 5 set. The code comes from KEY_TABLE by the key value
; KEY_SCAN gives; an invalid combination counts as no key.
KEYBOARD_BODY:
        call KEY_SCAN_BODY
        ld a,0
        jr nz,kb_code           ; an invalid combination
        ld a,e
        inc a
        jr z,kb_code            ; no key (A = 0)
        ld hl,KEY_TABLE
        ld b,0
        ld c,e
        add hl,bc
        ld c,40
        ld a,d
        cp KEYV_CAPS
        jr nz,kb_not_caps
        add hl,bc
kb_not_caps:
        cp KEYV_SYMBOL
        jr nz,kb_look
        add hl,bc
        add hl,bc
kb_look:
        ld a,(hl)
kb_code:                        ; A = code of the key held, 0 = none
        ld hl,KSTATE
        or a
        jr nz,kb_key
        ld (hl),a
        ret
kb_key:
        cp (hl)
        jr z,kb_held
        ld (hl),a
        inc hl
        ld b,a
        ld a,(REPDEL)
        ld (hl),a
        ld a,b
        jr kb_new
kb_held:
        inc hl
        dec (hl)
        ret nz
        ld b,a
        ld a,(REPPER)
        ld (hl),a
        ld a,b
kb_new:
        ld (LAST_K),a
        ld hl,FLAGS
        set 5,(hl)
        ret

; KEY_SCAN: the 40 keys by key value: 27h - half-row (FEFE first) - 8 * bit. Out: E = the
; key pressed (FFh none), D = the shift held with it (KEYV_CAPS/KEYV_SYMBOL, FFh none);
; a single key, shift or not, comes back in E; both shifts give D = CAPS, E = SYMBOL.
; Zero flag reset: three keys or more, or two keys neither of them a shift.
KEYV_CAPS       EQU 27h
KEYV_SYMBOL     EQU 18h
KEY_SCAN_BODY:
        ld de,0FFFFh            ; E = the first key found, D = a second one
        ld bc,0FEFEh
        ld l,27h                ; the key value of bit 0 in this half-row
ks_row:
        in a,(c)
        cpl
        and 1Fh
        ld h,a
        ld a,l
ks_bit:
        srl h
        jr nc,ks_next_bit
        inc e
        jr z,ks_first
        dec e
        inc d
        ret nz                  ; a third key (the flags say NZ)
        ld d,a
        jr ks_next_bit
ks_first:
        ld e,a
ks_next_bit:
        sub 8
        inc h
        dec h
        jr nz,ks_bit
        dec l
        rlc b
        jr c,ks_row
        ld a,d
        inc a
        ret z                   ; none or one key
        ld a,e                  ; two keys: the shift goes to D
        cp KEYV_CAPS
        jr z,ks_swap
        cp KEYV_SYMBOL
        jr z,ks_swap
        ld a,d
        cp KEYV_CAPS
        ret z
        cp KEYV_SYMBOL
        ret                     ; NZ: two keys and no shift
ks_swap:
        ld a,d
        ld d,e
        ld e,a
        cp a
        ret

; Key codes by key value 00h-27h: plain, with CAPS SHIFT, with SYMBOL SHIFT.
KEY_TABLE:
        ; plain: key values 00h-27h
        DEFB 'b','h','y','6','5','t','g','v','n','j'
        DEFB 'u','7','4','r','f','c','m','k','i','8'
        DEFB '3','e','d','x',0,'l','o','9','2','w'
        DEFB 's','z',020h,00Dh,'p','0','1','q','a',0
        ; CAPS SHIFT: key values 00h-27h
        DEFB 'B','H','Y',00Ah,8,'T','G','V','N','J'
        DEFB 'U',00Bh,5,'R','F','C','M','K','I',9
        DEFB 4,'E','D','X',0,'L','O',00Fh,6,'W'
        DEFB 'S','Z',020h,00Dh,'P',00Ch,7,'Q','A',0
        ; SYMBOL SHIFT: key values 00h-27h
        DEFB '*','^','[','&','%','>','}','/',',','-'
        DEFB ']',027h,'$','<','{','?','.','+',0,'('
        DEFB '#',0,05Ch,'`',0,'=',';',')','@',0
        DEFB '|',':',020h,00Dh,022h,'_','!',0,'~',0

; ================================================================ printing
; PRINT_A (RST 10h): A = a character 32..127 (font at CHARS+256), 128..143 (block
; graphics), 144..164 (UDGs at UDG), or a control code: 8 back, 13 ENTER, 16 INK,
; 17 PAPER, 18 FLASH, 19 BRIGHT, 20 INVERSE, 21 OVER (one operand each), 22 AT (line,
; column). Colours go to ATTR_T/MASK_T; 8 as an operand of INK..BRIGHT is "transparent".
; Past column 31 the next character wraps; past line 23 the screen scrolls.
; Keeps BC, DE, HL, IX, IY.
PRINT_A:
        push hl
        push de
        push bc
        call PR_CHAR
        pop bc
        pop de
        pop hl
        ret

PR_CHAR:
        ld c,a
        ld a,(TVDATA)
        or a
        jp nz,pr_operand
        ld a,c
        cp 32
        jr c,pr_control
        cp 128
        jr c,pr_font
        cp 144
        jr c,pr_mosaic
        cp 165
        jr c,pr_udg
        ld a,'?'                ; BASIC tokens: not ours to spell
pr_font:
        ld l,a
        ld h,0
        add hl,hl
        add hl,hl
        add hl,hl
        ld de,(CHARS)
        add hl,de
        jp PR_GLYPH
pr_udg:
        sub 144
        ld l,a
        ld h,0
        add hl,hl
        add hl,hl
        add hl,hl
        ld de,(UDG)
        add hl,de
        jp PR_GLYPH
pr_mosaic:                      ; bit 0 top right, 1 top left, 2 bottom right, 3 bottom left
        sub 128
        ld b,a
        call mos_half
        ld hl,MEMBOT
        call mos_store
        rr b
        rr b
        call mos_half
        call mos_store
        ld hl,MEMBOT
        jp PR_GLYPH
mos_half:
        xor a
        bit 1,b
        jr z,mos_right
        or 0F0h
mos_right:
        bit 0,b
        ret z
        or 0Fh
        ret
mos_store:
        ld (hl),a
        inc hl
        ld (hl),a
        inc hl
        ld (hl),a
        inc hl
        ld (hl),a
        inc hl
        ret

pr_control:
        cp 13
        jr z,pr_enter
        cp 8
        jr z,pr_back
        cp 16
        ret c
        cp 23
        ret nc
        ld (TVDATA),a           ; 16..22 wait for an operand
        ret
pr_back:
        call POS_GET
        ld a,c
        or a
        ret z
        dec c
        jp POS_SET
pr_enter:
        call POS_GET
        ld c,0
        inc b
        ld a,b
        cp 24
        jp c,POS_SET
        call SCROLL
        ld b,23
        jp POS_SET

pr_operand:                     ; A = waiting code, C = operand
        cp 22
        jr z,pr_at_line
        cp 80h+22
        jr z,pr_at_column
        ld b,a
        xor a
        ld (TVDATA),a
        ld a,b
        sub 16
        jr z,op_ink
        dec a
        jr z,op_paper
        dec a
        jr z,op_flash
        dec a
        jr z,op_bright
        dec a
        jr z,op_inverse
        ld b,01h                ; OVER
        jr op_pflag
op_inverse:
        ld b,04h
op_pflag:
        ld hl,P_FLAG
        ld a,c
        or a
        ld a,b
        jr z,op_pflag_off
        or (hl)
        ld (hl),a
        ret
op_pflag_off:
        cpl
        and (hl)
        ld (hl),a
        ret
op_ink:
        ld b,07h
        ld a,c
        jr op_field
op_paper:
        ld b,38h
        ld a,c
        rlca
        rlca
        rlca
        jr op_field
op_flash:
        ld b,80h
        ld a,c
        rrca
        jr op_field
op_bright:
        ld b,40h
        ld a,c
        rrca
        rrca
op_field:                       ; B = the attribute field, A = operand moved into it
        and b
        ld e,a
        ld a,c
        cp 8
        jr z,op_transparent
        ret nc                  ; 9 and above: ignored
        ld a,b
        cpl
        ld d,a
        ld hl,ATTR_T
        ld a,(hl)
        and d
        or e
        ld (hl),a
        ld hl,MASK_T
        ld a,(hl)
        and d
        ld (hl),a
        ret
op_transparent:
        ld hl,MASK_T
        ld a,(hl)
        or b
        ld (hl),a
        ret

pr_at_line:
        ld a,c
        ld (TVDATA+1),a
        ld a,80h+22
        ld (TVDATA),a
        ret
pr_at_column:
        xor a
        ld (TVDATA),a
        ld a,(TVDATA+1)
        cp 24
        ret nc                  ; off the screen: ignored
        ld b,a
        ld a,c
        cp 32
        ret nc
        jp POS_SET

; PR_GLYPH: HL = 8 bytes of a glyph; print it at the print position, honouring
; INVERSE and OVER (P_FLAG) and ATTR_T/MASK_T; then move one column on.
PR_GLYPH:
        push hl
        call POS_GET
        ld a,c
        cp 32
        jr c,pg_column_ok
        ld c,0
        inc b
pg_column_ok:
        ld a,b
        cp 24
        jr c,pg_line_ok
        call SCROLL
        ld b,23
pg_line_ok:
        call CELL_ADDR
        ex de,hl                ; DE = screen
        pop hl                  ; HL = glyph
        push bc
        ld a,(P_FLAG)
        ld c,a
        ld b,8
pg_row:
        ld a,(hl)
        bit 2,c
        jr z,pg_no_inverse
        cpl
pg_no_inverse:
        bit 0,c
        jr z,pg_no_over
        ex de,hl
        xor (hl)
        ex de,hl
pg_no_over:
        ld (de),a
        inc hl
        inc d
        djnz pg_row
        pop bc
        call ATTR_ADDR
        ld a,(MASK_T)
        ld e,a
        and (hl)
        ld d,a                  ; old bits the mask keeps
        ld a,e
        cpl
        ld e,a
        ld a,(ATTR_T)
        and e
        or d
        ld (hl),a
        inc c
        jp POS_SET

; POS_GET: B = line, C = column of the print position (from S_POSN).
POS_GET:
        ld hl,(S_POSN)
        ld a,33
        sub l
        ld c,a
        ld a,24
        sub h
        ld b,a
        ret

; POS_SET: make line B, column C the print position (S_POSN and DF_CC).
POS_SET:
        ld a,33
        sub c
        ld (S_POSN),a
        ld a,24
        sub b
        ld (S_POSN+1),a
        call CELL_ADDR
        ld (DF_CC),hl
        ret

; CELL_ADDR: HL = display-file address of the top pixel row of cell (line B, column C).
CELL_ADDR:
        ld a,b
        and 18h
        or 40h
        ld h,a
        ld a,b
        and 07h
        rrca
        rrca
        rrca
        add a,c
        ld l,a
        ret

; ATTR_ADDR: HL = attribute address of cell (line B, column C).
ATTR_ADDR:
        ld a,b
        rrca
        rrca
        rrca
        ld l,a
        and 03h
        or 58h
        ld h,a
        ld a,l
        and 0E0h
        or c
        ld l,a
        ret

; PR_ZSTR: print the zero-terminated string at HL (HL ends after the zero).
PR_ZSTR:
        ld a,(hl)
        inc hl
        or a
        ret z
        rst 10h
        jr PR_ZSTR

; PR_STRING: print BC bytes from HL.
PR_STRING:
        ld a,b
        or c
        ret z
        ld a,(hl)
        rst 10h
        inc hl
        dec bc
        jr PR_STRING

; TEMPS: the temporary colours and flags start again from the permanent ones.
TEMPS:
        ld a,(ATTR_P)
        ld (ATTR_T),a
        ld a,(MASK_P)
        ld (MASK_T),a
        ld a,(P_FLAG)
        and 0Ah
        ld b,a
        rrca
        or b
        ld (P_FLAG),a
        xor a
        ld (TVDATA),a
        ret

; ================================================================ screen
; CL_ALL (CL-ALL): clear the whole screen (pixels 0, attributes ATTR_P), the temporary
; colours from the permanent ones, print position 0,0. The border is left alone.
CL_ALL_BODY:
        ld hl,SCREEN
        ld de,SCREEN+1
        ld bc,6143
        ld (hl),0
        ldir
        ld a,(ATTR_P)
        ld hl,ATTRS
        ld de,ATTRS+1
        ld bc,767
        ld (hl),a
        ldir
        ld a,1
        ld (SCR_CT),a
        call TEMPS
        ld bc,0
        jp POS_SET

; CLS: CL_ALL, and the border from BORDCR.
CLS:
        call CL_ALL_BODY
; SET_BORDER: the border colour from BORDCR (its paper bits, 5-3) out to port FEh; A is lost.
SET_BORDER:
        ld a,(BORDCR)
        rrca
        rrca
        rrca
        and 07h
        out (0FEh),a
        ret

; CL_SET (CL-SET): B = 24 - line, C = 33 - column become the print position.
CL_SET_BODY:
        ld a,24
        sub b
        ld b,a
        ld a,33
        sub c
        ld c,a
        jp POS_SET

; CHAN_OPEN (CHAN-OPEN): A = stream. Our ROM's only channel is the screen, so every stream
; prints there; opening one drops a half-given control code and starts the temporary
; colours again from the permanent ones, as opening 'S' does on the 48K.
CHAN_OPEN_BODY:
        jp TEMPS

; CLS_LOWER: clear lines 22 and 23 (the lower screen) to the BORDCR colours; the print
; position goes to line 22 and ATTR_T to BORDCR, as for messages there.
CLS_LOWER:
        ld a,(BORDCR)
        ld e,a
        ld (ATTR_T),a
        xor a
        ld (MASK_T),a
        ld a,22
        call CL_LINE
        ld a,23
        call CL_LINE
        ld bc,22*256+0
        jp POS_SET

; CL_LINE: clear character line A: pixels to 0, attributes to E.
CL_LINE:
        push af
        ld b,a
        ld c,0
        call CELL_ADDR
        ld d,8
cl_pixel_row:
        push hl
        ld b,32
cl_byte:
        ld (hl),0
        inc hl
        djnz cl_byte
        pop hl
        inc h
        dec d
        jr nz,cl_pixel_row
        pop af
        ld b,a
        ld c,0
        call ATTR_ADDR
        ld b,32
cl_attr:
        ld (hl),e
        inc hl
        djnz cl_attr
        ret

; SCROLL: the whole screen moves up one character line; line 23 is cleared to ATTR_P.
SCROLL:
        push bc
        push de
        push hl
        xor a
sc_line:
        push af
        ld b,a
        ld c,0
        call CELL_ADDR
        ex de,hl                ; DE = this line
        inc b
        call CELL_ADDR          ; HL = the line below
        ld b,8
sc_pixel_row:
        push bc
        push hl
        push de
        ld bc,32
        ldir
        pop de
        pop hl
        pop bc
        inc h
        inc d
        djnz sc_pixel_row
        pop af
        inc a
        cp 23
        jr c,sc_line
        ld hl,ATTRS+32
        ld de,ATTRS
        ld bc,23*32
        ldir
        ld a,(ATTR_P)
        ld e,a
        ld a,23
        call CL_LINE
        ld hl,SCR_CT
        inc (hl)
        pop hl
        pop de
        pop bc
        ret

; BORDER: A = colour 0..7 to the border now and to BORDCR (times 8, with a white
; lower-screen ink on the dark colours 0..3).
BORDER:
        and 07h
        out (0FEh),a
        rlca
        rlca
        rlca
        cp 20h
        jr nc,bd_light
        or 07h
bd_light:
        ld (BORDCR),a
        ret

; ================================================================ sound
; BEEPER: DE + 1 full cycles, each half-cycle BEEP_HALF_FIXED_T + BEEP_HALF_PER_COUNT_T * HL
; T-states (HL 0..65535), the first half with the speaker (port FEh bit 4) high. Interrupts
; are off while it sounds and on afterwards. IX, BC, HL, A are not kept.
; How: HL = 4q + r. A half-cycle is the OUT, r NOPs (entered through IX), then q + 2 units
; of 16 T from a two-level count: C runs down, and each time it runs out the reload
; (LD C,255 / DEC B / JP NZ) costs exactly one more 16 T unit, so B, C = (q >> 8) + 1,
; (q + 1) and 255 stand for q + 2 units. The paths after the count are 52 T either way.
BEEPER_BODY:
        di
        ld a,l
        and 03h
        ld c,a                  ; r
        srl h
        rr l
        srl h
        rr l                    ; HL = q
        inc h                   ; H = (q >> 8) + 1
        inc l                   ; L = (q + 1) & 255 (0 stands for 256)
        ld a,3
        sub c
        ld c,a
        ld b,0
        ld ix,BP_SLIDE
        add ix,bc               ; IX: the slide entered 3 - r NOPs in
        ld a,(BORDCR)
        rrca
        rrca
        rrca
        and 07h
        or 10h                  ; the first half: speaker high
        jp bp_edge
bp_count:                       ; a full cycle is over
        ex af,af'               ; 4
        ld a,d                  ; 4
        or e                    ; 4
        jp z,bp_done            ; 10
        dec de                  ; 6
        ex af,af'               ; 4
bp_edge:
        out (0FEh),a            ; 11
        xor 10h                 ; 7   the next half's level
        ld b,h                  ; 4
        ld c,l                  ; 4
        jp (ix)                 ; 8
BP_SLIDE:
        nop                     ; 4 each, r of them
        nop
        nop
bp_unit:
        dec c                   ; 4
        jr nz,bp_unit           ; 12 / 7
        ld c,255                ; 7
        dec b                   ; 4
        jp nz,bp_unit           ; 10
        bit 4,a                 ; 8
        jr nz,bp_count          ; 12: the low half is over
        jr $+2                  ; 12  the high half is over: as long as bp_count
        ld b,0                  ; 7
        nop                     ; 4
        nop                     ; 4
        jp bp_edge              ; 10
bp_done:
        ex af,af'
        ei
        ret

; ================================================================ tape
; LD_EDGE: wait for the next change of the EAR input, counting B up once every
; EDGE_LOOP_T (63) T-states. C bit 5 holds the level last seen, bits 0-2 the border
; colour, which turns over (xor 7) at every edge. Carry set: edge found;
; carry clear: B ran past 255 (no edge). SPACE (BREAK) ends LD_BYTES at once.
LD_EDGE:
le_loop:
        inc b                   ; 4
        jr z,le_timeout         ; 7
        ld a,7Fh                ; 7
        in a,(0FEh)             ; 11   half-row with SPACE in bit 0, EAR in bit 6
        rra                     ; 4
        jr nc,ld_break          ; 7
        xor c                   ; 4
        and 20h                 ; 7
        jr z,le_loop            ; 12
        ld a,c
        xor 27h                 ; the level seen, and the other colour of the pair
        ld c,a
        and 07h
        out (0FEh),a
        scf
        ret
le_timeout:
        and a
        ret
ld_break:                       ; SPACE held: leave LD_BYTES from any depth
        ld sp,(TAPE_SP)
        ld a,LDERR_BREAK
        jp ld_fail

; LD_8BITS: read one byte, most significant bit first, into L. Each bit is two pulses
; timed together: longer than BIT_THRESHOLD counts is a 1. Carry clear: no signal.
LD_8BITS:
        ld l,1                  ; a marker bit: the byte is done when it comes out
l8_bit:
        ld b,0
        call LD_EDGE
        ret nc
        call LD_EDGE
        ret nc
        ld a,BIT_THRESHOLD
        cp b                    ; carry when B > threshold: a 1
        rl l
        jr nc,l8_bit
        ret

; LD_BYTES (LD-BYTES): load a block from tape. IX = destination, DE = length, A = flag
; byte wanted, carry set = LOAD (clear = VERIFY: the bytes are compared, not stored). Waits (until BREAK) for PILOT_PAIRS pairs of pilot pulses and the two
; sync pulses, reads the flag, the DE bytes and the checksum (XOR of all). A block
; with another flag is passed over. Border: red/cyan edges while searching and in the
; pilot, blue/yellow during the data, BORDCR again at the end. Interrupts are off during
; the load and on after it. Out: carry set = loaded, IX past the data, DE = 0;
; carry clear = failed, A = LDERR_BREAK, LDERR_CHECKSUM, LDERR_TIMEOUT or LDERR_VERIFY.
LD_BYTES_BODY:
        di
        ld (LD_FLAG),a
        sbc a,a                 ; 0FFh: LOAD, 0: VERIFY
        ld (LD_MODE),a
        ld (TAPE_SP),sp
        ld a,7Fh
        in a,(0FEh)
        rra
        and 20h
        ld c,a
ld_search:
        ld a,c
        and 0F8h
        or BORDER_PILOT
        ld c,a
        and 07h
        out (0FEh),a
        ld h,0                  ; pilot pairs so far (256 in all)
ld_pilot:
        ld b,0
        call LD_EDGE
        jr nc,ld_search
        call LD_EDGE
        jr nc,ld_search
        ld a,b
        cp PILOT_PAIR_MIN
        jr c,ld_search
        cp PILOT_PAIR_MAX
        jr nc,ld_search
        inc h
        jr nz,ld_pilot
ld_sync:                        ; the pilot goes on until a short pulse: sync 1
        ld b,0
        call LD_EDGE
        jr nc,ld_search
        ld a,b
        cp SYNC_MAX
        jr nc,ld_sync
        ld b,0                  ; sync 2
        call LD_EDGE
        jr nc,ld_search
        ld a,b
        cp SYNC_MAX
        jr nc,ld_search
        ld a,c
        and 0F8h
        or BORDER_DATA
        ld c,a
        call LD_8BITS           ; the flag
        jr nc,ld_timeout
        ld a,(LD_FLAG)
        cp l
        jr nz,ld_search         ; not ours: wait for the next block
        ld h,l                  ; H = running checksum
ld_next:
        ld a,d
        or e
        jr z,ld_sum
        call LD_8BITS
        jr nc,ld_timeout
        ld a,(LD_MODE)
        or a
        jr z,ld_verify
        ld (ix+0),l
ld_stored:
        inc ix
        dec de
        ld a,h
        xor l
        ld h,a
        jr ld_next
ld_sum:
        call LD_8BITS
        jr nc,ld_timeout
        ld a,h
        xor l
        ld a,LDERR_CHECKSUM
        jr nz,ld_fail
        call ld_restore
        xor a
        scf
        ret
ld_verify:
        ld a,(ix+0)
        cp l
        jr z,ld_stored
        ld a,LDERR_VERIFY
        jr ld_fail
ld_timeout:
        ld a,LDERR_TIMEOUT
ld_fail:
        call ld_restore
        and a                   ; carry clear, A kept
        ret
ld_restore:
        push af
        call SET_BORDER
        pop af
        ei
        ret
LD_BYTES_END:

; LOAD_FILE: what LOAD "" does with a tape. A = file type wanted (0 program, 3 bytes,
; 0FFh any), HL = destination (0: a program goes to PROG, bytes to the header's start).
; Reads headers until one of that type, prints "Program: NAME" (or "Bytes: NAME" ...)
; at the print position, then loads its data block. The header stays in HDR_BUF.
; Out: carry set and ERR_NR = 0FFh when loaded; on failure carry clear, ERR_NR =
; ERR_TAPE (report R) or ERR_BREAK (report D) and the report is printed on line 23.
LOAD_FILE:
        ld (LD_TYPE),a
        ld (LD_DEST),hl
lf_header:
        ld ix,HDR_BUF
        ld de,17
        xor a
        scf                     ; LOAD
        call LD_BYTES
        jr nc,lf_fail
        ld a,(LD_TYPE)
        cp 0FFh
        jr z,lf_type_ok
        ld b,a
        ld a,(HDR_BUF)
        cp b
        jr nz,lf_header         ; another kind of file: look for the next header
lf_type_ok:
        call PR_HEADER
        ld hl,(LD_DEST)
        ld a,h
        or l
        jr nz,lf_dest
        ld hl,(HDR_BUF+13)
        ld a,(HDR_BUF)
        or a
        jr nz,lf_dest
        ld hl,(PROG)
lf_dest:
        push hl
        pop ix
        ld de,(HDR_BUF+11)
        ld a,0FFh
        scf                     ; LOAD
        call LD_BYTES
        jr nc,lf_fail
        ld a,ERR_OK
        ld (ERR_NR),a
        scf
        ret
lf_fail:
        cp LDERR_BREAK
        ld a,ERR_BREAK
        ld hl,MSG_BREAK
        jr z,lf_report
        ld a,ERR_TAPE
        ld hl,MSG_TAPE_ERROR
lf_report:
        ld (ERR_NR),a
        push hl
        ld a,(BORDCR)
        ld e,a
        ld (ATTR_T),a
        xor a
        ld (MASK_T),a
        ld (P_FLAG),a
        ld a,23
        call CL_LINE
        ld bc,23*256+0
        call POS_SET
        pop hl
        call PR_ZSTR
        and a
        ret

; PR_HEADER: print the header in HDR_BUF as "Program: NAME" etc. and a new line.
PR_HEADER:
        ld a,(HDR_BUF)
        ld hl,MSG_PROGRAM
        or a
        jr z,ph_name
        ld hl,MSG_NUMBERS
        dec a
        jr z,ph_name
        ld hl,MSG_CHARS
        dec a
        jr z,ph_name
        ld hl,MSG_BYTES
ph_name:
        call PR_ZSTR
        ld hl,HDR_BUF+1
        ld bc,10
        call PR_STRING
        ld a,13
        rst 10h
        ret

MSG_PROGRAM:    DEFM "Program: "
                DEFB 0
MSG_NUMBERS:    DEFM "Number array: "
                DEFB 0
MSG_CHARS:      DEFM "Character array: "
                DEFB 0
MSG_BYTES:      DEFM "Bytes: "
                DEFB 0
MSG_TAPE_ERROR: DEFM "R Tape loading error, 0:1"
                DEFB 0
MSG_BREAK:      DEFM "D BREAK - CONT repeats, 0:1"
                DEFB 0
MSG_SIGNON:     DEFB 7Fh
                DEFM " Spectrum Backgammon ROM"
                DEFB 0
CODE_END:

; ================================================================ the font
        DEFS 3D00h - $, 0FFh
FONT:
        INCLUDE "font.asm"
FONT_END:
        DEFS 4000h - $, 0FFh
