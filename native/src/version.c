/* version.c: the ABI version the Python side checks before it trusts the compiled module. */
#include "bg.h"

int bg_abi_version(void) { return BG_ABI_VERSION; }
