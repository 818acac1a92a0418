// The Spades table: all state comes from /api/spades; the page only draws it and sends moves.
"use strict";
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
let game = null;

function cardLabel(c) {
  const suit = c[0], rank = c.slice(1) === "T" ? "10" : c.slice(1);
  return rank + SUITS[suit];
}
function isRed(c) { return c[0] === "H" || c[0] === "D"; }
function bidText(b) { return b === null || b === undefined ? "–" : (b === 0 ? "nil" : String(b)); }

async function api(path, body, method = body === undefined ? "GET" : "POST") {
  // Every move is a POST, with or without a body ("next round" has none): the API takes no GET moves.
  const opts = method === "GET" ? {} : { method, headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body === undefined ? {} : body) };
  const r = await fetch(path, opts);
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

async function act(path, body) {
  document.getElementById("error").textContent = "";
  try { game = await api(path, body, "POST"); draw(); }
  catch (e) { document.getElementById("error").textContent = e.message; }
}

function draw() {
  const names = { N: "North — partner (BIS)", E: "East — " + game.players.bots, S: "South — you",
                  W: "West — " + game.players.bots };
  for (const s of "NESW") {
    const el = document.getElementById("seat-" + s);
    el.innerHTML = "";
    const h = document.createElement("div");
    h.innerHTML = `<b>${names[s]}</b>${s === game.dealer ? " (dealer)" : ""}<br>bid <span data-testid="bid-${s}">${
      bidText(game.bids[s])}</span> · tricks <span data-testid="tricks-${s}">${game.tricks[s]}</span>`;
    el.appendChild(h);
  }
  const trick = document.getElementById("trick");
  const shown = game.trick.length ? game.trick : game.last_trick;
  trick.innerHTML = (game.trick.length ? "Trick: " : (shown.length ? "Last trick: " : "")) +
    shown.map(t => `<span data-testid="played-${t.seat}">${t.seat} ${cardLabel(t.card)}</span>`).join(" · ");

  const hand = document.getElementById("hand");
  hand.innerHTML = "";
  for (const c of game.hand) {
    const b = document.createElement("button");
    b.className = "card" + (isRed(c) ? " red" : "");
    b.textContent = cardLabel(c);
    b.dataset.card = c;
    b.dataset.testid = "card-" + c;
    b.disabled = !game.legal.includes(c);
    b.onclick = () => act(`/api/spades/tables/${game.id}/play`, { card: c });
    hand.appendChild(b);
  }
  const box = document.getElementById("bidbox");
  box.classList.toggle("hidden", !game.your_turn_to_bid);
  if (game.your_turn_to_bid && !box.dataset.built) {
    for (let i = 0; i <= 13; i++) {
      const b = document.createElement("button");
      b.textContent = i === 0 ? "nil" : String(i);
      b.dataset.testid = "bid-button-" + i;
      b.onclick = () => act(`/api/spades/tables/${game.id}/bid`, { bid: i });
      box.appendChild(b);
    }
    box.dataset.built = "1";
  }
  document.getElementById("why").textContent = game.partner_explanation || "(after partner bids)";
  document.getElementById("next").classList.toggle("hidden", game.phase !== "round_over");
  const st = document.getElementById("status");
  const pts = (n) => (n < 0 ? `−${-n}` : String(n));
  let msg = `Score NS ${pts(game.scores.NS)} (${game.bags.NS} bags) : EW ${pts(game.scores.EW)} (${game.bags.EW} bags); ` +
    `goal ${game.goal}, a side at ${pts(game.lose)} or below loses. `;
  if (game.phase === "bidding") msg += game.your_turn_to_bid ? "Your turn to bid." : "Bidding…";
  if (game.phase === "play") msg += game.to_play === "S" ? "Your turn to play." : "Play…";
  if (game.phase === "round_over") msg += "Round over.";
  if (game.phase === "over") msg += `Game over: ${game.winner === "NS" ? "you and partner win" : game.winner === "EW" ? "East-West win" : "draw"}. ${game.end_reason || ""}`;
  st.textContent = msg;
  st.dataset.phase = game.phase;
  const tbody = document.querySelector("#rounds tbody");
  tbody.innerHTML = "";
  for (const r of game.rounds) {
    const tr = document.createElement("tr");
    tr.innerHTML = `<td>${r.dealer}</td><td>${r.bids.map(bidText).join(" ")}</td><td>${r.tricks.join(" ")}</td>` +
      `<td>${r.points[0]} : ${r.points[1]}</td><td>${r.scores[0]} : ${r.scores[1]}</td>`;
    tbody.appendChild(tr);
  }
}

document.getElementById("new-game").onclick = () => {
  const seed = document.getElementById("seed").value;
  act("/api/spades/tables", {
    bots: document.getElementById("bots").value, player: document.getElementById("player").value,
    goal: Number(document.getElementById("goal").value), seed: seed === "" ? null : Number(seed) });
};
document.getElementById("next").onclick = () => act(`/api/spades/tables/${game.id}/next`);
