// The board: an SVG drawn from a FEN. It knows no chess rules (they stay on the server);
// it reports the squares the user moves between, by drag or by two clicks, through
// onMove(from, to). Its element carries the FEN shown as data-fen.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const FILES = "abcdefgh";

function svgEl(name, attrs) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

// The pieces of a FEN's first field by square name: { e1: "wK", e8: "bK", ... }.
function fenPieces(fen) {
  const pieces = {};
  const rows = fen.split(" ")[0].split("/");
  rows.forEach((row, r) => {
    let f = 0;
    for (const ch of row) {
      if (ch >= "1" && ch <= "8") { f += Number(ch); continue; }
      const color = ch === ch.toUpperCase() ? "w" : "b";
      pieces[FILES[f] + (8 - r)] = color + ch.toUpperCase();
      f++;
    }
  });
  return pieces;
}

class Board {
  constructor(parent, { onMove = null, label = "Chess board" } = {}) {
    this.onMove = onMove;
    this.flipped = false;
    this.fen = "";
    this.marks = [];
    this.selected = null;
    this.svg = svgEl("svg", { viewBox: "0 0 80 80", class: "board", role: "img", "aria-label": label });
    parent.appendChild(this.svg);
    if (onMove) this.listen();
  }

  // Square name at board coordinates (0..7 from the top-left as drawn).
  squareAt(col, row) {
    const f = this.flipped ? 7 - col : col;
    const r = this.flipped ? row : 7 - row;
    return FILES[f] + (r + 1);
  }

  xy(square) {
    const f = FILES.indexOf(square[0]), r = Number(square[1]) - 1;
    return this.flipped ? [(7 - f) * 10, r * 10] : [f * 10, (7 - r) * 10];
  }

  set(fen, marks = []) {
    this.fen = fen;
    this.marks = marks;
    this.selected = null;
    this.svg.dataset.fen = fen;
    this.draw();
  }

  flip() {
    this.flipped = !this.flipped;
    this.draw();
  }

  draw() {
    const svg = this.svg;
    svg.textContent = "";
    for (let row = 0; row < 8; row++)
      for (let col = 0; col < 8; col++) {
        const sq = this.squareAt(col, row);
        const cls = (col + row) % 2 ? "dark" : "light";
        svg.appendChild(svgEl("rect", { x: col * 10, y: row * 10, width: 10, height: 10, class: cls, "data-square": sq }));
        if (this.marks.includes(sq) || this.selected === sq)
          svg.appendChild(svgEl("rect", { x: col * 10, y: row * 10, width: 10, height: 10,
                                          class: this.selected === sq ? "sel" : "mark", "pointer-events": "none" }));
      }
    for (let i = 0; i < 8; i++) {
      const file = svgEl("text", { x: i * 10 + 8.3, y: 79.3, "pointer-events": "none" });
      file.textContent = this.squareAt(i, 7)[0];
      const rank = svgEl("text", { x: 0.4, y: i * 10 + 2.8, "pointer-events": "none" });
      rank.textContent = this.squareAt(0, i)[1];
      svg.append(file, rank);
    }
    for (const [sq, piece] of Object.entries(fenPieces(this.fen || "8/8/8/8/8/8/8/8"))) {
      const [x, y] = this.xy(sq);
      svg.appendChild(svgEl("image", { href: `/pieces/${piece}.svg`, x, y, width: 10, height: 10,
                                       "data-piece": piece, "data-square": sq, "pointer-events": "none" }));
    }
  }

  squareOfEvent(ev) {
    const box = this.svg.getBoundingClientRect();
    const col = Math.floor(((ev.clientX - box.left) / box.width) * 8);
    const row = Math.floor(((ev.clientY - box.top) / box.height) * 8);
    if (col < 0 || col > 7 || row < 0 || row > 7) return null;
    return this.squareAt(col, row);
  }

  // Press on a piece and release elsewhere: a move. Press and release on the same square
  // selects it; the next click elsewhere moves it there.
  listen() {
    let from = null;
    this.svg.addEventListener("pointerdown", (ev) => {
      const sq = this.squareOfEvent(ev);
      if (!sq) return;
      if (this.selected && this.selected !== sq) {
        const sel = this.selected;
        this.selected = null;
        this.draw();
        this.onMove(sel, sq);
        return;
      }
      if (fenPieces(this.fen)[sq]) from = sq;
    });
    this.svg.addEventListener("pointerup", (ev) => {
      const sq = this.squareOfEvent(ev);
      if (!from) return;
      const start = from;
      from = null;
      if (sq && sq !== start) return this.onMove(start, sq);
      this.selected = this.selected === start ? null : start;
      this.draw();
    });
  }
}
