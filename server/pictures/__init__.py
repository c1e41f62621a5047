"""The map as a PNG image, drawn on the server as the web page draws it (server/pages/js/
render.js), from the same outlines and the same palette (server/pages/js/palette.json), with
Pillow: no browser at run time. A game run by its definition describes its own picture
instead, which shapes.py paints on the same canvas."""
