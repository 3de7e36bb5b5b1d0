// The morris-pi companion page: plain JavaScript, served from the package, no build step.
// It listens to the board over Server-Sent Events and sends changes as JSON POSTs.
// Nothing it receives is ever parsed as HTML: words go in as textContent, and the board
// pictures (SVG) through DOMParser as SVG, so a record's turns or tags cannot run script
// (the Content-Security-Policy forbids inline script besides).
"use strict";

const $ = (id) => document.getElementById(id);
let state = null;        // the last view from the board
let browsing = null;     // the ply shown instead of the live board, or null
let paired = false;
let review = { id: null, turns: [], ply: 0 };

// -- talking to the board ---------------------------------------------------------------

async function post(path, data) {
  const response = await fetch(path, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(data || {}),
  });
  let body = {};
  try { body = await response.json(); } catch (e) { /* an empty answer */ }
  if (!response.ok && response.status !== 202) throw new Error(body.error || `${response.status} ${response.statusText}`);
  return body;
}

// The SVG text of a board picture as the only child of box; false (and box emptied) if it is not one.
function showSvg(box, text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = doc.documentElement;
  if (!svg || svg.namespaceURI !== "http://www.w3.org/2000/svg" || doc.getElementsByTagName("parsererror").length) {
    box.replaceChildren();
    return false;
  }
  box.replaceChildren(document.importNode(svg, true));
  return true;
}

// A GET's JSON; an answer that is not ok throws its error sentence.
async function getJson(path) {
  const response = await fetch(path, { credentials: "same-origin" });
  let body = {};
  try { body = await response.json(); } catch (e) { /* not JSON */ }
  if (!response.ok) throw new Error(body.error || `${response.status} ${response.statusText}`);
  return body;
}

// A GET's SVG text; an answer that is not ok throws its error sentence.
async function getSvg(path) {
  const response = await fetch(path, { credentials: "same-origin" });
  if (!response.ok) {
    let body = {};
    try { body = await response.json(); } catch (e) { /* not JSON */ }
    throw new Error(body.error || `${response.status} ${response.statusText}`);
  }
  return response.text();
}

function say(text, ok) {
  const m = $("message");
  m.textContent = text || "";
  m.className = "message" + (ok ? " ok" : "");
}

function connect() {
  const events = new EventSource("/api/events");
  events.addEventListener("state", (e) => {
    $("conn").textContent = "live";
    $("conn").className = "conn live";
    show(JSON.parse(e.data));
  });
  events.onerror = () => {
    $("conn").textContent = "connection lost, retrying...";
    $("conn").className = "conn lost";
  };
}

// -- the live board ---------------------------------------------------------------------

function show(view) {
  if (!view) return;
  state = view;
  document.body.dataset.version = view.version;
  const inMenu = view.state === "menu";
  if (browsing === null || inMenu) {
    browsing = null;
    showSvg($("board"), view.svg);
    $("browsing").hidden = true;
  }
  $("board").classList.toggle("clickable", !!view.hand);
  $("status").textContent = view.status;
  const g = view.game;
  $("turn").textContent = inMenu ? "Set-up menu" : g.outcome ? `Game over: ${view.outcome_text}`
    : `${cap(g.turn)} to move` + (view.pending ? ` — ${view.pending} closed a mill: take a man` : "");
  let computer = "";
  if (!inMenu && view.computer_side) {
    if (g.computer) computer = `Computer's turn: ${g.computer}. Make it on the board as the lights show.`;
    else if (view.thinking) computer = "Computer thinking...";
    else if (view.searched) computer = `The computer's last search: ${view.searched}`;
  }
  if (!inMenu && view.hint) computer = (computer ? computer + " " : "") + `Hint: ${view.hint}`;
  $("computer").textContent = computer;
  list($("problems"), (g && g.problems || []).map((p) => p.text));
  list($("faults"), Object.values(view.faults || {}));
  showMenu(view.menu);
  showLegend(view.legend || [], view.colours || {});
  showRecord(view.turns || []);
  showHand(view.hand);
  $("brightness").value = Math.round(view.brightness * 100);
  $("brightness-value").textContent = `${Math.round(view.brightness * 100)} %`;
  if (view.pairing && !paired && !$("pair-message").textContent) {
    $("pair-message").textContent = "The board is blinking: a browser asks to pair.";
    $("pair-message").className = "message info";
  }
}

const cap = (s) => s ? s[0].toUpperCase() + s.slice(1) : "";

function list(ul, items) {
  ul.replaceChildren(...items.map((text) => { const li = document.createElement("li"); li.textContent = text; return li; }));
}

function showMenu(menu) {
  const box = $("menu");
  box.hidden = !menu;
  if (!menu) return;
  box.replaceChildren();
  const p = document.createElement("p");
  const b = document.createElement("b");
  b.textContent = "Set-up menu on the board:";
  p.append(b, " ", menu.describe);
  box.append(p);
  const hint = document.createElement("p");
  hint.className = "note";
  hint.textContent = "Choose on the board with a man, or start a game below.";
  box.append(hint);
}

function showLegend(legend, colours) {
  $("legend").replaceChildren(...legend.map((item) => {
    const li = document.createElement("li");
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = colours[item.role] || "#888";
    const words = document.createElement("span");
    words.textContent = item.words;
    const pts = document.createElement("span");
    pts.className = "pts";
    pts.textContent = item.points.join(" ");
    li.append(sw, words, pts);
    return li;
  }));
  if (!legend.length) list($("legend"), ["none lit"]);
}

function showRecord(turns) {
  const ol = $("record");
  ol.replaceChildren();
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
    b.title = `the position after ${turn}`;
    if (browsing === i + 1) b.classList.add("on");
    b.onclick = () => browse(i + 1);
    li.append(b);
    ol.append(li);
  });
}

async function browse(ply) {
  let svg;
  try { svg = await getSvg(`/api/position?ply=${ply}`); } catch (e) { say(e.message); return; }
  browsing = ply;
  showSvg($("board"), svg);
  $("browsing-ply").textContent = `${ply} (${state.turns[ply - 1]})`;
  $("browsing").hidden = false;
  showRecord(state.turns);
}

$("back-live").onclick = () => { browsing = null; show(state); };

// -- the page as the board (sim --web --no-window) ---------------------------------------

function showHand(hand) {
  $("hand").hidden = !hand;
  if (!hand) return;
  $("white-hand").textContent = hand.in_hand.white;
  $("black-hand").textContent = hand.in_hand.black;
  $("white-off").textContent = hand.removed.white;
  $("black-off").textContent = hand.removed.black;
  const held = $("held");
  if (hand.held) {
    const [kind, where] = hand.held.source;
    held.textContent = `Holding a ${hand.held.colour} man (from ${kind === "point" ? where : "the " + where + " " + kind + " tray"}): click a point to put it down.`;
    held.className = "held holding";
  } else {
    held.textContent = "Click an empty point to put a man of the side to move; click a man to lift it.";
    held.className = "held";
  }
  $("drop").disabled = !hand.held;
  $("cancel").disabled = !hand.held;
}

async function hand(data) {
  try { await post("/api/hand", data); say(""); } catch (e) { say(e.message); }
}

$("board").addEventListener("click", (event) => {
  if (!state || !state.hand || browsing !== null) return;
  const target = event.target.closest("[data-point]");
  if (!target) return;
  const point = target.dataset.point;
  const h = state.hand;
  if (h.held) hand({ do: "put", point });
  else if (h.board[point]) hand({ do: "lift", point });
  else hand({ do: "place", point, colour: (state.game && state.game.turn) || "white" });
});
$("drop").onclick = () => hand({ do: "drop" });
$("cancel").onclick = () => hand({ do: "cancel" });

// -- control ------------------------------------------------------------------------------

async function act(data, done) {
  try { await post("/api/action", data); say(done || "", true); } catch (e) { say(e.message); }
}

document.querySelectorAll("[data-do]").forEach((b) => {
  b.onclick = () => {
    if (b.dataset.do === "resign" && !confirm("Resign this game?")) return;
    act({ do: b.dataset.do }, `${b.textContent}: sent to the board`);
  };
});

const levels = document.querySelector("select[name=level]");
for (let n = 1; n <= 10; n++) levels.append(new Option(`${n}`, `${n}`, false, n === 3));

$("new-game").onsubmit = (event) => {
  event.preventDefault();
  const f = new FormData(event.target);
  act({ do: "new", mode: f.get("mode"), human: f.get("human"), level: Number(f.get("level")), profile: f.get("profile") },
    "New game started: clear the board as the lights show.");
};

$("brightness").oninput = () => { $("brightness-value").textContent = `${$("brightness").value} %`; };
$("brightness").onchange = () => act({ do: "brightness", value: Number($("brightness").value) / 100 });

// -- pairing ------------------------------------------------------------------------------

async function pairState() {
  let s;
  try { s = await getJson("/api/pair"); } catch (e) { say(e.message); return; }
  setPaired(s.paired);
  $("pin-row").hidden = !s.pin;
  $("ask").disabled = !s.buttons;
}

function setPaired(yes) {
  paired = yes;
  $("pair").textContent = yes ? "Paired" : "Pair";
  $("pair").classList.toggle("paired", yes);
  $("controls").classList.toggle("locked", !yes);
  $("locked").hidden = yes;
  $("unpair").hidden = !yes;
}

$("pair").onclick = () => { $("pair-message").textContent = ""; $("pairing").showModal(); };

$("ask").onclick = async () => {
  const m = $("pair-message");
  m.className = "message";
  try {
    const { request, words } = await post("/api/pair", {});
    m.textContent = `The board is blinking: press its buttons in this order: ${words.join(", ")}.`;
    m.className = "message info";
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 700));
      const answer = await post("/api/pair/claim", { request });
      if (answer.paired) break;
    }
    m.textContent = "Paired.";
    m.className = "message ok";
    setPaired(true);
  } catch (e) { m.textContent = e.message; }
};

$("send-pin").onclick = async () => {
  const m = $("pair-message");
  try {
    await post("/api/pair", { pin: $("pin").value });
    m.textContent = "Paired.";
    m.className = "message ok";
    setPaired(true);
  } catch (e) { m.textContent = e.message; m.className = "message"; }
};

$("unpair").onclick = async () => { await post("/api/unpair", {}); setPaired(false); };

// -- review -------------------------------------------------------------------------------

document.querySelectorAll(".tab").forEach((tab) => {
  tab.onclick = () => {
    document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("on", t === tab));
    document.querySelectorAll(".pane").forEach((p) => p.classList.toggle("on", p.id === tab.dataset.tab));
    if (tab.dataset.tab === "review") loadGames();
  };
});

async function loadGames(offset = 0) {
  let page;
  try { page = await getJson(`/api/records?offset=${offset}`); } catch (e) { list($("games"), [e.message]); return; }
  const { records, note, total } = page;
  const ul = $("games");
  if (!offset) ul.replaceChildren();
  else if (ul.lastChild && ul.lastChild.classList.contains("more")) ul.lastChild.remove();
  if (!records.length && !offset) list(ul, [note || "No finished games yet."]);
  for (const r of records) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.dataset.id = r.id;
    b.textContent = r.error ? `${r.id}: unreadable` : `${r.date} · ${r.white} – ${r.black} · ${r.result} · ${r.turns} turns`;
    b.disabled = !!r.error;
    b.onclick = () => openGame(r.id);
    li.append(b);
    ul.append(li);
  }
  if (offset + records.length < (total || 0)) {
    const li = document.createElement("li");
    li.className = "more";
    const b = document.createElement("button");
    b.textContent = `More games (${total - offset - records.length} older)`;
    b.onclick = () => loadGames(offset + records.length);
    li.append(b);
    ul.append(li);
  }
  if (!offset && !review.id && records.length && !records[0].error) openGame(records[0].id);
}

async function openGame(id) {
  let r;
  try { r = await getJson(`/api/records/${encodeURIComponent(id)}`); } catch (e) { $("review-tags").textContent = e.message; return; }
  review = { id, turns: r.turns, ply: r.turns.length };
  $("review-title").textContent = `Game ${id}`;
  const t = r.tags;
  $("review-tags").textContent = `${t.White || "?"} – ${t.Black || "?"}: ${t.Result || "?"}` + (t.Reason ? ` (${t.Reason})` : "") + (t.Profile ? `, ${t.Profile} rules` : "");
  $("downloads").hidden = false;
  $("dl-record").href = `/api/records/${encodeURIComponent(id)}/download?format=record`;
  $("dl-sanmill").href = `/api/records/${encodeURIComponent(id)}/download?format=sanmill`;
  document.querySelectorAll("#games button").forEach((b) => b.classList.toggle("on", b.dataset.id === id));
  step(review.ply);
}

async function step(ply) {
  ply = Math.max(0, Math.min(review.turns.length, ply));
  review.ply = ply;
  try {
    showSvg($("review-board"), await getSvg(`/api/records/${encodeURIComponent(review.id)}/picture?ply=${ply}`));
  } catch (e) {
    $("review-board").replaceChildren();
    $("review-tags").textContent = e.message;
  }
  $("review-ply").textContent = ply ? `${ply}/${review.turns.length}: ${review.turns[ply - 1]}` : `start/${review.turns.length}`;
  const ol = $("review-record");
  ol.replaceChildren(...review.turns.map((turn, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.textContent = `${i % 2 ? "" : (i / 2 + 1) + ". "}${turn}`;
    b.dataset.ply = i + 1;
    if (i + 1 === ply) b.classList.add("on");
    b.onclick = () => step(i + 1);
    li.append(b);
    return li;
  }));
}

$("first").onclick = () => step(0);
$("prev").onclick = () => step(review.ply - 1);
$("next").onclick = () => step(review.ply + 1);
$("last").onclick = () => step(review.turns.length);

pairState();
connect();
