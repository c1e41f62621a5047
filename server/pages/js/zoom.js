// A button that doubles the map's size inside its frame, to read it on a small screen; the
// zoomed frame scrolls (by keyboard too: it becomes focusable).

export function setUpZoom(button, frame) {
  button.addEventListener("click", () => {
    const zoomed = !frame.classList.contains("zoomed");
    frame.classList.toggle("zoomed", zoomed);
    button.setAttribute("aria-pressed", String(zoomed));
    button.textContent = zoomed ? "Fit the map" : "Zoom in";
    if (zoomed) {
      frame.setAttribute("tabindex", "0");
      frame.setAttribute("aria-label", "The map, zoomed in: scroll to see all of it");
    } else {
      frame.removeAttribute("tabindex");
      frame.removeAttribute("aria-label");
    }
  });
}
