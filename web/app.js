// qipu serve's page: search, game viewer, explorer, events and import, each a view chosen
// by the URL's hash (#search?…, #game/ID?ply=N, #explore?moves=…, #event/ID, #import), so
// that every page and every position has a link. All data comes from the JSON API.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const view = $("#view");
let info = { allow_import: false, notations: [] };
let routeCount = 0;  // a view whose answer arrives after the user went elsewhere draws nothing

// Throws when a newer route() began while this one waited for the server.
function stillCurrent(count) {
  if (count !== routeCount) throw new Stale();
}
class Stale extends Error {}

// ---- small helpers ----------------------------------------------------------------------

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c);
  return el;
}

// The answer's JSON; a refusal without a body (413: upload too large) gets its status.
function jsonOf(res) {
  return res.json().catch(() => ({ error: `${res.status} ${res.statusText}` }));
}

async function api(path, params = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== "" && v !== null && v !== undefined && v !== false) q.set(k, v);
  const res = await fetch(`/api/${path}${q.toString() ? "?" + q : ""}`);
  const body = await jsonOf(res);
  if (!res.ok) throw new Error(body.error || res.statusText);
  return body;
}

function showError(e) {
  const box = $("#error");
  box.textContent = e ? String(e.message || e) : "";
  box.hidden = !e;
}

function notation() { return localStorage.getItem("qipu.notation") || "en"; }

function hashParams() {
  const hash = location.hash.slice(1);
  const i = hash.indexOf("?");
  return { path: i < 0 ? hash : hash.slice(0, i), params: new URLSearchParams(i < 0 ? "" : hash.slice(i + 1)) };
}

function go(path, params) {
  const q = params ? new URLSearchParams(params).toString() : "";
  location.hash = path + (q ? "?" + q : "");
}

function copy(text, button) {
  navigator.clipboard.writeText(text).then(() => {
    const old = button.textContent;
    button.textContent = "Copied";
    setTimeout(() => (button.textContent = old), 1200);
  }, () => prompt("Copy:", text));
}

const NAGS = { 1: "!", 2: "?", 3: "‼", 4: "⁇", 5: "⁉", 6: "⁈", 7: "□", 10: "=", 13: "∞", 14: "⩲", 15: "⩱",
               16: "±", 17: "∓", 18: "+−", 19: "−+", 22: "⨀", 32: "⟳", 36: "→", 40: "↑", 132: "⇆", 146: "N" };
const nagText = (n) => NAGS[n] || `$${n}`;
const pct = (part, whole) => (whole ? (100 * part) / whole : 0);

// ---- search -------------------------------------------------------------------------------

const FILTERS = [
  ["player", "Player"], ["color", "Player's colour", ["", "white", "black"]], ["outcome", "Player's result", ["", "won", "lost", "drew"]],
  ["white", "White"], ["black", "Black"], ["result", "Result", ["", "1-0", "0-1", "1/2-1/2", "*", "decisive", "draw"]],
  ["event", "Event"], ["site", "Site"], ["eco", "ECO (C60-C99)"], ["opening", "Opening"],
  ["date-from", "Date from"], ["date-to", "Date to"], ["min-elo", "Min Elo"], ["max-elo", "Max Elo"],
  ["min-plies", "Min plies"], ["max-plies", "Max plies"],
  ["termination", "Final position", ["", "checkmate", "stalemate", "insufficient_material", "fivefold_repetition",
                                     "seventy_five_move_rule", "threefold_repetition", "fifty_move_rule", "none"]],
  ["material", "Material (KRPvKR)"], ["moves", "Moves (1.e4 c5)", null, "wide"], ["fen", "FEN", null, "wide"],
];
const FLAGS = [["substring", "Names anywhere, not by words"], ["exact", "Whole names"], ["regex", "Names as regular expressions"],
               ["both-elo", "Both players' Elo"], ["transpose", "Any move order"]];
const COLUMNS = [["id", "id", "id"], ["White", "White", "white"], ["WhiteElo", "Elo", "white-elo"], ["Black", "Black", "black"],
                 ["BlackElo", "Elo", "black-elo"], ["Result", "Result", null], ["Date", "Date", "date"],
                 ["Event", "Event", "event"], ["ECO", "ECO", "eco"], ["plies", "Plies", "plies"]];

function searchForm(params) {
  const field = ([name, label, options, cls]) => {
    const value = params.get(name) || "";
    const input = options
      ? h("select", { name }, options.map((o) => h("option", { value: o, selected: o === value }, o || "any")))
      : h("input", { name, value, type: name.includes("elo") || name.includes("plies") ? "number" : "text" });
    return h("label", { class: cls || null }, label, input);
  };
  const flag = ([name, label]) =>
    h("label", { class: "check" }, h("input", { type: "checkbox", name, checked: params.get(name) === "1" }), label);
  const form = h("form", { class: "filters", id: "search-form" }, FILTERS.map(field), FLAGS.map(flag),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Search"),
      h("button", { type: "reset", onclick: () => setTimeout(() => go("search"), 0) }, "Clear")));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const p = {};
    for (const el of form.elements) {
      if (!el.name) continue;
      if (el.type === "checkbox") { if (el.checked) p[el.name] = "1"; }
      else if (el.value) p[el.name] = el.value;
    }
    if (params.get("sort")) p.sort = params.get("sort");
    if (params.get("desc")) p.desc = params.get("desc");
    go("search", p);
  });
  return form;
}

function resultsTable(data, params) {
  const sortBy = (key) => {
    const p = Object.fromEntries(params);
    p.desc = p.sort === key && p.desc !== "1" ? "1" : "";
    if (!p.desc) delete p.desc;
    p.sort = key;
    delete p.offset;
    go("search", p);
  };
  const head = h("tr", {}, COLUMNS.map(([key, label, sort]) => sort
    ? h("th", { class: "sortable", tabindex: 0, "aria-sort": params.get("sort") === sort ? (params.get("desc") ? "descending" : "ascending") : null,
                onclick: () => sortBy(sort), onkeydown: (e) => e.key === "Enter" && sortBy(sort) },
        label + (params.get("sort") === sort ? (params.get("desc") ? " ▼" : " ▲") : ""))
    : h("th", {}, label)));
  const rows = data.games.map((g) => h("tr", { class: "link", tabindex: 0, "data-id": g.id,
      onclick: () => go(`game/${g.id}`), onkeydown: (e) => e.key === "Enter" && go(`game/${g.id}`) },
    COLUMNS.map(([key]) => h("td", { class: key === "id" || key.endsWith("Elo") || key === "plies" ? "num" : null }, String(g[key] ?? "")))));
  return h("div", { class: "scroll" }, h("table", { id: "results" }, h("thead", {}, head), h("tbody", {}, rows)));
}

// The page's games at once, and their total when /api/count has it: counting every match
// takes seconds at millions of games.
function pager(data, params) {
  const page = (offset) => {
    const p = Object.fromEntries(params);
    p.offset = String(Math.max(0, offset));
    go("search", p);
  };
  const first = data.games.length ? data.offset + 1 : 0, last = first ? data.offset + data.games.length : 0;
  const range = `${first.toLocaleString()}–${last.toLocaleString()}`;
  const total = h("span", { id: "total" }, `${range} of … games`);
  const bar = h("div", { class: "pager" },
    h("button", { disabled: data.offset === 0, onclick: () => page(data.offset - data.limit) }, "‹ Previous"),
    total,
    h("button", { disabled: !data.more, onclick: () => page(data.offset + data.limit) }, "Next ›"));
  bar.showTotal = (n) => { total.textContent = `${range} of ${n.toLocaleString()} games`; };
  bar.showCountError = (e) => { total.textContent = `${range} of ? games (${e.message})`; };
  return bar;
}

async function showSearch(params, count) {
  view.replaceChildren(h("h1", {}, "Search games"), searchForm(params));
  const data = await api("search", Object.fromEntries(params));
  stillCurrent(count);
  const bar = pager(data, params);
  view.append(bar, resultsTable(data, params));
  const filters = Object.fromEntries(params);
  for (const k of ["sort", "desc", "limit", "offset"]) delete filters[k];
  try {
    const n = await api("count", filters);
    stillCurrent(count);
    bar.showTotal(n.total);
  } catch (e) {
    if (e instanceof Stale) throw e;
    bar.showCountError(e);
  }
}

// ---- game viewer --------------------------------------------------------------------------

// The move tree flattened: each node knows the position after it, the node before it and
// the next node of its own line, so arrow keys follow variations too.
function flatten(moves, prev, nodes) {
  let before = prev;
  for (const m of moves) {
    m.node = nodes.length;
    const node = { ...m, index: m.node, prev: before, next: null, line: moves };
    nodes.push(node);
    if (before !== null && nodes[before].line === moves) nodes[before].next = node.index;
    for (const v of m.variations || []) flatten(v, before, nodes);
    before = node.index;
  }
  return nodes;
}

function moveNumber(ply, first) {
  const n = Math.ceil(ply / 2);
  return ply % 2 ? `${n}.` : first ? `${n}…` : "";
}

function renderLine(moves, out) {
  let first = true;
  for (const m of moves) {
    for (const c of m.comments_before || []) out.push(h("span", { class: "comment" }, c));
    const num = moveNumber(m.ply, first);
    if (num) out.push(h("span", { class: "num" }, num));
    out.push(h("span", { class: "mv", "data-node": m.node, "data-ply": m.ply, role: "button", tabindex: -1 },
      m.san, ...(m.nags || []).map((n) => h("span", { class: "nag" }, nagText(n)))));
    for (const c of m.comments || []) out.push(h("span", { class: "comment" }, c));
    for (const v of m.variations || []) {
      const inner = [];
      renderLine(v, inner);
      out.push(h("span", { class: "var" }, "(", ...inner, ")"));
    }
    first = Boolean(m.comments || m.variations);
  }
}

async function showGame(id, params, count) {
  const g = await api(`game/${id}`, { notation: notation(), style: "compact" });
  stillCurrent(count);
  const nodes = flatten(g.moves, null, []);
  const board = new Board(h("div"), { label: "Board of the game" });
  let current = null;  // node index; null: the start
  const plyParam = Number(params.get("ply") || 0);
  if (params.get("node")) current = Number(params.get("node"));
  else if (plyParam > 0) current = nodes.filter((n) => n.line === g.moves)[Math.min(plyParam, g.moves.length) - 1]?.index ?? null;

  const fenBox = h("input", { class: "fen", readonly: true, id: "fen", "aria-label": "FEN of the position" });
  const link = h("a", { id: "position-link" }, "Link to this position");
  const exploreLink = h("a", { id: "explore-link" }, "Explore this position");
  const list = h("div", { class: "moves", id: "moves" });
  const line = [];
  renderLine(g.moves, line);
  list.append(...line, h("span", { class: "result" }, g.result || ""));

  function show(index) {
    current = index;
    const node = index === null ? null : nodes[index];
    const fen = node ? node.fen : g.start_position;
    const marks = node ? [node.uci.slice(0, 2), node.uci.slice(2, 4)] : [];
    board.set(fen, marks);
    fenBox.value = fen;
    const onMain = node === null || node.line === g.moves;
    const here = node === null ? { ply: 0 } : onMain ? { ply: node.ply - (g.moves[0]?.ply ?? 1) + 1 } : { node: index };
    const q = new URLSearchParams(here).toString();
    link.href = `#game/${id}?${q}`;
    exploreLink.href = `#explore?${new URLSearchParams({ fen })}`;
    history.replaceState(null, "", `#game/${id}?${q}`);
    for (const el of list.querySelectorAll(".mv.current")) el.classList.remove("current");
    const el = node && list.querySelector(`.mv[data-node="${index}"]`);
    if (el) { el.classList.add("current"); el.scrollIntoView({ block: "nearest" }); }
  }
  const step = (dir) => {
    if (dir > 0) show(current === null ? (nodes.length ? 0 : null) : nodes[current].next ?? current);
    else show(current === null ? null : nodes[current].prev);
  };
  const mainEnd = () => { let i = nodes.length ? 0 : null; while (i !== null && nodes[i].next !== null) i = nodes[i].next; return i; };
  list.addEventListener("click", (ev) => {
    const mv = ev.target.closest(".mv");
    if (mv) show(Number(mv.dataset.node));
  });
  view.onkeydown = (ev) => {
    if (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT") return;
    const keys = { ArrowRight: () => step(1), ArrowLeft: () => step(-1), Home: () => show(null), End: () => show(mainEnd()) };
    if (keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
  };

  const tags = h("table", { class: "tags" }, Object.entries(g.tags).map(([k, v]) => h("tr", {}, h("td", {}, k), h("td", {}, v))));
  const title = `${g.tags.White || "?"} – ${g.tags.Black || "?"}`;
  const copyFen = h("button", { onclick: () => copy(fenBox.value, copyFen) }, "Copy FEN");
  const copyPgn = h("button", { onclick: () => copy(g.pgn, copyPgn) }, "Copy PGN");
  const controls = h("div", { class: "controls" },
    h("button", { onclick: () => show(null), "aria-label": "Start", title: "Home" }, "|◀"),
    h("button", { onclick: () => step(-1), "aria-label": "Previous move", title: "←" }, "◀"),
    h("button", { onclick: () => step(1), "aria-label": "Next move", title: "→" }, "▶"),
    h("button", { onclick: () => show(mainEnd()), "aria-label": "End", title: "End" }, "▶|"),
    h("button", { onclick: () => board.flip(), id: "flip" }, "Flip"), copyFen, copyPgn);
  view.replaceChildren(h("h1", {}, title, h("span", { class: "muted" }, ` ${g.result}`)),
    h("div", { class: "viewer" },
      h("div", {}, board.svg, controls, fenBox, h("p", {}, link, " · ", exploreLink)),
      h("div", { class: "side" }, list, h("h2", {}, "Tags"), tags)));
  show(current);
  view.focus();
}

// ---- explorer -----------------------------------------------------------------------------

function resultBar(m) {
  const w = pct(m.white_wins, m.games), d = pct(m.draws, m.games), b = pct(m.black_wins, m.games);
  // Widths through the CSSOM: the page's Content-Security-Policy refuses style attributes.
  const part = (cls, width) => { const el = h("span", { class: cls }); el.style.width = `${width}%`; return el; };
  return h("div", { class: "bar", title: `White ${w.toFixed(1)}% · draw ${d.toFixed(1)}% · Black ${b.toFixed(1)}%` },
    part("w", w), part("d", d), part("b", b));
}

async function showExplore(params, count) {
  const line = (params.get("moves") || "").split(" ").filter(Boolean);  // English SAN from the start
  const fen = params.get("fen") || "";
  const data = await api("explore", fen ? { fen, notation: notation(), style: "compact" }
                                         : { moves: line.join(" "), notation: notation(), style: "compact" });
  stillCurrent(count);
  const play = (entry) => go("explore", fen ? { fen: entry.fen } : { moves: [...line, entry.san].join(" ") });
  const board = new Board(h("div"), {
    label: "Explorer board: drag or click a piece, then its square",
    onMove: (from, to) => {
      const entry = data.legal.find((m) => m.uci === from + to || m.uci === from + to + "q");
      if (entry) play(entry);
      else board.set(data.fen);
    },
  });
  board.set(data.fen);

  const crumbs = h("div", { class: "crumbs", id: "crumbs" }, h("a", { href: "#explore" }, "Start"));
  if (fen) crumbs.append(" › ", h("span", {}, "FEN"));
  line.forEach((san, i) => {
    const n = Math.floor(i / 2) + 1;
    crumbs.append(" › ", h("a", { href: `#explore?${new URLSearchParams({ moves: line.slice(0, i + 1).join(" ") })}` },
      i % 2 ? `${n}…${san}` : `${n}.${san}`));
  });
  const fenInput = h("input", { class: "fen", value: data.fen, id: "explore-fen", "aria-label": "FEN" });
  const fenForm = h("form", { onsubmit: (ev) => { ev.preventDefault(); go("explore", { fen: fenInput.value.trim() }); } },
    fenInput, h("button", { type: "submit" }, "Go to FEN"));
  const opening = data.eco ? h("p", { class: "opening", id: "opening" },
    `${data.eco} ${data.opening}${data.variation ? ", " + data.variation : ""}`) : null;

  const rows = data.moves.map((m) => h("tr", { class: "link", tabindex: 0, "data-uci": m.uci, "data-games": m.games,
      onclick: () => play(m), onkeydown: (e) => e.key === "Enter" && play(m) },
    h("td", {}, m.move), h("td", { class: "num" }, m.games.toLocaleString()),
    h("td", { class: "num" }, pct(m.games, data.games).toFixed(1) + "%"), h("td", {}, resultBar(m)),
    h("td", { class: "num" }, m.average_elo ?? ""), h("td", { class: "num hide-narrow" }, m.last_year ?? "")));
  const table = h("table", { id: "explore-moves" },
    h("thead", {}, h("tr", {}, ["Move", "Games", "Share", "White / draw / Black", "Avg Elo", "Last"].map(
      (t, i) => h("th", { class: i === 5 ? "num hide-narrow" : i && i !== 3 ? "num" : null }, t)))),
    h("tbody", {}, rows));
  const top = h("table", { id: "top-games" }, h("tbody", {}, data.top_games.map((g) =>
    h("tr", { class: "link", tabindex: 0, onclick: () => go(`game/${g.id}`), onkeydown: (e) => e.key === "Enter" && go(`game/${g.id}`) },
      h("td", {}, `${g.white} – ${g.black}`), h("td", {}, g.result), h("td", { class: "num" }, String(g.average_elo)),
      h("td", { class: "hide-narrow" }, g.date), h("td", { class: "hide-narrow" }, g.event)))));
  view.replaceChildren(h("h1", {}, "Opening explorer"), h("div", { class: "explorer" },
    h("div", {}, board.svg, h("div", { class: "controls" }, h("button", { onclick: () => board.flip() }, "Flip")), fenForm),
    h("div", { class: "side" }, crumbs, opening,
      h("p", { id: "explore-total", "data-games": data.games }, `${data.games.toLocaleString()} games`,
        data.games ? h("span", { class: "muted" }, ` · White ${pct(data.white_wins, data.games).toFixed(1)}% · draws ${pct(data.draws, data.games).toFixed(1)}% · Black ${pct(data.black_wins, data.games).toFixed(1)}%`) : null),
      h("div", { class: "scroll" }, table), h("h2", {}, "Top games"), h("div", { class: "scroll" }, top))));
}

// ---- events -------------------------------------------------------------------------------

async function showEvents(params, count) {
  const q = params.get("q") || "";
  const input = h("input", { name: "q", value: q, "aria-label": "Event name contains" });
  const form = h("form", { onsubmit: (ev) => { ev.preventDefault(); go("events", { q: input.value }); } },
    input, h("button", { type: "submit" }, "Find events"));
  const data = await api("events", { q });
  stillCurrent(count);
  view.replaceChildren(h("h1", {}, "Events"), form, h("table", {}, h("tbody", {}, data.events.map((e) =>
    h("tr", { class: "link", tabindex: 0, onclick: () => go(`event/${e.id}`), onkeydown: (ev) => ev.key === "Enter" && go(`event/${e.id}`) },
      h("td", {}, e.name), h("td", { class: "num" }, `${e.games} games`), h("td", {}, e.date || ""))))));
}

const points = (p) => (Math.floor(p) || (p % 1 ? "" : "0")) + (p % 1 ? "½" : "");

async function showEvent(id, count) {
  const data = await api("event", { id });
  stillCurrent(count);
  const n = data.players.length;
  const head = h("tr", {}, ["#", "Player", "Games", "Points", "SB"].map((t) => h("th", {}, t)),
    data.players.map((_, i) => h("th", { class: "num" }, String(i + 1))));
  const rows = data.players.map((p) => h("tr", {}, h("td", {}, String(p.rank)),
    h("td", {}, h("a", { href: `#search?${new URLSearchParams({ player: p.name, exact: "1", event: data.event })}` }, p.name)),
    h("td", { class: "num" }, String(p.games)), h("td", { class: "num" }, points(p.points)),
    h("td", { class: "num" }, p.sb.toFixed(2)), p.crosstable.map((c) => h("td", { class: "num" }, c))));
  view.replaceChildren(h("h1", {}, data.event), h("p", { class: "muted" }, `${data.games} games, ${n} players`),
    h("div", { class: "scroll" }, h("table", { id: "standings" }, h("thead", {}, head), h("tbody", {}, rows))),
    h("p", {}, h("a", { href: `#search?${new URLSearchParams({ event: data.event, exact: "1" })}` }, "The games")));
}

// ---- import -------------------------------------------------------------------------------

function showImport() {
  if (!info.allow_import) {
    view.replaceChildren(h("h1", {}, "Import"), h("p", {}, "This server is read-only. Start it with ",
      h("code", {}, "qipu serve --allow-import"), " to import PGN files from this page."));
    return;
  }
  const file = h("input", { type: "file", id: "import-file", accept: ".pgn,.gz,.zst,.txt" });
  const status = h("div", { id: "import-status" });
  const start = async () => {
    if (!file.files.length) return;
    const f = file.files[0];
    status.replaceChildren(h("p", {}, `Uploading ${f.name}…`));
    const res = await fetch(`/api/import?${new URLSearchParams({ name: f.name })}`, { method: "POST", body: f });
    const body = await jsonOf(res);
    if (!res.ok) return showError(new Error(body.error));
    poll(body.job, status);
  };
  view.replaceChildren(h("h1", {}, "Import"), h("p", {}, "A PGN file, plain, .gz or .zst; every game is checked as ",
    h("code", {}, "qipu import"), " does."), file, " ", h("button", { id: "import-start", onclick: start }, "Import"), status);
}

async function poll(job, status) {
  const s = await api(`import/${job}`);
  const bar = h("progress", { max: s.total_bytes || 1, value: s.bytes });
  status.replaceChildren(bar, h("p", {}, `${s.state}: ${s.games.toLocaleString()} games read`));
  if (s.state === "queued" || s.state === "running") return setTimeout(() => poll(job, status), 300);
  if (s.state === "failed") return status.append(h("p", { class: "error" }, s.message));
  status.append(h("p", { id: "import-summary" },
    `Imported ${s.imported} games; ${s.duplicates} duplicates skipped; ${s.rejected} rejected.`));
  if (!s.errors.length) return;
  status.append(h("h2", {}, "Errors"), h("div", { class: "scroll" }, h("table", { class: "errors", id: "import-errors" },
    h("thead", {}, h("tr", {}, ["Game", "Players", "Line:col", "Move", "Problem"].map((t) => h("th", {}, t)))),
    h("tbody", {}, s.errors.map((e) => h("tr", {}, h("td", {}, String(e.game)),
      h("td", {}, e.white !== undefined ? `${e.white || "?"} – ${e.black || "?"}` : ""),
      h("td", {}, `${e.line}:${e.column}`), h("td", {}, e.move || ""), h("td", {}, `[${e.code}] ${e.message}`)))))));
  if (s.errors_left_out) status.append(h("p", {}, `… and ${s.errors_left_out} more`));
}

// ---- routing ------------------------------------------------------------------------------

async function route() {
  const { path, params } = hashParams();
  const [name, arg] = path.split("/");
  for (const a of document.querySelectorAll("nav a")) a.classList.toggle("active", a.dataset.view === (name === "game" ? "search" : name === "event" ? "events" : name || "search"));
  view.onkeydown = null;
  showError(null);
  const count = ++routeCount;
  try {
    if (name === "game") await showGame(arg, params, count);
    else if (name === "explore") await showExplore(params, count);
    else if (name === "events") await showEvents(params, count);
    else if (name === "event") await showEvent(arg, count);
    else if (name === "import") showImport();
    else await showSearch(params, count);
  } catch (e) {
    if (e instanceof Stale) return;
    showError(e);
  }
  document.body.dataset.ready = location.hash;  // for the browser tests: this view is drawn
}

async function start() {
  try { info = await api("info"); } catch (e) { showError(e); }
  $("#nav-import").hidden = !info.allow_import;
  const select = $("#notation");
  for (const n of info.notations) select.append(h("option", { value: n.code, selected: n.code === notation() }, `${n.code} — ${n.description}`));
  select.addEventListener("change", () => { localStorage.setItem("qipu.notation", select.value); route(); });
  window.addEventListener("hashchange", route);
  route();
}

start();
