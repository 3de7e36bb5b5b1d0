// The morris-pi companion page: plain JavaScript, served from the package, no build step.
// It listens to the board over Server-Sent Events and sends changes as JSON POSTs.
// Nothing it receives is ever parsed as HTML: words go in as textContent, and the board
// pictures (SVG) through DOMParser as SVG, so a record's turns or tags cannot run script
// (the Content-Security-Policy forbids inline script besides). No element gets a style
// attribute: the page sets classes, and SVG attributes on the pictures.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";
const SIDES = ["white", "black"];

let W = {};               // the words of the page's language (the message catalogue)
let LANG = "en";
let state = null;          // the last view from the board
let previous = null;       // the view before it (for the sounds)
let browsing = null;       // the ply shown instead of the live board, or null
let paired = false;        // this browser may change things (paired, or trusted on this machine)
let pairInfo = { trusted: false, pin: false, buttons: false, board_page: false };
let review = { id: null, turns: [], ply: 0, started: null, tags: {} };
let events = null;
let clockBase = null;      // {left, running, at}: the clock as received, counted down here
const prefs = loadPrefs();

// -- words ----------------------------------------------------------------------------------

function t(key, params) {
  let text = Object.prototype.hasOwnProperty.call(W, key) ? W[key] : key;
  if (params) text = text.replace(/\{(\w+)\}/g, (all, name) => (name in params ? String(params[name]) : all));
  return text;
}
const tc = (key, n, params) => t(`${key}.${n === 1 ? "one" : "other"}`, { n, ...(params || {}) });
const side = (s) => t(`side.${s}`);
const sideIn = (s) => t(`side.${s}.in`);
const other = (s) => (s === "white" ? "black" : "white");
const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : "");

async function loadWords(lang) {
  const body = await getJson(lang ? `/api/words?lang=${encodeURIComponent(lang)}` : "/api/words");
  W = body.words;
  LANG = body.lang;
  document.documentElement.lang = LANG === "nb" ? "nb" : LANG;
  const select = $("lang");
  select.replaceChildren(...Object.entries(body.languages).map(([code, name]) => new Option(name, code, false, code === LANG)));
  translate();
}

function translate() {
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = t(el.dataset.t); });
  document.querySelectorAll("[data-t-label]").forEach((el) => {
    el.setAttribute("aria-label", t(el.dataset.tLabel));
    el.title = t(el.dataset.tLabel);
  });
  document.title = t("page.title");
  fillLevels();
  setPaired(paired, pairInfo.trusted);
  if (state) show(state);
  if ($("review").classList.contains("on")) loadGames();
}

// -- preferences (kept in this browser) -------------------------------------------------------

function loadPrefs() {
  let stored = {};
  try { stored = JSON.parse(localStorage.getItem("morris-pi") || "{}") || {}; } catch (e) { stored = {}; }
  return { lang: null, theme: "auto", flip: false, sound: false, ...stored };
}
function savePrefs() {
  try { localStorage.setItem("morris-pi", JSON.stringify(prefs)); } catch (e) { /* private mode */ }
}
function applyTheme() {
  document.documentElement.classList.toggle("dark", prefs.theme === "dark");
  document.documentElement.classList.toggle("light", prefs.theme === "light");
}

// -- talking to the board ---------------------------------------------------------------------

class Refusal extends Error {
  constructor(message, status, code) { super(message); this.status = status; this.code = code; }
}

async function post(path, data) {
  const response = await fetch(path, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(data || {}),
  });
  let body = {};
  try { body = await response.json(); } catch (e) { /* an empty answer */ }
  if (!response.ok && response.status !== 202) {
    throw new Refusal(body.error || `${response.status} ${response.statusText}`, response.status, body.code);
  }
  return body;
}

// A GET's JSON; an answer that is not ok throws its error sentence.
async function getJson(path) {
  const response = await fetch(path, { credentials: "same-origin" });
  let body = {};
  try { body = await response.json(); } catch (e) { /* not JSON */ }
  if (!response.ok) throw new Refusal(body.error || `${response.status} ${response.statusText}`, response.status);
  return body;
}

// A GET's SVG text; an answer that is not ok throws its error sentence.
async function getSvg(path) {
  const response = await fetch(path, { credentials: "same-origin" });
  if (!response.ok) {
    let body = {};
    try { body = await response.json(); } catch (e) { /* not JSON */ }
    throw new Refusal(body.error || `${response.status} ${response.statusText}`, response.status);
  }
  return response.text();
}

// The SVG text of a board picture as the only child of box; null (and box emptied) if it is not one.
function showSvg(box, text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = doc.documentElement;
  if (!svg || svg.namespaceURI !== SVG_NS || doc.getElementsByTagName("parsererror").length) {
    box.replaceChildren();
    return null;
  }
  const shown = document.importNode(svg, true);
  box.replaceChildren(shown);
  // every point a tap target of a whole grid step (60 units: 45 px on a 390 px phone)
  shown.querySelectorAll(".hit").forEach((c) => c.setAttribute("r", "30.5"));
  return shown;
}

let sayTimer = null;
function say(text, kind) {
  const m = $("message");
  m.textContent = text || "";
  m.className = "message" + (kind ? ` ${kind}` : "");
  clearTimeout(sayTimer);
  if (kind === "ok" || kind === "info") sayTimer = setTimeout(() => say(""), 6000);  // news fades; errors stay
}

function connect() {
  if (events) events.close();
  events = new EventSource(`/api/events${prefs.flip ? "?flip=1" : ""}`);
  events.onopen = () => {
    $("conn").dataset.state = "live";
    $("conn").textContent = t("conn.live");
    pairState();  // the board may have restarted: its pairings went with it
  };
  events.addEventListener("state", (e) => {
    $("conn").dataset.state = "live";
    $("conn").textContent = t("conn.live");
    show(JSON.parse(e.data));
  });
  events.onerror = () => {
    $("conn").dataset.state = "lost";
    $("conn").textContent = t("conn.lost");
  };
}

// -- the live board -----------------------------------------------------------------------------

function show(view) {
  if (!view) return;
  previous = state;
  state = view;
  judgePractice(view);
  document.body.dataset.version = view.version;
  const inMenu = view.state === "menu";
  if (browsing === null || inMenu) {
    browsing = null;
    const svg = showSvg($("board"), view.svg);
    if (svg) decorate(svg, view);
    $("browsing").hidden = true;
  }
  $("board").classList.toggle("clickable", !!view.hand || inMenu);
  $("board").setAttribute("aria-label", boardLabel(view));
  showStatus(view);
  showActions(view);
  showClock(view.clock);
  showAnalysis(view);
  showLegend(view.legend || [], view.colours || {});
  showRecord(view.turns || []);
  showHand(view);
  showGameForm(view);
  $("brightness").value = Math.round(view.brightness * 100);
  $("brightness-value").textContent = `${Math.round(view.brightness * 100)} %`;
  if (previous) {
    sounds(previous, view);
    if (view.hint && !previous.hint && $("message").textContent === t("done.hint")) say("");  // it came
  }
}

function boardLabel(view) {
  if (view.state === "menu") return t("board.menu");
  const g = view.game;
  return t("board.label", { turns: tc("count.turns", (view.turns || []).length), status: turnLine(view) });
}

function outcomeWords(outcome) {
  if (!outcome) return "";
  if (!outcome.winner) return t(`outcome.${outcome.reason}`);
  return t(`outcome.${outcome.reason}`, { winner: side(outcome.winner), loser: sideIn(other(outcome.winner)) });
}

function turnLine(view) {
  if (view.state === "menu") return t("turn.menu");
  const g = view.game;
  if (g.outcome) return t("status.game_over", { outcome: outcomeWords(g.outcome) });
  if (view.computer_side) {
    return g.turn === view.computer_side ? t("turn.computer", { side: side(g.turn) }) : t("turn.you", { side: side(g.turn) });
  }
  return t("status.to_move", { side: side(g.turn) });
}

function lightsLine(view) {
  if (view.state === "menu") return t(view.hand || paired ? "lights.menu_tap" : "lights.menu");
  const g = view.game;
  const clock = view.clock;
  if (view.setup && view.setup.next) {
    // the switches cannot tell colour: the order (white men first) and the page say which goes where
    const next = view.setup.next;
    const left = view.setup[next].filter((p) => !view.setup.standing.includes(p));
    return t("lights.setup", { side: sideIn(next), points: left.join(" ") });
  }
  if (g.problems && g.problems.length) return t("lights.problems");
  if (clock && clock.flagged && !g.outcome) return t("clock.flagged", { side: side(clock.flagged) }) + " " + t("clock.flag_hint");
  if (g.computer) {
    // a turn whose search the wall-time cap cut short says so
    const cut = view.searched && view.searched.cut ? t("engine.cut", { seconds: view.searched.cut }) : "";
    return t(view.hand ? "lights.computer_page" : "lights.computer", { turn: g.computer }) + cut;
  }
  if (view.thinking) return t("lights.thinking");
  if (view.pending) return t("lights.mill", { point: view.pending });
  if (view.lifted) return t("lights.lifted", { point: view.lifted });
  if (view.hint) {
    const a = view.analysis;
    const score = a && a.kind === "hint" && a.plies === (view.turns || []).length ? ` ${evalWords(a)}` : "";
    return t("lights.hint", { turn: view.hint }) + score;
  }
  if (g.outcome) return t(view.hand ? "lights.over_page" : "lights.over");
  if (!(view.turns || []).length) return t(view.hand ? "lights.start_page" : "lights.start");
  const last = view.turns[view.turns.length - 1];
  return t("lights.last", { turn: last });
}

function menuWords(s) {
  const rules = t(`profile.${s.profile}`);
  if (s.mode === "two-player") return t("menu.describe.two_player", { rules });
  return t("menu.describe.computer", { side: sideIn(s.human), level: s.level, rules });
}

function showStatus(view) {
  $("turn").textContent = turnLine(view);
  $("lights").textContent = lightsLine(view);
  if (view.state === "menu" && view.menu && view.menu.settings) {
    $("turn").textContent = `${turnLine(view)}: ${menuWords(view.menu.settings)}`;
  }
  const g = view.game;
  const warning = view.state === "game" && view.warning;
  $("warning").hidden = !warning;
  $("warning").textContent = warning ? (warning.words[LANG] || warning.words.en) : "";
  $("act-playon").hidden = !warning;
  const setup = view.state === "game" && view.setup;
  $("setup-words").hidden = !setup;
  $("setup-words").textContent = setup
    ? t("setup.where", { white: setup.white.join(" ") || "-", black: setup.black.join(" ") || "-" })
    : "";
  list($("problems"), (g && g.problems || []).map((p) => t(`problem.${p.kind}`, { point: p.point })));
  list($("faults"), Object.entries(view.faults || {}).map(([kind, text]) => t("fault.line", { what: t(`fault.${kind}`), why: text })));
  if (view.pairing && !paired && !$("pair-message").textContent) {
    $("pair-message").textContent = t("pair.blinking");
    $("pair-message").className = "message info";
  }
}

function list(ul, items) {
  ul.replaceChildren(...items.map((text) => { const li = document.createElement("li"); li.textContent = text; return li; }));
}

// -- the main actions ---------------------------------------------------------------------------

// The next step of the game: what the third button does now.
function nextStep(view) {
  const can = view.can || {};
  const g = view.game;
  if (view.state === "menu") return { label: t("act.start"), run: () => act({ do: "start" }, t("done.start")) };
  if (view.hand && g.problems && g.problems.length && !g.outcome) {
    return { label: t("act.setup"), run: () => hand({ do: "setup" }) };
  }
  if (view.hand && g.computer) return { label: t("act.play_computer"), run: () => hand({ do: "computer" }) };
  if (can.flag) {
    return { label: t("act.flag", { side: side(other(g.turn)) }), run: () => act({ do: "flag" }, t("done.flag")) };
  }
  if (can.draw) return { label: t("act.draw"), run: () => act({ do: "draw" }, t("done.draw")) };
  return { label: t("act.new"), run: newGame };
}

function showActions(view) {
  const can = view.can || {};
  const inGame = view.state === "game";
  $("act-hint").disabled = !inGame || !can.hint;
  // a player with a limit of hints sees how many are left
  const left = inGame && view.game && view.hints_left ? view.hints_left[view.game.turn] : null;
  $("act-hint").textContent = left === null || left === undefined ? t("act.hint") : t("act.hint_left", { n: left });
  $("act-takeback").disabled = !inGame || !can.takeback;
  $("act-draw").disabled = !inGame || !can.draw;
  $("act-resign").disabled = !inGame || !can.resign;
  $("act-menu").disabled = !inGame;
  const next = nextStep(view);
  $("act-next").textContent = next.label;
  $("act-next").onclick = () => { if (allowedOrAsk()) next.run(); };
}

function allowedOrAsk() {
  if (paired) return true;
  openPairing(t("pair.needed"));
  return false;
}

async function act(data, done) {
  if (!allowedOrAsk()) return false;
  try {
    await post("/api/action", data);
    say(done || "", "ok");
    return true;
  } catch (e) { refused(e); return false; }
}

function refused(e) {
  if (e.code === "not-paired") {
    setPaired(false, false);
    openPairing(t("pair.lost"));
  }
  say(e.message, "error");
}

async function newGame() {
  const g = state && state.game;
  if (g && !g.outcome && (state.turns || []).length && !confirm(t("confirm.abandon"))) return;
  const f = new FormData($("new-game"));
  await startGame(settingsFrom(f));
}

function settingsFrom(f) {
  const data = { do: "new", mode: f.get("mode"), profile: f.get("profile") };
  if (data.mode === "computer") { data.human = f.get("human"); data.level = Number(f.get("level")); }
  else data.clock = f.get("clock") || "";
  for (const s of ["white", "black"]) if (f.get(`assist_${s}`)) data[`assist_${s}`] = f.get(`assist_${s}`);
  const fen = (f.get("fen") || "").trim();
  if (fen) data.fen = fen;
  return data;
}

async function startGame(data) {
  if (await act(data, t(state && state.hand ? "done.new_page" : "done.new"))) {
    if (state && state.hand) await hand({ do: "clear" });  // the page's own men go back to the trays
  }
}

document.querySelectorAll("[data-do]").forEach((b) => {
  b.onclick = () => {
    const what = b.dataset.do;
    if (what === "resign" && !confirm(t("confirm.resign"))) return;
    if (what === "menu" && state && state.game && !state.game.outcome && (state.turns || []).length && !confirm(t("confirm.menu"))) return;
    act({ do: what }, t(`done.${what}`));
  };
});

$("new-game").onsubmit = (event) => {
  event.preventDefault();
  startGame(settingsFrom(new FormData(event.target)));
};
$("new-game").elements.mode.onchange = () => formMode();

function fillLevels() {
  const levels = $("new-game").elements.level;
  const chosen = levels.value || "3";
  levels.replaceChildren();
  for (let n = 1; n <= 10; n++) levels.append(new Option(t("menu.choice.level", { n }), `${n}`, false, `${n}` === chosen));
}

function formMode() {
  const mode = $("new-game").elements.mode.value;
  $("new-game").classList.toggle("two", mode === "two-player");
  $("new-game").classList.toggle("computer", mode === "computer");
}

let formFilledFor = null;
function showGameForm(view) {
  // the form starts from the board's settings, once per game (then it is the reader's)
  const key = view.game_id || view.state;
  if (formFilledFor === key) return;
  formFilledFor = key;
  const s = (view.menu && view.menu.settings) || view.settings || {};
  const f = $("new-game").elements;
  for (const name of ["mode", "human", "profile"]) if (s[name]) f[name].value = s[name];
  if (s.level) f.level.value = `${s.level}`;
  f.clock.value = s.clock || "";
  formMode();
}

// -- the clock ----------------------------------------------------------------------------------

function clockText(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return s.toFixed(1);
  const whole = Math.ceil(s);
  const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), r = whole % 60;
  return h ? `${h}:${String(m).padStart(2, "0")}:${String(r).padStart(2, "0")}` : `${m}:${String(r).padStart(2, "0")}`;
}

function showClock(clock) {
  $("clock").hidden = !clock;
  clockBase = clock ? { ...clock, at: performance.now() } : null;
  tickClock();
}

function tickClock() {
  const c = clockBase;
  if (!c) return;
  const gone = (performance.now() - c.at) / 1000;
  for (const s of SIDES) {
    const left = c.running === s ? Math.max(0, c.left[s] - gone) : c.left[s];
    const box = $(`clock-${s}`);
    box.querySelector(".time").textContent = clockText(left);
    box.classList.toggle("running", c.running === s);
    box.classList.toggle("low", c.flagged === s || left <= c.low_s);
    box.classList.toggle("flagged", c.flagged === s);
  }
}
setInterval(tickClock, 200);

// -- what the computer sees -------------------------------------------------------------------

function evalWords(a) {
  if (a.winner) {
    const n = a.win_in !== null ? a.win_in : a.loss_in;
    return tc("eval.wins", n, { side: side(a.winner) });
  }
  const s = a.white_score;
  const size = Math.abs(s);
  const who = side(s > 0 ? "white" : "black");
  if (size < 25) return t("eval.equal");
  if (size < 75) return t("eval.slightly", { side: who });
  if (size < 150) return t("eval.better", { side: who });
  return t("eval.much", { side: who, n: Math.round(size / 100) });
}

function whiteShare(a) {
  if (a.winner) return a.winner === "white" ? 1 : 0;
  return 0.5 + 0.5 * Math.tanh(a.white_score / 300);
}

function showAnalysis(view) {
  const a = view.analysis;
  const inGame = view.state === "game";
  // the hint's search only: the computer's own search at its level chooses with deliberate noise
  $("panel-analysis").hidden = !inGame || !a;
  $("evalbar").hidden = !inGame || !a;
  if (!inGame || !a) return;
  const current = a.plies === (view.turns || []).length;
  let words = evalWords(a);
  if (!current) words = t("eval.earlier", { words, n: a.plies });
  $("analysis-words").textContent = words;
  const source = a.book ? t("eval.book") : tc(a.kind === "hint" ? "eval.hint_source" : "eval.computer_source", a.depth);
  const line = a.pv && a.pv.length ? t("eval.line", { line: a.pv.slice(0, 6).join(" ") }) : "";
  $("analysis-line").textContent = [source, line].filter(Boolean).join(" · ");
  const bar = document.createElementNS(SVG_NS, "svg");
  bar.setAttribute("viewBox", "0 0 100 10");
  bar.setAttribute("preserveAspectRatio", "none");
  bar.setAttribute("role", "img");
  bar.setAttribute("aria-label", words);
  const share = Math.round(whiteShare(a) * 1000) / 10;
  const leftSide = prefs.flip ? "black" : "white";
  const leftShare = leftSide === "white" ? share : 100 - share;
  bar.append(
    svgEl("rect", { class: `${leftSide}-part`, x: 0, y: 0, width: leftShare, height: 10 }),
    svgEl("rect", { class: `${other(leftSide)}-part`, x: leftShare, y: 0, width: 100 - leftShare, height: 10 }),
    svgEl("line", { class: "middle", x1: 50, y1: 0, x2: 50, y2: 10 }),
    svgEl("rect", { class: "frame", x: 0, y: 0, width: 100, height: 10 }),
  );
  $("evalbar").replaceChildren(bar);
}

function svgEl(tag, attrs, text) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

// -- overlays on the live picture: the menu's labels, the hint's line ---------------------------

function centre(svg, point) {
  const hole = svg.querySelector(`#point-${point} .hole`);
  return hole ? [Number(hole.getAttribute("cx")), Number(hole.getAttribute("cy"))] : null;
}

function choiceShort(question, answer) {
  if (question === "mode") return t(`menu.short.mode.${answer}`);
  if (question === "colour") return t("menu.short.colour", { side: sideIn(answer) });
  if (question === "level") return t("menu.short.level", { n: answer });
  if (question === "rules") return t("menu.short.rules", { rules: t(`profile.${answer}`) });
  return t("menu.short.start");
}

function decorate(svg, view) {
  if (view.menu && view.menu.choices) {
    const chosen = new Set(view.menu.chosen || []);
    const group = svgEl("g", { class: "menu-labels", "pointer-events": "none" });
    svg.append(group);
    for (const [point, [question, answer]] of Object.entries(view.menu.choices)) {
      const at = centre(svg, point);
      if (!at) continue;
      const [x, y] = at;
      const on = chosen.has(point) || question === "start";
      const label = svgEl("g", { class: `menu-label ${question}` + (on ? " chosen" : "") });
      group.append(label);
      if (question === "level") {  // the level's number on its point, large
        label.append(svgEl("circle", { cx: x, cy: y, r: 15 }), svgEl("text", { x, y: y + 6, "text-anchor": "middle" }, `${answer}`));
        continue;
      }
      // words beside the point: above it, or below it for the rules row's every other point
      const below = question === "rules" && ["a", "c", "e", "g"].includes(point[0]);
      const up = view.flipped ? !below : below;
      const text = svgEl("text", { x, y: up ? y + 36 : y - 24, "text-anchor": "middle" }, choiceShort(question, answer));
      label.append(text);
      const box = text.getBBox();
      label.insertBefore(svgEl("rect", { x: box.x - 4, y: box.y - 1, width: box.width + 8, height: box.height + 2, rx: 5 }), text);
    }
  }
  const a = view.analysis;
  if (a && view.hint && a.kind === "hint" && a.plies === (view.turns || []).length && a.pv && a.pv.length) {
    drawLine(svg, a.pv.slice(0, 4), a.side);
  }
}

// The principal variation as arrows: the hint's side in yellow, the reply in grey, numbered.
function drawLine(svg, turns, mover) {
  const group = svgEl("g", { class: "pv", "pointer-events": "none" });
  turns.forEach((text, i) => {
    const who = i % 2 === 0 ? mover : other(mover);
    const colour = i % 2 === 0 ? "#ffd600" : "#b0bec5";
    const m = /^(?:([a-g][1-7])-)?([a-g][1-7])(?:x([a-g][1-7]))?$/.exec(text.replace(" x", "x"));
    if (!m) return;
    const [, from, to, taken] = m;
    const end = centre(svg, to);
    if (!end) return;
    const step = svgEl("g", { class: `step ${who}`, opacity: i === 0 ? 0.95 : 0.75 });
    if (from) {
      const start = centre(svg, from);
      if (start) step.append(...arrow(start, end, colour, i > 0));
    }
    step.append(svgEl("circle", { cx: end[0] + 17, cy: end[1] - 17, r: 11, fill: colour, stroke: "#1e140c", "stroke-width": 1.5 }));
    step.append(svgEl("text", { x: end[0] + 17, y: end[1] - 12, "text-anchor": "middle" }, `${i + 1}`));
    if (!from) step.append(svgEl("circle", { cx: end[0], cy: end[1], r: 14, fill: "none", stroke: colour, "stroke-width": 5 }));
    if (taken) {
      const [x, y] = centre(svg, taken) || [0, 0];
      step.append(svgEl("path", { d: `M${x - 12} ${y - 12}L${x + 12} ${y + 12}M${x - 12} ${y + 12}L${x + 12} ${y - 12}`, stroke: colour, "stroke-width": 6, "stroke-linecap": "round" }));
    }
    group.append(step);
  });
  svg.append(group);
}

function arrow([x0, y0], [x1, y1], colour, dashed) {
  const dx = x1 - x0, dy = y1 - y0, len = Math.hypot(dx, dy) || 1;
  const ux = dx / len, uy = dy / len;
  const tipX = x1 - ux * 20, tipY = y1 - uy * 20, baseX = tipX - ux * 18, baseY = tipY - uy * 18;
  const line = svgEl("line", { x1: x0 + ux * 16, y1: y0 + uy * 16, x2: baseX, y2: baseY, stroke: colour, "stroke-width": 8, "stroke-linecap": "round" });
  if (dashed) line.setAttribute("stroke-dasharray", "10 8");
  const head = svgEl("polygon", {
    points: `${tipX},${tipY} ${baseX - uy * 11},${baseY + ux * 11} ${baseX + uy * 11},${baseY - ux * 11}`,
    fill: colour, stroke: "#1e140c", "stroke-width": 1,
  });
  return [line, head];
}

// -- the legend and the record ------------------------------------------------------------------

function showLegend(legend, colours) {
  const items = legend.map((item) => {
    const li = document.createElement("li");
    const swatch = document.createElementNS(SVG_NS, "svg");
    swatch.setAttribute("width", "22"); swatch.setAttribute("height", "22"); swatch.setAttribute("viewBox", "0 0 22 22");
    swatch.append(
      svgEl("circle", { cx: 11, cy: 11, r: 8, fill: "none", stroke: "#1e140c", "stroke-width": 6, "stroke-opacity": 0.45 }),
      svgEl("circle", { cx: 11, cy: 11, r: 8, fill: "none", stroke: colours[item.role] || "#888", "stroke-width": 4 }),
    );
    const words = document.createElement("span");
    words.textContent = t(`role.${item.role}`);
    const pts = document.createElement("span");
    pts.className = "pts";
    pts.textContent = [...item.points, ...(item.status || []).map((s) => t(`led.${s}`))].join(" ");
    li.append(swatch, words, pts);
    return li;
  });
  $("legend").replaceChildren(...items);
  if (!legend.length) list($("legend"), [t("legend.none")]);
}

function showRecord(turns) {
  const ol = $("record");
  ol.replaceChildren();
  $("record-count").textContent = turns.length ? `(${tc("count.turns", turns.length)})` : "";
  turns.forEach((turn, i) => {
    if (i % 2 === 0) {
      const num = document.createElement("li");
      num.className = "num";
      num.textContent = `${i / 2 + 1}.`;
      ol.append(num);
    }
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.textContent = turn;
    b.dataset.ply = i + 1;
    b.title = t("record.after", { turn });
    if (browsing === i + 1) b.classList.add("on");
    b.onclick = () => browse(i + 1);
    li.append(b);
    ol.append(li);
  });
  if (!turns.length) list(ol, [t("record.none")]);
}

async function browse(ply) {
  if (!state) return;
  const turns = state.turns || [];
  ply = Math.max(0, Math.min(turns.length, ply));
  if (ply === turns.length) { backLive(); return; }
  let svg;
  try { svg = await getSvg(`/api/position?ply=${ply}${prefs.flip ? "&flip=1" : ""}`); } catch (e) { say(e.message, "error"); return; }
  browsing = ply;
  showSvg($("board"), svg);
  $("browsing-text").textContent = ply ? t("record.showing", { n: ply, turn: turns[ply - 1] }) : t("record.showing_start");
  $("browsing").hidden = false;
  showRecord(turns);
}

function backLive() { browsing = null; if (state) show(state); }
$("back-live").onclick = backLive;

// -- the page as the board (sim --web --no-window) ---------------------------------------------

function trayWords(s, view) {
  const tray = view.trays && view.trays[s];
  if (!tray) return side(s);
  return t("hand.tray", { side: side(s), in_hand: tray.in_hand, taken: tray.taken });
}

function showHand(view) {
  const h = view.hand;
  $("hand").hidden = !h || view.state !== "game";
  if (!h) return;
  $("white-tray").textContent = trayWords("white", view);
  $("black-tray").textContent = trayWords("black", view);
  const held = $("held");
  if (h.held) {
    const [kind, where] = h.held.source;
    held.textContent = kind === "point" ? t("hand.holding", { side: sideIn(h.held.colour), point: where }) : t("hand.holding_tray", { side: sideIn(h.held.colour) });
    held.className = "held holding";
  } else {
    held.textContent = t(view.state === "menu" ? "hand.menu" : "hand.how");
    held.className = "held";
  }
  $("drop").disabled = !h.held;
  $("cancel").disabled = !h.held;
  $("setup").disabled = view.state !== "game";
}

async function hand(data) {
  if (!allowedOrAsk()) return false;
  try { await post("/api/hand", data); say(""); return true; } catch (e) { refused(e); return false; }
}

function litAs(point, roles) {
  return (state.legend || []).some((item) => roles.includes(item.role) && item.points.includes(point));
}

$("board").addEventListener("click", async (event) => {
  if (!state || browsing !== null) return;
  const target = event.target.closest("[data-point]");
  if (!target) return;
  const point = target.dataset.point;
  if (state.state === "menu") {
    if (state.menu && state.menu.choices && state.menu.choices[point]) act({ do: "choose", point });
    return;
  }
  const h = state.hand;
  if (!h) return;
  if (h.held) { hand({ do: "put", point }); return; }
  if (h.board[point]) {
    // a man that may be taken goes off the board with one tap; any other is lifted
    if ((state.pending || (state.game && state.game.computer)) && litAs(point, ["removable", "computer-remove"])) {
      if (await hand({ do: "lift", point })) await hand({ do: "drop" });
    } else hand({ do: "lift", point });
    return;
  }
  // while a position is set up, the men put down are the colour whose points are lit
  const colour = (state.setup && state.setup.next) || (state.game && state.game.turn) || "white";
  hand({ do: "place", point, colour });
});
$("drop").onclick = () => hand({ do: "drop" });
$("cancel").onclick = () => hand({ do: "cancel" });
$("setup").onclick = () => hand({ do: "setup" });
$("clear").onclick = () => hand({ do: "clear" });
$("act-hint").onclick = () => act({ do: "hint" }, t("done.hint"));
$("act-takeback").onclick = async () => {
  if (await act({ do: "takeback" }, t(state && state.hand ? "done.takeback_page" : "done.takeback")) && state && state.hand) {
    await hand({ do: "setup" });  // the page's men follow the game back
  }
};

// -- sounds (optional; made, not loaded) -------------------------------------------------------

let audio = null;
function tone(freq, start, length, kind = "sine", volume = 0.15) {
  if (!audio) return;
  const o = audio.createOscillator(), g = audio.createGain();
  o.type = kind; o.frequency.value = freq;
  const at = audio.currentTime + start;
  g.gain.setValueAtTime(volume, at);
  g.gain.exponentialRampToValueAtTime(0.001, at + length);
  o.connect(g).connect(audio.destination);
  o.start(at); o.stop(at + length + 0.02);
}
const SOUNDS = {
  move: () => tone(520, 0, 0.09, "triangle"),
  mill: () => { tone(523, 0, 0.12); tone(659, 0.11, 0.12); tone(784, 0.22, 0.2); },
  removal: () => tone(180, 0, 0.22, "square", 0.08),
  computer: () => { tone(660, 0, 0.08); tone(440, 0.1, 0.14); },
  warning: () => { tone(880, 0, 0.1, "square", 0.07); tone(880, 0.18, 0.1, "square", 0.07); },
};
function play(name) { if (prefs.sound && audio) SOUNDS[name](); }

function sounds(before, now) {
  const b = before.game, g = now.game;
  if (!b || !g) return;
  const turns = now.turns || [], old = before.turns || [];
  if (turns.length > old.length) {
    const last = turns[turns.length - 1];
    play(last.includes("x") ? "removal" : "move");
  }
  if (now.pending && !before.pending) play("mill");
  if (g.computer && !b.computer) play("computer");
  const trouble = (s) => (s.game.problems || []).length + Object.keys(s.faults || {}).length + ((s.clock && s.clock.low.length) || 0);
  if (trouble(now) > trouble(before)) play("warning");
}

// -- pairing ------------------------------------------------------------------------------------

async function pairState() {
  let s;
  try { s = await getJson("/api/pair"); } catch (e) { say(e.message, "error"); return; }
  pairInfo = s;
  setPaired(s.paired, s.trusted);
}

function setPaired(yes, trusted) {
  const lost = paired && !yes;
  paired = yes;
  const badge = $("pair");
  badge.textContent = trusted ? t("pair.trusted") : yes ? t("pair.paired") : t("pair.button");
  badge.classList.toggle("paired", yes && !trusted);
  badge.classList.toggle("trusted", !!trusted);
  badge.title = trusted ? t("pair.trusted_why") : "";
  document.body.classList.toggle("locked-controls", !yes);
  $("locked").hidden = yes;
  $("unpair").hidden = !yes || !!trusted;
  $("brightness").disabled = !yes;
  if (lost) say(t("pair.lost"), "error");
}

function openPairing(why) {
  const info = pairInfo;
  $("pair-why").textContent = why || t("pair.why");
  $("pair-buttons").hidden = !info.buttons;
  $("pin-row").hidden = !info.pin;
  const none = !info.buttons && !info.pin && !paired;
  $("pair-none").hidden = !none;
  if (none) $("pair-none").textContent = t(info.board_page ? "pair.none_page" : "pair.none");
  $("pair-message").textContent = "";
  $("pair-code").hidden = true;
  if (!$("pairing").open) $("pairing").showModal();
}

$("pair").onclick = async () => { await pairState(); if (pairInfo.trusted) { say(t("pair.trusted_why"), "info"); return; } openPairing(paired ? t("pair.is_paired") : null); };

$("ask").onclick = async () => {
  const m = $("pair-message");
  m.className = "message";
  m.textContent = "";
  try {
    const { request, code } = await post("/api/pair", {});
    const words = code.map((b) => t(`button.${b}`));
    $("pair-code").textContent = words.join(" · ");
    $("pair-code").hidden = false;
    m.textContent = t("pair.press", { code: words.join(", ") });
    m.className = "message info";
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 700));
      const answer = await post("/api/pair/claim", { request });
      if (answer.paired) break;
    }
    m.textContent = t("pair.done");
    m.className = "message ok";
    $("pair-code").hidden = true;
    setPaired(true, false);
  } catch (e) { m.textContent = e.message; m.className = "message error"; }
};

$("send-pin").onclick = async () => {
  const m = $("pair-message");
  try {
    await post("/api/pair", { pin: $("pin").value });
    $("pin").value = "";
    m.textContent = t("pair.done");
    m.className = "message ok";
    setPaired(true, false);
  } catch (e) { m.textContent = e.message; m.className = "message error"; }
};

$("unpair").onclick = async () => {
  try { await post("/api/unpair", {}); } catch (e) { say(e.message, "error"); }
  await pairState();
};

// -- settings -----------------------------------------------------------------------------------

$("settings-open").onclick = () => {
  $("theme").value = prefs.theme;
  $("flip").checked = prefs.flip;
  $("sound").checked = prefs.sound;
  $("settings").showModal();
};
$("lang").onchange = async () => { prefs.lang = $("lang").value; savePrefs(); await loadWords(prefs.lang); };
$("theme").onchange = () => { prefs.theme = $("theme").value; savePrefs(); applyTheme(); };
$("flip").onchange = () => {
  prefs.flip = $("flip").checked; savePrefs(); connect();
  if (review.id) step(review.ply);
};
$("sound").onchange = () => {
  prefs.sound = $("sound").checked; savePrefs();
  if (prefs.sound) {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    audio.resume();
    SOUNDS.move();
  }
};
document.addEventListener("click", () => {
  if (prefs.sound && !audio) audio = new (window.AudioContext || window.webkitAudioContext)();
}, { once: true });
$("brightness").oninput = () => { $("brightness-value").textContent = `${$("brightness").value} %`; };
$("brightness").onchange = () => act({ do: "brightness", value: Number($("brightness").value) / 100 });

// -- review -------------------------------------------------------------------------------------

function showPane(name) {
  document.querySelectorAll(".tab").forEach((tab) => {
    const on = tab.dataset.tab === name;
    tab.classList.toggle("on", on);
    tab.setAttribute("aria-selected", on ? "true" : "false");
  });
  document.querySelectorAll(".pane").forEach((p) => p.classList.toggle("on", p.id === name));
  if (name === "review") { loadGames(); if ($("practice").open) loadPractice(); }
}
document.querySelectorAll(".tab").forEach((tab) => { tab.onclick = () => showPane(tab.dataset.tab); });

// The reader's own way of writing dates in the page's language (en-GB, de-AT, ...).
const locale = () => (navigator.languages || []).find((l) => l.toLowerCase().split("-")[0] === (LANG === "nb" ? "nb" : LANG)) || LANG;

function localTime(iso, style) {
  if (!iso) return "";
  try {
    return new Intl.DateTimeFormat(locale(), style || { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
  } catch (e) { return iso; }
}

function resultWords(result) {
  return t({ "1-0": "result.white", "0-1": "result.black", "1/2-1/2": "result.draw" }[result] || "result.unfinished");
}

let listing = 0;  // the latest request for the list: an answer to an older one is dropped

async function loadGames(offset = 0) {
  const status = $("filter-status").value, player = $("filter-player").value;
  const query = `offset=${offset}&status=${status}` + (player ? `&player=${encodeURIComponent(player)}` : "");
  const mine = ++listing;
  let page;
  try { page = await getJson(`/api/records?${query}`); } catch (e) { list($("games"), [e.message]); return; }
  if (mine !== listing) return;  // the filters changed meanwhile
  const ul = $("games");
  if (!offset) ul.replaceChildren();
  else if (ul.lastChild && ul.lastChild.classList.contains("more")) ul.lastChild.remove();
  fillPlayers(page.players || []);
  const empty = $("games-empty");
  empty.hidden = !!page.records.length || !!offset;
  if (!page.records.length && !offset) {
    empty.textContent = t(!page.kept ? "review.empty.none" : page.all ? "review.empty.filtered" : "review.empty");
    if (!review.id) {
      $("review-board").replaceChildren();
      $("review-title").textContent = t("review.title");
      $("review-tags").textContent = t(!page.kept ? "review.empty.none" : "review.empty.board");
    }
  }
  for (const r of page.records) ul.append(gameRow(r));
  if (offset + page.records.length < (page.total || 0)) {
    const li = document.createElement("li");
    li.className = "more";
    const b = document.createElement("button");
    b.textContent = t("review.more", { n: page.total - offset - page.records.length });
    b.onclick = () => loadGames(offset + page.records.length);
    li.append(b);
    ul.append(li);
  }
  if (!offset && !review.id && page.records.length && !page.records[0].error) openGame(page.records[0].id);
}

function fillPlayers(names) {
  const select = $("filter-player");
  const chosen = select.value;  // the reader's choice as it is now
  const first = new Option(t("review.anyone"), "", false, !chosen);
  select.replaceChildren(first, ...names.map((n) => new Option(n, n, false, n === chosen)));
}

function gameRow(r) {
  const li = document.createElement("li");
  const b = document.createElement("button");
  b.className = "game";
  b.dataset.id = r.id;
  const when = document.createElement("span");
  when.className = "when";
  const who = document.createElement("span");
  who.className = "who";
  if (r.error) {
    when.textContent = r.id;
    who.textContent = t("review.unreadable");
    b.disabled = true;
  } else {
    when.textContent = localTime(r.started || r.ended) || r.id;
    const result = document.createElement("span");
    result.className = r.finished ? "" : "unfinished";
    result.textContent = resultWords(r.result);
    who.append(`${r.white} – ${r.black} · `, result, ` · ${tc("count.turns", r.turns)}`);
  }
  b.append(when, who);
  b.onclick = () => openGame(r.id);
  if (r.id === review.id) b.classList.add("on");
  li.append(b);
  if (r.finished === false) {
    const del = document.createElement("button");
    del.className = "warn delete";
    del.textContent = t("review.delete_short");
    del.title = t("review.delete");
    del.setAttribute("aria-label", t("review.delete"));
    del.onclick = () => deleteGame(r.id);
    li.append(del);
  }
  return li;
}

async function deleteGame(id) {
  if (!allowedOrAsk() || !confirm(t("review.delete_confirm"))) return;
  try {
    await post(`/api/records/${encodeURIComponent(id)}/delete`, {});
    if (review.id === id) review = { id: null, turns: [], ply: 0, started: null, tags: {} };
    say(t("review.deleted"), "ok");
    loadGames();
  } catch (e) { refused(e); $("review-tags").textContent = e.message; }
}

$("filter-status").onchange = () => loadGames();
$("filter-player").onchange = () => loadGames();

function tagLine(tags) {
  const parts = [`${tags.White || "?"} – ${tags.Black || "?"}`, resultWords(tags.Result)];
  if (tags.Reason && tags.Reason !== "unfinished") parts.push(t(`reason.${tags.Reason}`));
  if (tags.Profile) parts.push(t("review.rules", { rules: t(`profile.${tags.Profile}`) }));
  if (tags.TimeControl) parts.push(t("review.clock", { clock: tags.TimeControl }));
  if (tags.TimeForfeit) parts.push(t("review.forfeit", { side: side(tags.TimeForfeit) }));
  if (tags.FEN) parts.push(t("review.from_fen"));
  if (tags.Assistance) parts.push(assistTag(tags.Assistance));
  return parts.join(" · ");
}

// the record's Assistance tag ("white: targets warn; black: plain") in the page's words
function assistTag(tag) {
  const sides = tag.split(";").map((part) => part.trim().split(":")).filter((p) => p.length === 2);
  return sides.map(([who, what]) => {
    const words = what.trim().split(/\s+/).map((word) => {
      if (word === "targets") return t("assist.targets");
      if (word === "warn") return t("assist.warn");
      if (word === "hints=0") return t("assist.hints.none");
      if (word.startsWith("hints=")) return tc("count.hints", Number(word.slice(6)));
      return t("assist.preset.plain");
    });
    return t("review.assist", { side: sideIn(who.trim()), what: words.join(", ") });
  }).join(" · ");
}

async function openGame(id) {
  let r;
  try { r = await getJson(`/api/records/${encodeURIComponent(id)}`); } catch (e) { $("review-tags").textContent = e.message; return; }
  review = { id, turns: r.turns, ply: r.turns.length, started: r.started, tags: r.tags };
  $("review-title").textContent = r.started ? t("review.game_of", { when: localTime(r.started) }) : t("review.game_id", { id });
  $("review-tags").textContent = tagLine(r.tags);
  $("downloads").hidden = false;
  $("fen-row").hidden = false;
  $("dl-record").href = `/api/records/${encodeURIComponent(id)}/download?format=record`;
  $("dl-sanmill").href = `/api/records/${encodeURIComponent(id)}/download?format=sanmill`;
  document.querySelectorAll("#games .game").forEach((b) => b.classList.toggle("on", b.dataset.id === id));
  graded = null;
  step(review.ply);
  loadReview(id);
}

async function step(ply) {
  if (!review.id) return;
  ply = Math.max(0, Math.min(review.turns.length, ply));
  review.ply = ply;
  const base = `/api/records/${encodeURIComponent(review.id)}`;
  const flip = prefs.flip ? "&flip=1" : "";
  try {
    showSvg($("review-board"), await getSvg(`${base}/picture?ply=${ply}${flip}`));
    drawBetter(ply);
    const fen = await getJson(`${base}/fen?ply=${ply}`);
    $("fen").value = fen.fen;
    $("review-tags").textContent = tagLine(review.tags);
  } catch (e) {
    $("review-board").replaceChildren();
    $("fen").value = "";
    $("review-tags").textContent = e.message;
  }
  $("dl-svg").href = `${base}/picture?ply=${ply}&download=1${flip}`;
  $("dl-fen").href = `${base}/fen?ply=${ply}&download=1`;
  $("review-ply").textContent = ply ? `${ply}/${review.turns.length}: ${review.turns[ply - 1]}` : `${t("review.start")}/${review.turns.length}`;
  showGrade(ply);
  const ol = $("review-record");
  ol.replaceChildren(...review.turns.map((turn, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.textContent = `${i % 2 ? "" : (i / 2 + 1) + ". "}${turn}`;
    const g = gradeOf(i + 1);
    if (g && SYMBOLS[g.grade]) {
      const mark = document.createElement("span");
      mark.className = `g ${g.grade}`;
      mark.textContent = SYMBOLS[g.grade];
      mark.title = t(`grade.${g.grade}`);
      b.append(mark);
    }
    b.dataset.ply = i + 1;
    if (i + 1 === ply) b.classList.add("on");
    b.onclick = () => step(i + 1);
    li.append(b);
    return li;
  }));
}

// -- the review of a game: grades, the better turn, the evaluation chart ---------------------------

const SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const SVGNS = "http://www.w3.org/2000/svg";
const CHART_CAP = 600; // centi-men at the chart's edge: six men ahead, or a known result
let graded = null; // the review of the game open in review: { status, turns: [...] }
let gradedTimer = null;

function gradeOf(ply) {
  return graded && graded.status === "done" && ply > 0 ? graded.turns[ply - 1] || null : null;
}

async function loadReview(id) {
  clearTimeout(gradedTimer);
  let r;
  try { r = await getJson(`/api/records/${encodeURIComponent(id)}/review`); } catch (e) { r = { status: "failed", error: e.message }; }
  if (review.id !== id) return;
  graded = r;
  showGrade(review.ply);
  if (r.status === "done") step(review.ply);
  if (r.status === "queued" || r.status === "running") gradedTimer = setTimeout(() => loadReview(id), 2000);
}

function showGrade(ply) {
  const line = $("review-grade");
  line.replaceChildren();
  drawChart(ply);
  if (!graded || graded.status !== "done") {
    if (graded && (graded.status === "queued" || graded.status === "running")) {
      line.textContent = t("review.grading", { done: graded.done || 0, of: graded.of || review.turns.length });
    } else if (graded && graded.status === "failed") {
      line.textContent = t("review.grading_failed", { error: graded.error || "" });
    }
    return;
  }
  const g = gradeOf(ply);
  if (!g) { line.textContent = ply ? "" : t("review.pick_turn"); return; }
  const word = document.createElement("span");
  word.className = `g ${g.grade}`;
  word.textContent = `${g.turn}${SYMBOLS[g.grade] || ""} ${t(`grade.${g.grade}`)}`;
  line.append(word);
  if (g.better) line.append(` · ${t("review.better", { turn: g.better })}`);
  if (g.loss && typeof g.loss === "object") line.append(` · ${t("review.threw", { from: t(`value.${g.loss.from}`), to: t(`value.${g.loss.to}`) })}`);
  else if (g.loss > 0) line.append(` · ${t("review.loss", { men: (g.loss / 100).toFixed(1) })}`);
}

function pointAt(svg, name) {
  const hole = svg.querySelector(`#point-${name} .hole`);
  return hole ? [Number(hole.getAttribute("cx")), Number(hole.getAttribute("cy"))] : null;
}

function drawBetter(ply) {
  const g = gradeOf(ply);
  const svg = $("review-board").querySelector("svg");
  if (!g || !g.better || !svg) return;
  const m = /^(?:([a-g][1-7])-)?([a-g][1-7])(?:x([a-g][1-7]))?$/.exec(g.better);
  if (!m) return;
  const to = pointAt(svg, m[2]);
  if (!to) return;
  const group = document.createElementNS(SVGNS, "g");
  group.setAttribute("id", "better");
  group.setAttribute("class", "better");
  const from = m[1] ? pointAt(svg, m[1]) : null;
  if (from) {
    const line = document.createElementNS(SVGNS, "line");
    line.setAttribute("class", "better-arrow");
    [["x1", from[0]], ["y1", from[1]], ["x2", to[0]], ["y2", to[1]]].forEach(([k, v]) => line.setAttribute(k, v));
    group.append(line);
    const head = document.createElementNS(SVGNS, "polygon");
    const angle = Math.atan2(to[1] - from[1], to[0] - from[0]);
    const tip = (a, r) => `${to[0] - r * Math.cos(angle + a)},${to[1] - r * Math.sin(angle + a)}`;
    head.setAttribute("points", `${to[0]},${to[1]} ${tip(0.45, 30)} ${tip(-0.45, 30)}`);
    head.setAttribute("fill", "#1a9e4a");
    group.append(head);
  }
  const ring = document.createElementNS(SVGNS, "circle");
  ring.setAttribute("class", "better-ring");
  ring.setAttribute("cx", to[0]);
  ring.setAttribute("cy", to[1]);
  ring.setAttribute("r", 27);
  group.append(ring);
  svg.append(group);
}

function drawChart(ply) {
  const box = $("review-chart");
  const turns = graded && graded.status === "done" ? graded.turns : null;
  if (!turns || !turns.length) { box.replaceChildren(); return; }
  const w = 320, h = 110, pad = 6, n = turns.length;
  const x = (i) => pad + (i * (w - 2 * pad)) / n;
  const y = (v) => h / 2 - (Math.max(-CHART_CAP, Math.min(CHART_CAP, v)) * (h / 2 - pad)) / CHART_CAP;
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("review.chart"));
  const zero = document.createElementNS(SVGNS, "line");
  zero.setAttribute("class", "zero");
  [["x1", pad], ["y1", h / 2], ["x2", w - pad], ["y2", h / 2]].forEach(([k, v]) => zero.setAttribute(k, v));
  svg.append(zero);
  const values = [0, ...turns.map((r) => r.white_eval)];
  const line = document.createElementNS(SVGNS, "polyline");
  line.setAttribute("class", "line");
  line.setAttribute("points", values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
  svg.append(line);
  const now = document.createElementNS(SVGNS, "line");
  now.setAttribute("class", "now");
  [["x1", x(ply)], ["y1", pad / 2], ["x2", x(ply)], ["y2", h - pad / 2]].forEach(([k, v]) => now.setAttribute(k, v));
  svg.append(now);
  turns.forEach((r, i) => {
    const dot = document.createElementNS(SVGNS, "circle");
    dot.setAttribute("class", `pt ${r.grade}`);
    dot.setAttribute("cx", x(i + 1).toFixed(1));
    dot.setAttribute("cy", y(r.white_eval).toFixed(1));
    dot.setAttribute("r", SYMBOLS[r.grade] ? 3.6 : 2);
    svg.append(dot);
    // a tall, thin target per turn, so that a finger finds it on a phone
    const hit = document.createElementNS(SVGNS, "rect");
    hit.setAttribute("class", "hit");
    hit.setAttribute("id", `chart-ply-${i + 1}`);
    hit.setAttribute("data-ply", i + 1);
    hit.setAttribute("x", (x(i + 1) - (w - 2 * pad) / n / 2).toFixed(1));
    hit.setAttribute("y", 0);
    hit.setAttribute("width", ((w - 2 * pad) / n).toFixed(1));
    hit.setAttribute("height", h);
    const title = document.createElementNS(SVGNS, "title");
    title.textContent = `${i + 1}. ${r.turn}${SYMBOLS[r.grade] || ""}`;
    hit.append(title);
    hit.addEventListener("click", () => step(i + 1));
    svg.append(hit);
  });
  box.replaceChildren(svg);
}

// -- practice positions: chosen by theme and difficulty, set up on the board, each of the player's turns judged --

let practiceAll = null; // { themes, positions }
let practice = null; // the position being practised: { id, fen, side, gameId, sent (the turns last judged), busy, done }

function practicePlayer() {
  return ($("practice-player").value || "").trim() || "Player";
}

async function loadPractice() {
  if (!practiceAll) {
    try { practiceAll = await getJson("/api/practice"); } catch (e) { $("practice-record").textContent = e.message; return; }
    const sel = $("practice-theme");
    sel.replaceChildren(new Option(t("practice.any"), ""), ...Object.keys(practiceAll.themes).map((k) => new Option(t(`theme.${k}`), k)));
  }
  let record = { solved: {}, levels: {} };
  try { record = await getJson(`/api/practice/player?name=${encodeURIComponent(practicePlayer())}`); } catch (e) { /* no record kept */ }
  const theme = $("practice-theme").value, level = $("practice-level").value;
  const shown = practiceAll.positions.filter((p) => (!theme || p.theme === theme) && (!level || String(p.difficulty) === level));
  $("practice-list").replaceChildren(...shown.map((p) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.className = "game practice-item";
    b.dataset.id = p.id;
    const what = document.createElement("span");
    what.className = "when";
    what.textContent = `${t(`theme.${p.theme}`)} · ${t(`practice.d${p.difficulty}`)}${record.solved[p.id] ? " ✓" : ""}`;
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = t("practice.to_move", { side: side(p.side) });
    b.append(what, who);
    b.onclick = () => startPractice(p);
    li.append(b);
    return li;
  }));
  const levels = Object.entries(record.levels || {}).map(([lv, r]) => t("practice.level_line", { level: lv, won: r.won, drawn: r.drawn, lost: r.lost }));
  $("practice-record").textContent = [t("practice.solved", { n: Object.keys(record.solved || {}).length, of: practiceAll.positions.length }), ...levels].join(" · ");
}

async function startPractice(p) {
  const ok = await act({ do: "new", mode: "computer", human: p.side, level: 10, profile: p.profile, fen: p.fen }, t("practice.started", { side: side(p.side) }));
  if (!ok) return;
  practice = { id: p.id, fen: p.fen, side: p.side, gameId: null, sent: "", busy: false, done: false };
  showPane("live");
  window.scrollTo(0, 0); // the board, where the position is set up, at the top
}

// called with every view: after each of the player's turns (and when the game ends) the practice
// game so far is sent to be judged, until the answer is final (solved or not)
async function judgePractice(view) {
  if (!practice || practice.done || practice.busy || view.state !== "game") return;
  if (practice.gameId === null) { practice.gameId = view.game_id; return; }
  if (view.game_id !== practice.gameId) { practice = null; return; }
  const turns = view.turns || [];
  const over = !!(view.game && view.game.outcome);
  const sent = turns.join(" "); // by text, so a turn taken back and played otherwise is judged again
  // the player moves first, so an odd count means the player's turn was the last
  if (view.setup || !turns.length || sent === practice.sent || (turns.length % 2 === 0 && !over)) return;
  practice.busy = true;
  practice.sent = sent;
  try {
    const r = await post("/api/practice/check", { id: practice.id, turns: sent, player: practicePlayer() });
    const last = r.turns[r.turns.length - 1];
    if (r.status === "playing") {
      say(t("practice.going", { turn: last.turn, grade: t(`grade.${last.grade}`), n: last.number, of: r.bound }), "info");
    } else {
      practice.done = true;
      if (r.solved) say(t("practice.right", { turn: last.turn }), "ok");
      else if (!last.kept && !last.better) say(t("practice.wrong_only", { turn: last.turn }), "error");
      else if (!last.kept) say(t(last.number === 1 ? "practice.wrong" : "practice.wrong_later", { turn: last.turn, best: last.better, n: last.number }), "error");
      else say(t("practice.missed", { n: r.bound }), "error");
      if ($("practice").open) loadPractice();
    }
  } catch (e) { practice.done = true; refused(e); }
  finally { practice.busy = false; }
}

$("practice-theme").onchange = () => loadPractice();
$("practice-level").onchange = () => loadPractice();
$("practice-player").onchange = () => { try { localStorage.setItem("morris-player", practicePlayer()); } catch (e) { /* private mode */ } loadPractice(); };
try { $("practice-player").value = localStorage.getItem("morris-player") || ""; } catch (e) { /* private mode */ }
$("practice").addEventListener("toggle", () => { if ($("practice").open) loadPractice(); });

$("first").onclick = () => step(0);
$("prev").onclick = () => step(review.ply - 1);
$("next").onclick = () => step(review.ply + 1);
$("last").onclick = () => step(review.turns.length);
$("fen").onfocus = () => $("fen").select();

// the arrow keys step through a game in review, and through the record of the live one
document.addEventListener("keydown", (event) => {
  const tag = (event.target.tagName || "").toLowerCase();
  if (["input", "select", "textarea"].includes(tag) || event.altKey || event.ctrlKey || event.metaKey) return;
  const inReview = $("review").classList.contains("on");
  const keys = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
  if (inReview && review.id && event.key in keys) {
    const d = keys[event.key];
    step(d === -Infinity ? 0 : d === Infinity ? review.turns.length : review.ply + d);
    event.preventDefault();
  } else if (!inReview && state && event.key in keys) {
    const turns = (state.turns || []).length;
    const at = browsing === null ? turns : browsing;
    const d = keys[event.key];
    browse(d === -Infinity ? 0 : d === Infinity ? turns : at + d);
    event.preventDefault();
  } else if (!inReview && event.key === "Escape" && browsing !== null) {
    backLive();
  }
});

// -- start ----------------------------------------------------------------------------------------

applyTheme();
$("flip").checked = prefs.flip;
$("sound").checked = prefs.sound;
loadWords(prefs.lang).catch((e) => say(e.message, "error")).finally(() => {
  formMode();
  pairState();
  connect();
});
