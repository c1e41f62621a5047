"""The map as a PNG image, drawn on the server as the web page draws it (server/web/js/
render.js), from the same outlines and the same palette (server/web/js/palette.json), with
Pillow: no browser at run time."""
