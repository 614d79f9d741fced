// A board from a FEN, as a grid of squares with Unicode pieces; white at the bottom.
const PIECES = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", P: "\u2659",
  k: "\u265a", q: "\u265b", r: "\u265c", b: "\u265d", n: "\u265e", p: "\u265f" };

function drawBoard(el, fen, lastMove) {
  const rows = fen.split(" ")[0].split("/");
  const marked = lastMove ? [lastMove.slice(0, 2), lastMove.slice(2, 4)] : [];
  el.textContent = "";
  rows.forEach((row, r) => {
    let file = 0;
    for (const ch of row) {
      const n = Number(ch);
      for (let k = 0; k < (n || 1); k++, file++) {
        const sq = document.createElement("div");
        const name = "abcdefgh"[file] + (8 - r);
        sq.className = "sq " + ((r + file) % 2 ? "dark" : "light") +
          (marked.includes(name) ? " last" : "");
        sq.dataset.square = name;
        if (!n) sq.textContent = PIECES[ch];
        el.appendChild(sq);
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
