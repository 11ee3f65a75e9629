"""The board on the screen: where every point, man, cube and line of text is (screen), its
colours (palette) and its pixels (glyphs). Not the rules of the position drawn
(game/model/), not the pages that ask the player things (game/pages/menus.py, game/scenes/)."""
