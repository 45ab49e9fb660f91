/* isekit's own arch/gc_tile_defines.h: the tile constants, as in poplar/TileConstants.hpp. */
#include "poplar/TileConstants.hpp"
