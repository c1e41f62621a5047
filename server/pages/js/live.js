// A game's websocket, as a spectator: catch up from a position, then follow; reconnect when
// it drops, waiting longer each time. Every game's page follows its game through this.

// `after()` is the position to catch up from, asked at each (re)connection; `onStatus` gets
// what the connection is doing, in words (`live` once it is open).
export function follow(
  base,
  { after, onMessage, onStatus, onGone, live = "Live: the page follows the game." },
) {
  const link = { socket: null, retry: 0, stopped: false };

  function connect() {
    if (link.stopped) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    // A spectator's socket: no token will come, so none is waited for.
    const url = `${scheme}://${location.host}${base}/live?after=${after()}&auth=none`;
    const socket = new WebSocket(url);
    link.socket = socket;
    socket.addEventListener("open", () => {
      link.retry = 0;
      onStatus(live);
    });
    socket.addEventListener("message", (message) => {
      let data;
      try {
        data = JSON.parse(message.data);
      } catch {
        return;
      }
      onMessage(data);
    });
    socket.addEventListener("close", (event) => {
      if (link.socket !== socket) return;
      link.socket = null;
      if (event.code === 4404 || event.code === 4410) {
        link.stopped = true;
        onStatus("The game is gone.");
        onGone();
        return;
      }
      if (link.stopped) return;
      const wait = Math.min(15000, 500 * 2 ** link.retry);
      link.retry += 1;
      onStatus(`Connection lost; trying again in ${Math.round(wait / 1000)} s.`);
      setTimeout(connect, wait);
    });
  }

  connect();
  return {
    close() {
      link.stopped = true;
      const socket = link.socket;
      link.socket = null;
      if (socket) socket.close();
    },
  };
}
