// Boards are drawn by the server as SVG (/board.svg).  A page holding one
// follows a game by pointing each square's <use> at the piece on it.
const PIECE_IDS = "PNBRQKpnbrqk";

function boardUrl(fen, lastMove) {
  return "/board.svg?fen=" + encodeURIComponent(fen) + (lastMove ? "&lm=" + lastMove : "");
}

// Shows the position in an element: the server's SVG the first time, then in place.
function drawBoard(el, fen, lastMove) {
  el.dataset.fen = fen;
  el.dataset.lm = lastMove || "";
  if (el.querySelector("svg")) {
    placePieces(el);
  } else if (!el.loading) {
    el.loading = fetch(boardUrl(fen, lastMove)).then((r) => r.text()).then((svg) => {
      el.innerHTML = svg;
      placePieces(el);
    });
  }
}

function placePieces(el) {
  const rows = el.dataset.fen.split(" ")[0].split("/");
  const lm = el.dataset.lm;
  const marked = lm ? [lm.slice(0, 2), lm.slice(2, 4)] : [];
  rows.forEach((row, r) => {
    let file = 0;
    for (const ch of row) {
      const n = Number(ch);
      for (let k = 0; k < (n || 1); k++, file++) {
        const name = "abcdefgh"[file] + (8 - r);
        const id = n ? "none" : (ch === ch.toUpperCase() ? "w" : "b") + ch.toUpperCase();
        if (!n && !PIECE_IDS.includes(ch)) continue;
        el.querySelector("use[data-square=" + name + "]").setAttribute("href", "#chessd-" + id);
        el.querySelector("rect[data-square=" + name + "]").classList.toggle("chessd-last",
          marked.includes(name));
      }
    }
  });
}

function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

function ratingText(r) {
  return r === null || r === undefined ? "-" : r;
}
