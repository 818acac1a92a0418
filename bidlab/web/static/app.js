// bidlab table: plain JS over the JSON API (see /docs for its schema).
"use strict";

const SEATS = ["N", "E", "S", "W"];
const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
const GRID_ORDER = ["W", "N", "E", "S"];          // auction columns, as in bridge columns
const SUITS = [["S", "♠", "s"], ["H", "♥", "h"], ["D", "♦", "d"], ["C", "♣", "c"]];
const STRAINS = [["C", "♣", "c"], ["D", "♦", "d"], ["H", "♥", "h"], ["S", "♠", "s"], ["NT", "NT", ""]];
const DEFAULT_SEATS = { N: "sayc", E: "nn:rl", S: "you", W: "nn:rl" };  // if the server names none
const PARTNER_OF = { N: "S", S: "N", E: "W", W: "E" };

let board = null;       // the last BoardOut from the server
let whyOpen = null;     // {table, index} of the explanation shown
let lastRequest = null; // the last new-board request, for "Next board"
let busy = false;       // a request about the board is in flight: buttons stay shut until it is drawn

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// -- errors and requests ------------------------------------------------------------------

function showError(message) {
  $("error-text").textContent = message;
  $("error").classList.remove("hidden");
}
function clearError() { $("error").classList.add("hidden"); }
$("error-close").addEventListener("click", clearError);

async function api(method, url, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let resp;
  try {
    resp = await fetch(url, opts);
  } catch (e) {
    throw new Error(`cannot reach the server: ${e.message}`);
  }
  let data = null;
  try { data = await resp.json(); } catch (e) { /* not JSON */ }
  if (!resp.ok) {
    const msg = data && data.error ? data.error : `${resp.status} ${resp.statusText}`;
    throw new Error(msg);
  }
  return data;
}

async function guarded(fn) {
  try {
    await fn();
    clearError();
  } catch (e) {
    showError(e.message);
  }
}

// -- text helpers ----------------------------------------------------------------------------

function callNode(text) {
  // "4S" -> 4♠ coloured; "Pass", "X", "XX" as they are.
  const m = /^([1-7])(C|D|H|S|NT)(X{0,2})$/.exec(text);
  if (!m) return el("span", { text: text === "Pass" ? "Pass" : text });
  const st = STRAINS.find((s) => s[0] === m[2]);
  return el("span", {}, m[1], el("span", { class: st[2], text: st[1] }), m[3]);
}

function cardNode(text) {
  // "SA" -> ♠A coloured.
  const st = STRAINS.find((x) => x[0] === text[0]);
  return el("span", {}, el("span", { class: st ? st[2] : "", text: st ? st[1] : text[0] }), text.slice(1));
}

function lineNode(text) {
  // A result line ("4♠ by S, =, NS +420"): colour the suit symbols.
  const parts = text.split(/([♠♥♦♣])/);
  return parts.map((t) => {
    const st = SUITS.find((x) => x[1] === t);
    return st ? el("span", { class: st[2], text: t }) : t;
  });
}

function contractNode(contract, declarer) {
  if (!contract) return el("span", { text: "Passed out" });
  return el("span", {}, callNode(contract), ` by ${SEAT_NAMES[declarer]}`);
}

function vulnerable(vul, seat) {
  return vul === "All" || (vul === "NS" && "NS".includes(seat)) || (vul === "EW" && "EW".includes(seat));
}

// -- setup form ------------------------------------------------------------------------------

async function loadAgents() {
  let agents = { suggestions: ["sayc", "random"] };
  try { agents = await api("GET", "/api/agents"); } catch (e) { showError(e.message); }
  const options = ["you", ...agents.suggestions];
  const box = $("seat-choosers");
  box.replaceChildren();
  for (const seat of SEATS) {
    const select = el("select", { id: `seat-${seat}`, "data-testid": `seat-${seat}` },
      options.map((o) => el("option", { value: o, text: o })),
      el("option", { value: "__custom", text: "other spec…" }));
    select.value = (agents.default_seats || DEFAULT_SEATS)[seat];
    if (!select.value) select.value = "sayc";
    const custom = el("input", { id: `seat-${seat}-custom`, class: "hidden", placeholder: "e.g. random:3 or sayc+nn:rl",
      maxlength: 200, "data-testid": `seat-${seat}-custom` });
    select.addEventListener("change", () => {
      custom.classList.toggle("hidden", select.value !== "__custom");
      seatTeam(seat);
    });
    custom.addEventListener("change", () => seatTeam(seat));
    box.append(el("label", {}, SEAT_NAMES[seat], select, custom));
  }
  box.append(el("p", { class: "hint", "data-testid": "team-hint",
    text: "A team A+B is a partnership: A bids North/East, B South/West. Choosing it at one seat seats it at the partner's too." }));
  const standIn = $("stand_in");
  for (const o of agents.suggestions) standIn.append(el("option", { value: o, text: o }));
}

function seatTeam(seat) {
  // A team fills both seats of a partnership: copy it to the partner's seat (unless you sit there).
  const spec = seatSpec(seat);
  const other = PARTNER_OF[seat];
  if (!spec.includes("+") || $(`seat-${other}`).value === "you") return;
  const select = $(`seat-${other}`);
  if ([...select.options].some((o) => o.value === spec)) {
    select.value = spec;
    $(`seat-${other}-custom`).classList.add("hidden");
  } else {
    select.value = "__custom";
    $(`seat-${other}-custom`).value = spec;
    $(`seat-${other}-custom`).classList.remove("hidden");
  }
}

function seatSpec(seat) {
  const v = $(`seat-${seat}`).value;
  return v === "__custom" ? $(`seat-${seat}-custom`).value.trim() : v;
}

$("new-board").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const req = { number: Number($("number").value || 1), seats: {} };
  for (const seat of SEATS) req.seats[seat] = seatSpec(seat);
  const seed = $("seed").value.trim();
  if (seed !== "") req.seed = Number(seed);
  const deal = $("deal").value.trim();
  if (deal) req.deal = deal;
  if ($("dealer").value) req.dealer = $("dealer").value;
  if ($("vulnerability").value) req.vulnerability = $("vulnerability").value;
  if ($("stand_in").value) req.stand_in = $("stand_in").value;
  if ($("play-toggle").checked) req.play = true;
  if ($("play-toggle").checked && $("dd-bots").checked) req.bots_play = "double-dummy";
  dealBoard(req);
});

function dealBoard(req) {
  // Search bots take about a second a call, so a deal can take a while: say so on the button.
  const button = $("new-board").querySelector("[data-testid=deal-button]");
  button.disabled = true;
  button.textContent = "Dealing…";
  return guarded(async () => {
    const b = await api("POST", "/api/boards", req).finally(() => {
      button.disabled = false;
      button.textContent = "Deal";
    });
    lastRequest = req;
    whyOpen = null;
    $("reveal").checked = false;
    render(b);
    scrollToYou(b);
  });
}

$("next-board").addEventListener("click", () => {
  // The next board of the same set-up: the next number (so the next dealer and vulnerability);
  // a seeded board is followed by the next seed, a pasted deal by a random one.
  if (!lastRequest) return;
  const req = { ...lastRequest, number: (lastRequest.number || 1) + 1 };
  delete req.deal;
  if (lastRequest.deal) { delete req.dealer; delete req.vulnerability; }
  if (req.seed !== undefined) req.seed += 1;
  $("number").value = req.number;
  if (req.seed !== undefined) $("seed").value = req.seed;
  $("deal").value = "";
  dealBoard(req);
});

$("undo").addEventListener("click", () => boardRequest("undo"));

function scrollToYou(b) {
  // On a small screen the table is below the form: bring your hand and the bidding box into view.
  const mine = SEATS.find((s) => b.seats[s] === "you");
  const target = mine ? $(`hand-${mine}`) : $("play");
  target.scrollIntoView({ block: "start" });
}

// -- the board -------------------------------------------------------------------------------

function render(b) {
  board = b;
  for (const id of ["play", "auction-panel"]) $(id).classList.remove("hidden");
  renderCentre(b);
  renderHands(b);
  renderAuction(b);
  renderBidbox(b);
  renderPlay(b);
  renderResult(b);
  $("undo").disabled = busy || !b.can_undo;
  if (!whyOpen) $("why").classList.add("hidden");
}

function renderCentre(b) {
  const c = $("centre");
  c.replaceChildren(
    el("div", { class: "num", text: `Board ${b.number}` }),
    el("div", { text: `Dealer ${SEAT_NAMES[b.dealer]}` }),
    el("div", { text: `Vul: ${b.vulnerability}` }),
    el("div", { class: "small", text: `seed ${b.seed}` }),
    ...SEATS.map((s) => el("span", {
      class: `edge ${s}${vulnerable(b.vulnerability, s) ? " vul" : ""}${b.dealer === s ? " dealer" : ""}`,
      text: s,
    })),
  );
}

function renderHands(b) {
  const reveal = $("reveal");
  reveal.disabled = !b.over;
  $("reveal-hint").textContent = b.over ? "" : b.auction_over && b.play ? "(after the play)" : "(after the auction)";
  const p = b.play;
  for (const seat of SEATS) {
    const box = $(`hand-${seat}`);
    const hand = b.hands[seat];
    const mine = b.seats[seat] === "you";
    const show = hand && (mine || reveal.checked || (p && !b.over));
    const toAct = p && !p.over ? p.to_play === seat : b.to_act === seat;
    box.classList.toggle("to-act", toAct);
    box.setAttribute("data-testid", `hand-${seat}`);
    const role = p ? (seat === p.declarer ? "declarer" : seat === p.dummy ? "dummy" : "") : "";
    const who = el("div", { class: "who" }, el("b", { text: SEAT_NAMES[seat] }),
      el("span", { class: "agent", text: (mine ? "you" : b.seats[seat]) + (role ? ` · ${role}` : "") }));
    if (!show) {
      box.replaceChildren(who, el("div", { class: "hidden-hand", text: "hidden" }));
      continue;
    }
    const playable = p && p.your_turn && p.to_play === seat ? new Set(p.legal_cards) : null;
    const rows = SUITS.map(([letter, sym, cls], i) => {
      const ranks = (hand.suits[i] || "").split("");
      const cards = ranks.length ? ranks.map((r) => playable
        ? el("button", { class: "card", "data-testid": `card-${letter}${r}`, "data-card": `${letter}${r}`,
            disabled: busy || !playable.has(`${letter}${r}`), onclick: () => playCard(`${letter}${r}`) }, r)
        : el("span", { class: "rank", text: r })) : [el("span", { class: "rank", text: "—" })];
      return el("div", { class: "suit" }, el("span", { class: cls, text: sym }), " ", ...cards);
    });
    who.append(el("span", { class: "small", text: `${hand.hcp} HCP` }));
    box.replaceChildren(who, ...rows);
  }
}

function renderPlay(b) {
  const box = $("playinfo");
  const p = b.play;
  if (!p) { box.classList.add("hidden"); return; }
  const trick = p.over ? (p.tricks.length ? p.tricks[p.tricks.length - 1].cards : []) : p.trick;
  const shown = !p.over && trick.length === 0 && p.tricks.length ? p.tricks[p.tricks.length - 1].cards : trick;
  const label = !p.over && trick.length === 0 && p.tricks.length ? "last trick" : `trick ${Math.min(13, p.tricks.length + 1)}`;
  const cells = shown.map((c) => el("span", { class: "played", "data-testid": `played-${c.seat}` },
    `${c.seat} `, cardNode(c.card)));
  const status = p.over ? "play over" : p.your_turn ? `your card (${SEAT_NAMES[p.to_play]})` : `${SEAT_NAMES[p.to_play]} to play`;
  box.dataset.cards = String(4 * p.tricks.length + p.trick.length);
  box.dataset.over = String(p.over);
  box.replaceChildren(
    el("div", { "data-testid": "trick-count" },
      el("b", { text: `NS ${p.ns_tricks} · EW ${p.ew_tricks}` }), ` tricks · ${status}`),
    el("div", { class: "trick", "data-testid": "trick" }, `${label}: `, ...(cells.length ? cells : ["—"])),
    b.can_undo_card ? el("button", { type: "button", class: "undo-card", "data-testid": "undo-card", disabled: busy,
      onclick: () => boardRequest("cards/undo") }, "Undo my card") : "",
    trickRecord(p));
  box.classList.remove("hidden");
}

function trickRecord(p) {
  // The tricks played so far, one line each: its number, the cards from the leader, the winner.
  if (!p.tricks.length) return "";
  const rows = p.tricks.map((t, i) => el("tr", { "data-testid": `trick-record-${i + 1}` },
    el("td", { text: String(i + 1) }),
    el("td", {}, ...t.cards.map((c) => el("span", { class: c.seat === t.winner ? "won" : "" },
      `${c.seat} `, cardNode(c.card), " "))),
    el("td", { text: t.winner })));
  return el("details", { class: "trick-record", "data-testid": "trick-record", open: wasOpen("trick-record") },
    el("summary", { text: `Tricks played (${p.tricks.length})` }),
    el("table", {}, el("tr", {}, ["#", "cards, from the leader", "won by"].map((h) => el("th", { text: h }))), rows));
}

function wasOpen(testid) {
  const d = document.querySelector(`[data-testid=${testid}]`);
  return d ? d.open : false;
}

async function playCard(card) {
  await boardRequest("cards", { card });
}

async function boardRequest(what, body) {
  // One request about the board at a time; its answer is drawn before the next can be sent.
  if (!board || busy) return;
  busy = true;
  for (const b of document.querySelectorAll("#bidbox button, .hand button.card, #undo, .undo-card")) b.disabled = true;
  try {
    await guarded(async () => render(await api("POST", `/api/boards/${board.id}/${what}`, body)));
  } finally {
    busy = false;
    if (board) render(board);   // after an error the legal calls and cards come back
  }
}

$("reveal").addEventListener("change", () => { if (board) renderHands(board); });

function auctionTable(calls, dealer, vul, table, interactive) {
  const head = el("tr", {}, GRID_ORDER.map((s) =>
    el("th", { class: vulnerable(vul, s) ? "vul" : "", text: SEAT_NAMES[s] })));
  const rows = [head];
  const offset = GRID_ORDER.indexOf(dealer);
  const cells = Array(offset).fill(null).concat(calls);
  if (interactive && board && !board.auction_over) cells.push("?");
  for (let i = 0; i < cells.length; i += 4) {
    const tr = el("tr");
    for (let j = 0; j < 4; j++) {
      const c = cells[i + j];
      if (c === undefined) { tr.append(el("td")); continue; }
      if (c === null) { tr.append(el("td", { text: "" })); continue; }
      if (c === "?") { tr.append(el("td", { class: "small", text: "?" })); continue; }
      const td = el("td", { "data-testid": `${table}-call-${c.index}`, "data-call": c.call, "data-index": c.index });
      const cell = el("span", { class: "callcell" }, callNode(c.call));
      if (c.alert) {
        td.setAttribute("title", `SAYC: ${c.alert}`);
        cell.append(el("sup", { class: "alertmark", "aria-hidden": "true", text: "A" }));
      }
      if (c.bot) {
        const active = whyOpen && whyOpen.table === table && whyOpen.index === c.index;
        cell.append(el("button", {
          class: `whybtn${active ? " active" : ""}`, title: "Why? (the bot's reason for this call)",
          "aria-label": "Why?", "data-testid": `why-${table}-${c.index}`, text: "?",
          onclick: () => showWhy(table, c.index),
        }));
      }
      td.append(cell);
      tr.append(td);
    }
    rows.push(tr);
  }
  return rows;
}

function renderAlerts(b) {
  // Each of your calls as SAYC reads it (what your sayc partner believes): an alert card's lines.
  const mine = b.calls.filter((c) => c.alert);
  const box = $("alerts");
  const you = SEATS.find((s) => b.seats[s] === "you");
  const partner = you ? b.seats[PARTNER_OF[you]] : null;
  const reads = !partner || partner === "you" ? "" : partner === "sayc" ? " (your sayc partner reads them so)"
    : ` (${partner} reads them as its own training taught it, not by this card)`;
  box.replaceChildren(...(mine.length ? [el("div", { class: "small", "data-testid": "alerts-head" },
    el("b", { text: "Your calls in SAYC" }), ": what your hand has shown after each", reads),
    ...mine.map((c) => el("div", { class: "alert", "data-testid": `alert-${c.index}`, text: c.alert }))] : []));
  box.classList.toggle("hidden", !mine.length);
}

function renderAuction(b) {
  $("auction").replaceChildren(...auctionTable(b.calls, b.dealer, b.vulnerability, "this", true));
  renderAlerts(b);
  let status;
  if (b.auction_over) {
    const c = contractOf(b.calls, b.dealer);
    status = c ? ["final: ", callNode(c.contract), ` by ${SEAT_NAMES[c.declarer]}`] : ["passed out"];
  } else {
    status = [b.your_turn ? `your call (${SEAT_NAMES[b.to_act]})` : `${SEAT_NAMES[b.to_act]} to call`];
  }
  $("status").replaceChildren(...status);
}

function contractOf(calls, dealer) {
  // The final contract of a finished auction (the server scores it; this is for display).
  const order = ["N", "E", "S", "W"];
  let last = null, doubled = "";
  for (const c of calls) {
    if (/^[1-7]/.test(c.call)) { last = c; doubled = ""; } else if (c.call === "X") doubled = "X";
    else if (c.call === "XX") doubled = "XX";
  }
  if (!last) return null;
  const strain = last.call.slice(1);
  const side = order.indexOf(last.seat) % 2;
  const first = calls.find((c) => /^[1-7]/.test(c.call) && c.call.slice(1) === strain && order.indexOf(c.seat) % 2 === side);
  return { contract: last.call + doubled, declarer: first.seat };
}

function renderBidbox(b) {
  const legal = new Set(b.legal_calls);
  const box = $("bidbox");
  const button = (call, cls, label) => el("button", {
    class: cls, "data-call": call, "data-testid": `bid-${call}`, disabled: busy || !legal.has(call),
    onclick: () => boardRequest("calls", { call }),
  }, label || callNode(call));
  const buttons = [];
  for (let level = 1; level <= 7; level++) {
    for (const [st] of STRAINS) buttons.push(button(`${level}${st}`, ""));
  }
  const special = el("div", { class: "special" },
    button("Pass", "pass", "Pass"), button("X", "dbl", "X"), button("XX", "rdbl", "XX"));
  box.replaceChildren(...buttons, special);
  box.classList.toggle("hidden", b.auction_over);
}

function reasonOf(w) {
  // "1S: 12-21 HCP ..." -> "12-21 HCP ...": the call is in the heading already, with its symbol.
  const m = /^\s*([^:]+):\s*(.*)$/s.exec(w.text);
  return m && m[1].trim() === w.call ? m[2] : w.text;
}

function saycComparison(c) {
  // A partner bot's call held against SAYC, the system you bid.
  return el("div", { class: "sayc-compare", "data-testid": "why-sayc" },
    c.departs ? el("div", { class: "departs", "data-testid": "why-departs", text: "departs from SAYC" }) : "",
    el("div", { "data-testid": "why-sayc-meaning" }, "In SAYC: ", c.meaning),
    el("div", { "data-testid": "why-sayc-call", "data-call": c.sayc_call }, "SAYC would call ", callNode(c.sayc_call),
      c.sayc_reason ? `: ${c.sayc_reason}` : ""));
}

async function showWhy(table, index) {
  await guarded(async () => {
    const w = await api("GET", `/api/boards/${board.id}/why?table=${table}&index=${index}`);
    whyOpen = { table, index };
    const box = $("why");
    const parts = [
      el("div", {}, el("b", {}, callNode(w.call)), ` by ${SEAT_NAMES[w.seat]} (${w.agent})`,
        table === "other" ? " at the other table" : ""),
      // a search bot's reason is its search, drawn below as a table and heat maps
      w.search ? "" : el("div", { "data-testid": "why-text", title: w.rule ? `rule ${w.rule}` : "", text: reasonOf(w) }),
      w.meaning ? el("div", { class: "meaning", "data-testid": "why-meaning", text: w.meaning }) : "",
      w.meaning_examples && w.meaning_examples.length ? el("div", { class: "meaning-examples", "data-testid": "why-examples" },
        "Hands like: ", ...w.meaning_examples.map((h) => el("div", { class: "example-hand", text: h }))) : "",
      w.sayc_rule ? el("div", { "data-testid": "why-sayc-rule", text: `SAYC's rule: ${w.sayc_rule}` }) : "",
      w.sayc ? saycComparison(w.sayc) : "",
    ];
    if (w.top_calls && w.top_calls.length && !w.search) {   // a search shows its candidates' p below
      parts.push(el("table", { "data-testid": "why-top" }, w.top_calls.map((t) => el("tr", {},
        el("td", {}, callNode(t.call)),
        el("td", { style: "width:60%" }, el("div", { class: "bar", style: `width:${Math.round(100 * t.probability)}%` })),
        el("td", { text: `${(100 * t.probability).toFixed(1)}%` })))));
    }
    if (w.search) parts.push(el("div", { class: "search", "data-testid": "search" },
      el("p", { class: "hint", text: "Searching…" })));
    box.replaceChildren(...parts);
    box.classList.remove("hidden");
    renderAuction(board);
    if (board.over) renderResult(board);
    if (w.search) {
      const s = await api("GET", `/api/boards/${board.id}/search?table=${table}&index=${index}`);
      if (whyOpen && whyOpen.table === table && whyOpen.index === index) {
        box.querySelector("[data-testid=search]").replaceChildren(...searchNodes(s));
      }
    }
  });
}

// -- seeing the search (issue 16) --------------------------------------------------------------

const RELATIVE_NAMES = { LHO: "left-hand opponent", partner: "partner", RHO: "right-hand opponent" };

function signed(x, digits) {
  const t = x.toFixed(digits);
  return Number(t) === 0 ? (0).toFixed(digits) : (x > 0 ? "+" : "") + t;
}

function searchNodes(s) {
  // A search bot's call: its candidates (policy p, rollouts, mean score; the call made marked),
  // the deals it sampled and kept, and its belief of each hidden hand as a 4 x 13 heat map.
  const unit = s.score === "imps" ? "IMPs" : "points";
  const head = el("tr", {}, ["call", "policy p", "rollouts", `mean ${unit}`, ""].map((h) => el("th", { text: h })));
  const rows = s.candidates.map((c) => {
    const chosen = c.call === s.made;
    return el("tr", { class: chosen ? "chosen" : c.alive ? "" : "dropped", "data-testid": "search-candidate",
      "data-call": c.call, "data-rollouts": c.rollouts, "data-prob": c.prob, "data-mean": c.mean },
      el("td", {}, callNode(c.call)),
      el("td", { text: c.prob.toFixed(2) }),
      el("td", { text: String(c.rollouts) }),
      el("td", { text: c.rollouts ? signed(c.mean, 2) : "—", title: c.rollouts ? `± ${c.se.toFixed(2)} SE` : "" }),
      el("td", { class: "mark", text: chosen ? "✓ chosen" : c.alive ? "" : "dropped" }));
  });
  const unitNote = s.score === "imps" ? "mean IMPs for the bot's side against the policy's first choice"
    : "mean points for the bot's side";
  const particles = s.searched || s.sampled
    ? `${s.kept} of ${s.sampled} sampled deals kept (consistent with the auction)`
    : "no deals sampled: the policy's call stood";
  const maps = s.beliefs.map((b) => beliefMap(b));
  return [
    el("div", { class: "search-head" }, el("b", { text: "The search" }), ` — ${s.reason || "searched"}`),
    el("table", { class: "candidates", "data-testid": "search-candidates" }, el("thead", {}, head), el("tbody", {}, rows)),
    el("div", { class: "small", "data-testid": "search-particles", "data-sampled": s.sampled, "data-kept": s.kept },
      `${particles}; ${unitNote}.`),
    maps.length ? el("div", { class: "small", text: "What the bot believes the hidden hands hold (P of each card):" }) : "",
    el("div", { class: "beliefs" }, maps),
  ];
}

function heat(p) {
  // 0 -> near white, 1 -> the accent blue; dark cells get white text.
  const light = Math.round(97 - 62 * p);
  return { background: `hsl(215, 65%, ${light}%)`, color: light < 60 ? "#fff" : "var(--ink)" };
}

function beliefMap(b) {
  const cells = [el("div", { class: "corner" })];
  for (const r of b.columns) cells.push(el("div", { class: "rank", text: r }));
  b.grid.forEach((row, i) => {
    const st = SUITS.find((x) => x[0] === b.rows[i]);
    cells.push(el("div", { class: `suit ${st[2]}`, text: st[1] }));
    row.forEach((p, j) => {
      const c = heat(p);
      const card = `${b.rows[i]}${b.columns[j]}`;
      cells.push(el("div", { class: "cell", "data-card": card, "data-p": p,
        title: `${SEAT_NAMES[b.seat]} holds ${st[1]}${b.columns[j]}: ${(100 * p).toFixed(0)}%`,
        style: `background:${c.background};color:${c.color}`, text: String(Math.round(100 * p)) }));
    });
  });
  return el("figure", { class: "belief", "data-testid": `belief-${b.who}`, "data-seat": b.seat },
    el("figcaption", {}, el("b", { text: b.who }), ` ${SEAT_NAMES[b.seat]} · ${RELATIVE_NAMES[b.who]}`),
    el("div", { class: "heat", role: "img", "aria-label": `belief of ${SEAT_NAMES[b.seat]}'s hand, % per card` }, cells));
}

// -- after the auction ---------------------------------------------------------------------

function ddTable(dd, par, parContracts) {
  const rows = [el("tr", {}, el("th"), ["N", "S", "E", "W"].map((s) => el("th", { text: s })))];
  for (const [st, sym, cls] of [...STRAINS].reverse()) {
    rows.push(el("tr", {}, el("th", { class: cls, text: sym }), ["N", "S", "E", "W"].map((s) => el("td", {
      class: dd[st][s] >= 7 ? "make" : "", "data-testid": `dd-${s}-${st}`, text: String(dd[st][s]),
    }))));
  }
  return [
    el("table", { class: "dd", "data-testid": "dd-table" }, rows),
    el("div", { class: "small", "data-testid": "par" },
      `Par: ${par >= 0 ? "+" : ""}${par} for NS`,
      ...(parContracts.length ? [" (", ...parContracts.flatMap((c, i) => {
        const [call, , seat] = c.split(" ");   // "4S by N"
        return [i ? ", " : "", callNode(call), ` by ${seat}`];
      }), ")"] : [])),
  ];
}

function roomSummary(room, label, testid, played) {
  const tricks = room.tricks === null ? "" : `, ${room.tricks} tricks double dummy`;
  const parts = [
    el("div", { class: "big", "data-testid": `${testid}-contract` }, contractNode(room.contract, room.declarer)),
    el("div", { class: "small", text: `${label}${tricks}` }),
    el("div", { class: "line", "data-testid": `${testid}-line` }, el("span", { class: "tag", text: "DD " }),
      ...lineNode(room.line)),
    el("div", { class: "hidden", "data-testid": `${testid}-score`, text: `NS ${room.score_ns >= 0 ? "+" : ""}${room.score_ns}` }),
  ];
  if (played) {
    // the played result and the double-dummy result of the same contract, side by side
    parts.push(el("div", { class: "line played", "data-testid": "played-line" },
      el("span", { class: "tag", text: "played " }), ...lineNode(played.line)));
    parts.push(el("div", { class: "small", "data-testid": "played-vs-dd",
      text: `played ${played.tricks} tricks (${played.bots_play} bots) · double dummy ${played.dd_tricks} tricks` }));
  }
  return el("div", { "data-testid": testid }, ...parts);
}

function renderResult(b) {
  const box = $("result");
  if (!b.over) { box.classList.add("hidden"); return; }
  const r = b.result;
  // A played hand is scored as played; the double-dummy swing is shown beside it, labelled.
  const swing = r.played ? r.played.imps : r.imps;
  const swingCls = swing > 0 ? "plus" : swing < 0 ? "minus" : "";
  const signedInt = (n) => `${n > 0 ? "+" : ""}${n}`;
  box.replaceChildren(
    el("h2", { text: "Result" }),
    el("div", { class: "cols" },
      el("div", {},
        el("h3", { text: "This table" }),
        roomSummary(r.this, "your table", "this-room", r.played)),
      el("div", {},
        el("h3", { text: "Other table (bots only)" }),
        roomSummary(r.other, `bots: ${SEATS.map((s) => `${s} ${r.other.seats[s]}`).join(", ")}`, "other-room"),
        el("table", { class: "mini-auction", "data-testid": "other-auction" },
          auctionTable(r.other.calls, b.dealer, b.vulnerability, "other", false))),
      el("div", {},
        el("h3", { text: "Double dummy" }),
        ...ddTable(r.dd, r.par_score_ns, r.par_contracts),
        el("h3", { style: "margin-top:10px", "data-testid": "imps-label",
          text: `IMPs for ${r.side}${r.played ? " as played" : " (double dummy)"}` }),
        el("div", { class: `swing ${swingCls}`, "data-testid": "imps", text: signedInt(swing) }),
        r.played ? el("div", { class: "small", "data-testid": "imps-dd",
          text: `double dummy at both tables: ${signedInt(r.imps)}` }) : "")),
  );
  box.classList.remove("hidden");
}

// -- matches -------------------------------------------------------------------------------

async function loadMatches() {
  await guarded(async () => {
    const m = await api("GET", "/api/matches");
    const head = el("tr", {}, ["match", "A", "B", "boards", "IMPs/board (A)", "± SE", "A vs par", "B vs par"]
      .map((h) => el("th", { text: h })));
    const rows = m.matches.map((x) => el("tr", { "data-testid": "match-row", onclick: () => openMatch(x.name) },
      el("td", { text: x.name }), el("td", { text: x.agent_a }), el("td", { text: x.agent_b }),
      // the server's text: rounded once, as in the report
      el("td", { text: String(x.boards) }), el("td", { "data-testid": "match-imps", text: x.text.imps_per_board }),
      el("td", { text: x.text.standard_error }),
      el("td", { text: x.text.a_vs_par }), el("td", { text: x.text.b_vs_par })));
    const stopped = (m.interrupted || []).map((x) => el("tr", { class: "interrupted", "data-testid": "match-interrupted",
      title: x.message },
      el("td", { text: x.name }), el("td", { text: x.agent_a }), el("td", { text: x.agent_b }),
      el("td", { text: x.boards_done === null ? `? of ${x.boards}` : `${x.boards_done} of ${x.boards}` }),
      el("td", { colspan: 4, text: x.message })));
    $("match-list").replaceChildren(el("thead", {}, head), el("tbody", {}, rows.length || stopped.length
      ? [...rows, ...stopped]
      : [el("tr", {}, el("td", { colspan: 8, text: "No results yet: run `bidlab match A B` first." }))]));
    $("match-errors").textContent = m.errors.length ? `Unreadable: ${m.errors.join("; ")}` : "";
  });
}

const PAGE = 100;

async function openMatch(name, offset = 0) {
  await guarded(async () => {
    const box = $("match-detail");
    if (offset === 0) box.replaceChildren(el("p", { class: "hint", text: `Building the report for ${name}…` }));
    box.classList.remove("hidden");
    const d = await api("GET", `/api/match?name=${encodeURIComponent(name)}&offset=${offset}&limit=${PAGE}`);
    const s = d.match;
    const last = Math.min(d.offset + d.boards.length, d.total_boards);
    const pager = el("div", { class: "pager", "data-testid": "board-pager" },
      el("button", { "data-testid": "boards-prev", disabled: d.offset === 0,
        onclick: () => openMatch(name, Math.max(0, d.offset - PAGE)) }, "‹ Previous"),
      el("span", { "data-testid": "boards-range", text: `boards ${d.offset + 1}–${last} of ${d.total_boards}` }),
      el("button", { "data-testid": "boards-next", disabled: last >= d.total_boards,
        onclick: () => openMatch(name, d.offset + PAGE) }, "Next ›"));
    const boards = el("table", { class: "list", "data-testid": "match-boards" },
      el("thead", {}, el("tr", {}, ["board", "open room (A NS)", "closed room (A EW)", "IMPs for A"]
        .map((h) => el("th", { text: h })))),
      el("tbody", {}, d.boards.map((r) => el("tr", { "data-testid": `match-board-${r.board}`,
        title: "Show the deal and both auctions", onclick: () => openMatchBoard(name, r.board) },
        el("td", { text: String(r.board) }), el("td", {}, roomCell(r.open)),
        el("td", {}, roomCell(r.closed)), el("td", { text: String(r.imps_a) })))));
    const report = el("div", { class: "report-html", "data-testid": "report-html" });
    report.innerHTML = d.report_html;   // rendered on the server from our own report; raw HTML is escaped there
    box.replaceChildren(
      el("h2", { text: `${s.agent_a} vs ${s.agent_b}` }),
      el("p", { "data-testid": "match-summary",
        text: `${s.text.imps_per_board} ± ${s.text.standard_error} ` +
          `IMPs/board for ${s.agent_a} over ${s.boards} boards` }),
      d.report_error ? el("p", { class: "hint", text: `report failed: ${d.report_error}` }) : "",
      el("h3", { text: "Boards" }), pager, el("div", { class: "list-wrap" }, boards),
      report,
    );
  });
}

function roomCell(text) {
  // "4S N" -> 4♠ N
  const [contract, ...rest] = text.split(" ");
  return /^[1-7]/.test(contract) ? el("span", {}, callNode(contract), rest.length ? ` ${rest.join(" ")}` : "") : text;
}

async function openMatchBoard(name, number) {
  await guarded(async () => {
    const b = await api("GET", `/api/match/board?name=${encodeURIComponent(name)}&board=${number}`);
    const box = $("match-board");
    const hands = el("div", { class: "compass mini" }, ...["N", "W", "E", "S"].map((seat) => {
      const h = b.hands[seat];
      return el("div", { class: "hand", id: `mb-hand-${seat}`, style: `grid-area:${seat.toLowerCase() === "n" ? "n" :
        seat === "S" ? "s" : seat === "W" ? "w" : "e"}` },
        el("div", { class: "who" }, el("b", { text: SEAT_NAMES[seat] }), el("span", { class: "small", text: `${h.hcp} HCP` })),
        ...SUITS.map(([, sym, cls], i) => el("div", { class: "suit" }, el("span", { class: cls, text: sym }), " ",
          h.suits[i] || "—")));
    }));
    const rooms = b.rooms.map((r) => el("div", { "data-testid": `match-room-${r.room}` },
      el("h3", { text: `${r.room === "open" ? "Open" : "Closed"} room: NS ${r.seats.N}, EW ${r.seats.E}` }),
      el("table", { class: "mini-auction" }, auctionTable(r.calls.map((c) => ({ ...c, bot: false })),
        b.dealer, b.vulnerability, `m-${r.room}`, false)),
      el("div", { class: "line", "data-testid": `match-room-${r.room}-line` }, ...lineNode(r.line))));
    box.replaceChildren(
      el("h2", { text: `Board ${b.board}: dealer ${SEAT_NAMES[b.dealer]}, vul ${b.vulnerability}` }),
      el("div", { class: "board-view" }, hands,
        el("div", { class: "cols" }, ...rooms),
        el("p", { "data-testid": "match-board-imps", text: `IMPs for ${b.agent_a}: ${b.imps_a > 0 ? "+" : ""}${b.imps_a}` })));
    box.classList.remove("hidden");
    box.scrollIntoView({ block: "start" });
  });
}

// -- tabs ------------------------------------------------------------------------------------

for (const tab of document.querySelectorAll("nav .tab")) {
  tab.addEventListener("click", () => {
    for (const t of document.querySelectorAll("nav .tab")) t.classList.toggle("active", t === tab);
    $("view-table").classList.toggle("hidden", tab.dataset.view !== "table");
    $("view-matches").classList.toggle("hidden", tab.dataset.view !== "matches");
    if (tab.dataset.view === "matches") loadMatches();
  });
}

loadAgents();
