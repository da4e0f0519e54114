// The cp-sudoku page: plain JavaScript over the /v1 API, no build step, nothing fetched from elsewhere.
"use strict";

const $ = (id) => document.getElementById(id);
const SHAPES = { 4: ["2x2"], 6: ["2x3", "3x2"], 9: ["3x3"], 16: ["4x4"] };
const ALPHABETS = { 4: ["1-4"], 6: ["1-6"], 9: ["1-9"], 16: ["1-9A-G", "0-9A-F"] };
const PAGE_ROWS = 25; // job rows drawn per page of the table; the download has them all
const SYMBOLS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

let mode = "grid";
let job = null; // {id, timer, page (0-based), shown (rows of that page drawn), done}

// --- Small helpers ---------------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function expand(name) {
  // "1-9A-G" -> "123456789ABCDEFG"
  let out = "";
  for (const piece of name.match(/.-.|./g)) {
    if (piece.length === 3) {
      const low = SYMBOLS.indexOf(piece[0]);
      const high = SYMBOLS.indexOf(piece[2]);
      out += SYMBOLS.slice(low, high + 1);
    } else out += piece;
  }
  return out;
}

function number(value) {
  return typeof value === "number" ? value.toLocaleString("en") : value;
}

async function api(method, path, body, isForm = false) {
  const init = { method };
  if (body !== undefined) {
    init.body = isForm ? body : JSON.stringify(body);
    if (!isForm) init.headers = { "Content-Type": "application/json" };
  }
  const response = await fetch(path, init);
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  return { ok: response.ok, status: response.status, data };
}

// --- The grid to type into -------------------------------------------------------------------

function size() { return Number($("size").value); }
function boxShape() { return $("box").value.split("x").map(Number); }
function alphabet() { return expand($("alphabet").value); }

function fillChoices(select, values) {
  select.replaceChildren(...values.map((v) => el("option", { value: v }, v)));
}

function buildEntry() {
  const n = size();
  const [band, stack] = boxShape();
  const table = $("entry");
  table.replaceChildren();
  table.dataset.size = n;
  for (let r = 0; r < n; r++) {
    const tr = el("tr");
    for (let c = 0; c < n; c++) {
      const input = el("input", {
        id: `g-${r}-${c}`, maxlength: "1", autocomplete: "off",
        "aria-label": `r${r + 1}c${c + 1}`, "data-r": r, "data-c": c,
      });
      const td = el("td", {}, input);
      if (r % band === 0) td.classList.add("top");
      if (c % stack === 0) td.classList.add("left");
      if (r === n - 1) td.classList.add("bottom");
      if (c === n - 1) td.classList.add("right");
      tr.append(td);
    }
    table.append(tr);
  }
}

function moveTo(r, c) {
  const n = size();
  const index = Math.max(0, Math.min(n * n - 1, r * n + c));
  const target = $(`g-${Math.floor(index / n)}-${index % n}`);
  target.focus();
  target.select();
}

function onEntryKey(event) {
  const input = event.target;
  if (input.tagName !== "INPUT") return;
  const r = Number(input.dataset.r);
  const c = Number(input.dataset.c);
  const key = event.key;
  const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  if (moves[key]) {
    event.preventDefault();
    moveTo(r + moves[key][0], c + moves[key][1]);
    return;
  }
  if (key === "Tab" || event.ctrlKey || event.metaKey || event.altKey) return;
  if (key === "Backspace") {
    event.preventDefault();
    if (input.value) input.value = "";
    else moveTo(r, c - 1);
    return;
  }
  if (key.length !== 1) return;
  event.preventDefault();
  const symbols = alphabet();
  const upper = key.toUpperCase();
  if (symbols.includes(upper)) input.value = upper;
  else if (".0_ ".includes(key)) input.value = "";
  else return;
  moveTo(r, c + 1);
}

function gridText() {
  const n = size();
  let line = "";
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) line += $(`g-${r}-${c}`).value || ".";
  }
  return line;
}

function setShape() {
  fillChoices($("box"), SHAPES[size()]);
  fillChoices($("alphabet"), ALPHABETS[size()]);
  buildEntry();
}

// --- Requests --------------------------------------------------------------------------------

function chosenBackends() {
  return [...document.querySelectorAll("#backends input:checked")].map((box) => box.value);
}

function options() {
  // the boxes as listed (or not yet listed): the server's default cross-check, which
  // chooses its back ends per puzzle (cpsat only where the kernel declines a rule)
  const boxes = [...document.querySelectorAll("#backends input")];
  const changed = boxes.some((box) => box.checked !== (box.dataset.default === "true"));
  const body = changed ? { backends: chosenBackends() } : {};
  if ($("limit").value) body.limit = Number($("limit").value);
  if ($("time-limit").value) body.time_limit = Number($("time-limit").value);
  return body;
}

function puzzleBody() {
  if (mode === "grid") {
    const body = { puzzle: gridText(), box: $("box").value, ...options() };
    if (size() > 9) body.alphabet = $("alphabet").value;
    return body;
  }
  const body = { puzzle: $("text").value, ...options() };
  if ($("format").value) body.format = $("format").value;
  return body;
}

function showError(message) {
  const verdict = $("verdict");
  verdict.textContent = message;
  verdict.className = "verdict error";
  $("drawings").replaceChildren();
  $("backend-table").hidden = true;
}

function busy(flag) {
  for (const id of ["check", "count", "prove", "workbench"]) $(id).disabled = flag;
}

async function run(path) {
  busy(true);
  const verdict = $("verdict");  // no stale verdict while the new answer is computed
  verdict.textContent = "Working...";
  verdict.className = "verdict";
  delete verdict.dataset.status;
  $("certificate").replaceChildren();
  $("workbench-notes").replaceChildren();
  try {
    const answer = await api("POST", path, puzzleBody());
    if (!answer.ok) {
      showError(`Error ${answer.status}: ${answer.data.error || answer.data}`);
      return null;
    }
    return answer.data;
  } catch (error) {
    showError(`The server did not answer: ${error}`);
    return null;
  } finally {
    busy(false);
  }
}

function verdictWords(record) {
  switch (record.status) {
    case "unique": return "Unique: exactly one solution.";
    case "multiple":
      return `Multiple: ${record.count}; the cells where two solutions differ are marked.`;
    case "none":
      return "None: the puzzle has no solution" + (record.reason ? `: ${record.reason}.` : ".");
    default:
      return record.agree === false
        ? `Unknown: the back ends disagree (${record.disagreements.join("; ")}).`
        : "Unknown: a limit stopped the search before a proof.";
  }
}

function effort(result) {
  const skip = new Set(["status", "seconds", "solutions", "complete", "stopped", "count"]);
  return Object.entries(result)
    .filter(([key]) => !skip.has(key))
    .map(([key, value]) => `${key.replace(/_/g, " ")} ${number(value)}`)
    .join(", ");
}

function showBackends(backends) {
  const body = $("backend-table").tBodies[0];
  body.replaceChildren(...Object.entries(backends).map(([name, result]) => el(
    "tr", {},
    el("td", {}, name),
    el("td", {}, result.status),
    el("td", { class: "num" }, (result.seconds * 1000).toFixed(2)),
    el("td", { class: "num" }, number(result.solutions)),
    el("td", {}, effort(result)),
  )));
  $("backend-table").hidden = false;
}

async function check() {
  const record = await run("/v1/check?drawing=true");
  if (!record) return;
  const verdict = $("verdict");
  verdict.textContent = verdictWords(record);
  verdict.className = `verdict ${record.status}`;
  verdict.dataset.status = record.status;
  const title = record.status === "unique" ? "Solution" : "A solution";
  const figures = [drawing(record.drawing, record.drawing.givens, "Puzzle", null)];
  if (record.drawing.solution) {
    const marks = cellMarks(record.drawing, record.differ.map((d) => d.cell), "differ");
    figures.push(drawing(record.drawing, record.drawing.solution, title, record.drawing.givens, marks));
  }
  $("drawings").replaceChildren(...figures);
  showBackends(record.backends);
}

// --- The workbench: differing cells, true candidates, suggestions, the core -------------------

function cellMarks(d, names, mark) {
  // "r3c2" names -> {index in the drawing: mark}
  const marks = {};
  for (const name of names) {
    const [, r, c] = name.match(/^r(\d+)c(\d+)$/).map(Number);
    marks[(r - 1) * d.cols + (c - 1)] = mark;
  }
  return marks;
}

function candidateFigure(d, found, marks) {
  // each cell's true candidates as small digits, coloured by the solutions using them
  const figure = drawing(d, d.givens, "True candidates", null, marks);
  const cells = figure.querySelectorAll("td");
  for (const [name, values] of Object.entries(found.candidates)) {
    const [, r, c] = name.match(/^r(\d+)c(\d+)$/).map(Number);
    const i = (r - 1) * d.cols + (c - 1);
    if (d.givens[i]) continue;
    const box = el("span", { class: "candidates" });
    for (const value of values) {
      const count = found.counts ? found.counts[name][String(value)] : null;
      const digit = el("span", { class: "candidate" }, SYMBOLS[value] || String(value));
      if (count !== null) {
        const level = count >= found.cap ? "many" : count === 1 ? "one" : "few";
        digit.classList.add(`count-${level}`);
        digit.title = `${count}${count >= found.cap ? "+" : ""} solution(s)`;
      }
      box.append(digit);
    }
    cells[i].querySelector(".value").replaceWith(box);
  }
  return figure;
}

async function workbench() {
  const perCandidate = Number($("per-candidate").value || 0);
  const record = await run(`/v1/workbench?per_candidate=${perCandidate}`);
  if (!record) return;
  const checked = record.check;
  const d = record.drawing;
  const verdict = $("verdict");
  verdict.textContent = verdictWords(checked);
  verdict.className = `verdict ${checked.status}`;
  verdict.dataset.status = checked.status;
  const core = record.core && record.core.core.length ? record.core : null;
  const suggested = record.suggestion ? record.suggestion.givens.map((g) => g.cell) : [];
  let coreMarks = {};
  if (core) { // the core's constraints shaded, its givens stronger
    const givens = core.core.filter((m) => m.text.startsWith("given ")).flatMap((m) => m.cells);
    coreMarks = { ...cellMarks(d, core.cells, "core"), ...cellMarks(d, givens, "core-given") };
  }
  const figures = [drawing(d, d.givens, "Puzzle", null, coreMarks)];
  if (d.solution) {
    const marks = cellMarks(d, checked.differ.map((x) => x.cell), "differ");
    const title = record.second ? "Solution 1" : "Solution";
    figures.push(drawing(d, d.solution, title, d.givens, marks));
    if (record.second) figures.push(drawing(d, record.second, "Solution 2", d.givens, marks));
  }
  figures.push(candidateFigure(d, record.candidates, cellMarks(d, suggested, "suggested")));
  $("drawings").replaceChildren(...figures);
  const notes = [];
  const found = record.candidates;
  notes.push(el("p", {}, `True candidates: ${found.solutions_seen} solutions seen, ` +
    `${found.refuted} candidates refuted, ${found.sat_calls} SAT calls` +
    (found.cap ? `; colour: used by one solution, by a few, by ${found.cap} or more.` : ".")));
  if (record.suggestion && record.suggestion.givens.length) {
    const s = record.suggestion;
    const words = s.givens.map((g) => `${g.cell}=${g.value}`).join(", ");
    notes.push(el("p", { class: "suggestion" }, `Suggestion: add ${words} ` +
      `(${s.optimal ? "the fewest for its solution" : "minimal"}; the cross-check says ${s.status}).`));
  }
  if (core) {
    notes.push(el("p", { class: "core" }, `Core: ${core.sentence}` +
      (core.minimal ? ` (checked by ${core.checked_by}).` : ".")));
    if (core.steps.length) {
      notes.push(el("ol", { class: "steps" },
        ...core.steps.filter((step) => step.technique).map((step) => el("li", {}, step.text))));
    }
    notes.push(el("p", {}, `Deduction: ${core.deduction}.`));
  }
  $("workbench-notes").replaceChildren(...notes);
  showBackends(checked.backends);
}

async function count() {
  const record = await run("/v1/count");
  if (!record) return;
  const noun = record.count === 1 ? "solution" : "solutions";
  const verdict = $("verdict");
  verdict.textContent = record.exact
    ? `${number(record.count)} ${noun}: the count is exact (a search finished).`
    : `At least ${number(record.count)} ${noun} (stopped by the limit ${number(record.limit)} or the time limit).`;
  verdict.className = "verdict count";
  $("drawings").replaceChildren();
  showBackends(record.backends);
}

async function prove() {
  busy(true);
  try {
    const answer = await api("POST", "/v1/prove", puzzleBody());
    if (answer.ok && answer.data.certificate) {
      const done = answer.data;
      const blob = new Blob([JSON.stringify(done.certificate, null, 1)], { type: "application/json" });
      const links = [el("a", { href: URL.createObjectURL(blob), download: "certificate.cert.json" },
        "the certificate")];
      if (done.cnf_url) links.push(el("a", { href: done.cnf_url }, "its CNF"));
      if (done.proof_url) links.push(el("a", { href: done.proof_url }, "its DRAT proof"));
      const checked = done.certificate.checked ? "checked by " + done.certificate.checker : "NOT checked";
      $("certificate").replaceChildren(`Proved ${done.status} (${checked}); download `,
        ...links.flatMap((link, i) => (i ? [", ", link] : [link])), ".");
    } else if (answer.ok) {
      $("certificate").textContent = `Prove: ${answer.data.status} (nothing proved within the time limit).`;
    } else {
      $("certificate").textContent = `Prove: ${answer.data.error || answer.data} (${answer.status})`;
    }
  } finally {
    busy(false);
  }
}

// --- Drawing a puzzle ------------------------------------------------------------------------

function drawing(d, values, title, givens, marks = {}) {
  const { rows, cols } = d;
  const cageOf = new Array(rows * cols).fill(-1);
  const cageLabel = {};
  d.cages.forEach((cage, k) => {
    const indexes = cage.cells.map(([r, c]) => r * cols + c);
    for (const i of indexes) cageOf[i] = k;
    cageLabel[Math.min(...indexes)] = cage.label;
  });
  // Without regions (a KenKen), the cages are the thick groups; with them (a Killer), dashed.
  const cagesGroup = d.cages.length > 0 && d.region.every((k) => k === -1);
  const group = (i) => (cagesGroup ? cageOf[i] : d.region[i]);
  const differs = (i, r, c, f) =>
    r < 0 || c < 0 || r >= rows || c >= cols || f(i) !== f(r * cols + c) || f(i) === -1 && !d.cells[r * cols + c];
  const table = el("table", { class: "grid drawing" });
  for (let r = 0; r < rows; r++) {
    const tr = el("tr");
    for (let c = 0; c < cols; c++) {
      const i = r * cols + c;
      const td = el("td");
      if (!d.cells[i]) {
        td.classList.add("block");
        if (d.labels[i]) td.append(el("span", { class: "clue" }, d.labels[i].replace("\\", " \\ ")));
      } else {
        const hasRegion = cagesGroup || d.region[i] !== -1;
        if (hasRegion) {
          if (differs(i, r - 1, c, group)) td.classList.add("top");
          if (differs(i, r, c - 1, group)) td.classList.add("left");
          if (differs(i, r + 1, c, group)) td.classList.add("bottom");
          if (differs(i, r, c + 1, group)) td.classList.add("right");
        }
        if (d.shaded[i]) td.classList.add("shaded");
        if (marks[i]) td.classList.add(marks[i]);
        const value = el("span", { class: "value" }, values[i] || "");
        if (givens === null || (givens && givens[i])) value.classList.add("given");
        if (!cagesGroup && cageOf[i] !== -1) {
          const cage = el("span", { class: "cage" });
          const f = (j) => cageOf[j];
          if (differs(i, r - 1, c, f)) cage.classList.add("top");
          if (differs(i, r, c - 1, f)) cage.classList.add("left");
          if (differs(i, r + 1, c, f)) cage.classList.add("bottom");
          if (differs(i, r, c + 1, f)) cage.classList.add("right");
          td.append(cage);
        }
        if (cageLabel[i] !== undefined) td.append(el("span", { class: "target" }, cageLabel[i]));
        td.append(value);
      }
      tr.append(td);
    }
    table.append(tr);
  }
  return el("figure", {}, el("figcaption", {}, title), board(table, d));
}

// --- Marks as SVG over the grid: one cell is one unit; the page never knows the type ---------

const SVG = "http://www.w3.org/2000/svg";
const LINE_COLOURS = { thermometer: "#b8bec9", whispers: "#5fb35f", renban: "#b36fd6",
  palindrome: "#8d96a6", between: "#7fa6d9", arrow: "#8d96a6" };

function svg(tag, attrs = {}, text = "") {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

const centre = ([r, c]) => [c + 0.5, r + 0.5];
const middle = (cells) => {
  const points = cells.map(centre);
  return [0, 1].map((k) => points.reduce((sum, p) => sum + p[k], 0) / points.length);
};

function label(x, y, text, size = 0.4, attrs = {}) {
  return svg("text", { x, y, "font-size": size, "text-anchor": "middle",
    "dominant-baseline": "central", ...attrs }, text);
}

function markShapes(m, rows, cols) {
  const pts = m.cells.map(centre);
  const path = pts.map((p) => p.join(",")).join(" ");
  const [mx, my] = middle(m.cells);
  const colour = LINE_COLOURS[m.style] || "#8d96a6";
  switch (m.shape) {
    case "line":
      return [svg("polyline", { points: path, fill: "none", stroke: colour, "stroke-width":
        m.style === "thermometer" ? 0.28 : 0.14, "stroke-linecap": "round", "stroke-linejoin": "round" })];
    case "bulb":
      return [svg("circle", { cx: pts[0][0], cy: pts[0][1], r: 0.36, fill: LINE_COLOURS.thermometer })];
    case "circle":
      return pts.map(([x, y]) => svg("circle", { cx: x, cy: y, r: 0.4, fill: "none", stroke: colour,
        "stroke-width": 0.06 }));
    case "pill": {
      const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
      const [x, y] = [Math.min(...xs) - 0.4, Math.min(...ys) - 0.4];
      return [svg("rect", { x, y, width: Math.max(...xs) - x + 0.4, height: Math.max(...ys) - y + 0.4,
        rx: 0.4, fill: "none", stroke: colour, "stroke-width": 0.06 })];
    }
    case "arrow":
      return [svg("polyline", { points: path, fill: "none", stroke: colour, "stroke-width": 0.06,
        "marker-end": "url(#arrowhead)" })];
    case "dot-white":
    case "dot-black": {
      const black = m.shape === "dot-black";
      return [svg("circle", { cx: mx, cy: my, r: 0.13, fill: black ? "#222" : "white", stroke: "#222",
        "stroke-width": 0.04 }), ...(m.label ? [label(mx, my, m.label, 0.16,
        { fill: black ? "white" : "#222" })] : [])];
    }
    case "edge-text":
      return [svg("rect", { x: mx - 0.15, y: my - 0.15, width: 0.3, height: 0.3, fill: "white" }),
        label(mx, my, m.label, 0.3)];
    case "relation": {
      const [[x1, y1], [x2, y2]] = pts;
      const sign = y1 === y2 ? (x1 < x2 ? "<" : ">") : (y1 < y2 ? "\u2227" : "\u2228");
      return [label(mx, my, sign, 0.45, { "font-weight": 700 })];
    }
    case "outside": {
      const [x, y] = pts[0];
      const side = m.style || "left";
      const diagonal = { UR: [1, -1], UL: [-1, -1], DR: [1, 1], DL: [-1, 1] }[side];
      if (diagonal) { // a little killer: its clue one step back along the diagonal, an arrow in
        const [sx, sy] = diagonal;
        const [cx, cy] = [x - sx, y - sy];
        return [label(cx - sx * 0.12, cy - sy * 0.12, m.label, 0.32),
          svg("line", { x1: cx + sx * 0.12, y1: cy + sy * 0.12, x2: cx + sx * 0.4, y2: cy + sy * 0.4,
            stroke: "#222", "stroke-width": 0.04, "marker-end": "url(#arrowhead)" })];
      }
      const dx = side.includes("left") ? -x - 0.5 : side.includes("right") ? cols - x + 0.5 : 0;
      const dy = side.includes("top") ? -y - 0.5 : side.includes("bottom") ? rows - y + 0.5 : 0;
      return [label(x + dx, y + dy, m.label, 0.45)];
    }
    case "quad": {
      const [x, y] = [Math.max(...pts.map((p) => p[0])) - 0.5, Math.max(...pts.map((p) => p[1])) - 0.5];
      return [svg("circle", { cx: x, cy: y, r: 0.25, fill: "white", stroke: "#222", "stroke-width": 0.04 }),
        label(x, y, m.label, 0.15)];
    }
    case "odd":
      return pts.map(([x, y]) => svg("circle", { cx: x, cy: y, r: 0.34, fill: "#d5d9e0" }));
    case "even":
      return pts.map(([x, y]) => svg("rect", { x: x - 0.34, y: y - 0.34, width: 0.68, height: 0.68,
        fill: "#d5d9e0" }));
    default:
      return [];
  }
}

function board(table, d) {
  // Rules over the whole grid (anti-knight, non-consecutive) are listed in words under it.
  const rules = (d.marks || []).filter((m) => m.shape === "rule").map((m) => el("li", {}, m.label));
  const drawn = drawnBoard(table, d);
  return rules.length ? el("div", {}, drawn, el("ul", { class: "rules" }, ...rules)) : drawn;
}

function drawnBoard(table, d) {
  const marks = (d.marks || []).filter((m) => m.shape !== "cage" && m.shape !== "rule");
  if (!marks.length) return table;
  const pad = marks.some((m) => m.shape === "outside") ? 1 : 0;
  const wrap = el("div", { class: "board" });
  if (pad) wrap.classList.add("padded");
  const under = svg("svg", { class: "marks under", viewBox: `${-pad} ${-pad} ${d.cols + 2 * pad} ${d.rows + 2 * pad}` });
  const over = svg("svg", { class: "marks over", viewBox: `${-pad} ${-pad} ${d.cols + 2 * pad} ${d.rows + 2 * pad}` });
  const defs = svg("defs");
  const head = svg("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: 8, refY: 5,
    markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" });
  head.append(svg("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#8d96a6" }));
  defs.append(head);
  over.append(defs);
  for (const m of marks) {
    // Lines, bulbs and shaded shapes go under the values; dots, signs and clues over them.
    const target = ["line", "bulb", "odd", "even"].includes(m.shape) ? under : over;
    target.append(...markShapes(m, d.rows, d.cols));
  }
  wrap.append(under, table, over);
  return wrap;
}

// --- Jobs ------------------------------------------------------------------------------------

async function startJob() {
  const file = $("job-file").files[0];
  if (!file) {
    $("job-state").textContent = "Choose a file first.";
    return;
  }
  if (job) clearTimeout(job.timer);
  const form = new FormData();
  form.append("file", file, file.name);
  const chosen = options();
  if (chosen.backends) form.append("backends", chosen.backends.join(","));
  if (chosen.limit) form.append("limit", chosen.limit);
  if (chosen.time_limit) form.append("time_limit", chosen.time_limit);
  if (mode === "text" && $("format").value) form.append("format", $("format").value);
  $("job-table").tBodies[0].replaceChildren();
  showPager(0);
  const answer = await api("POST", "/v1/jobs", form, true);
  if (!answer.ok) {
    $("job-state").textContent = `Error ${answer.status}: ${answer.data.error || answer.data}`;
    return;
  }
  job = { id: answer.data.id, page: 0, shown: 0, done: 0, timer: null };
  $("job-cancel").disabled = false;
  setDownload(null);
  await poll();
}

function setDownload(href) {
  const link = $("job-download");
  if (href) {
    link.href = href;
    link.classList.remove("disabled");
    link.setAttribute("aria-disabled", "false");
  } else {
    link.removeAttribute("href");
    link.classList.add("disabled");
    link.setAttribute("aria-disabled", "true");
  }
}

function describe(state) {
  const parts = [`${state.state}: ${number(state.done)} / ${number(state.total)} puzzles`];
  if (state.rate) parts.push(`${state.rate.toFixed(1)} puzzles/s`);
  if (state.eta_seconds !== null && state.eta_seconds !== undefined) {
    parts.push(`${Math.ceil(state.eta_seconds)} s left`);
  }
  if (state.error) parts.push(state.error);
  return parts.join(" · ");
}

// The table shows one page of PAGE_ROWS results; a page is fetched again until it is full.
async function showPage(id) {
  if (job.shown >= PAGE_ROWS) return;
  const first = job.page * PAGE_ROWS;
  const response = await fetch(`/v1/jobs/${id}/results?start=${first}&count=${PAGE_ROWS}`);
  const text = await response.text();
  if (!job || job.id !== id) return;
  const rows = [];
  for (const line of text.split("\n")) {
    if (!line) continue;
    const record = JSON.parse(line);
    const ms = Object.values(record.backends).reduce((sum, b) => sum + b.seconds * 1000, 0);
    rows.push(el("tr", { class: record.status },
      el("td", { class: "num" }, number(first + rows.length + 1)),
      el("td", { class: "num" }, number(record.line)),
      el("td", {}, record.status),
      el("td", { class: "solution" }, record.solution || record.error || "-"),
      el("td", { class: "num" }, ms.toFixed(2)),
    ));
  }
  $("job-table").tBodies[0].replaceChildren(...rows);
  job.shown = rows.length;
}

function pages() {
  return Math.max(1, Math.ceil(job.done / PAGE_ROWS));
}

function showPager(done) {
  const shown = job ? pages() : 1;
  $("job-prev").disabled = !job || job.page === 0;
  $("job-next").disabled = !job || job.page + 1 >= shown;
  $("job-page").textContent = done
    ? `page ${number(job.page + 1)} of ${number(shown)} (${number(PAGE_ROWS)} rows a page)`
    : "";
}

async function turnPage(step) {
  if (!job) return;
  const page = Math.min(Math.max(job.page + step, 0), pages() - 1);
  if (page === job.page) return;
  job.page = page;
  job.shown = 0;
  await showPage(job.id);
  showPager(job.done);
}

async function poll() {
  const id = job.id;
  const answer = await api("GET", `/v1/jobs/${id}`);
  if (!job || job.id !== id) return;
  if (!answer.ok) {
    $("job-state").textContent = `Error ${answer.status}: ${answer.data.error}`;
    return;
  }
  const state = answer.data;
  const progress = $("job-progress");
  progress.max = Math.max(state.total, 1);
  progress.value = state.done;
  job.done = state.done;
  await showPage(id);
  showPager(state.done);
  const jobState = $("job-state");
  jobState.textContent = describe(state);
  jobState.dataset.state = state.state;
  $("job-counts").textContent = Object.entries(state.counts)
    .map(([status, n]) => `${status} ${number(n)}`).join(", ");
  if (["done", "failed", "cancelled"].includes(state.state)) {
    $("job-cancel").disabled = true;
    setDownload(`/v1/jobs/${id}/results`);
    return;
  }
  job.timer = setTimeout(poll, 400);
}

async function cancelJob() {
  if (!job) return;
  await api("DELETE", `/v1/jobs/${job.id}`);
}

// --- Start -----------------------------------------------------------------------------------

function selectTab(name) {
  mode = name;
  for (const which of ["grid", "text"]) {
    const active = which === name;
    $(`tab-${which}`).classList.toggle("active", active);
    $(`tab-${which}`).setAttribute("aria-selected", String(active));
    $(`pane-${which}`).hidden = !active;
  }
}

async function loadListings() {
  const [backends, kinds] = await Promise.all([api("GET", "/v1/backends"), api("GET", "/v1/kinds")]);
  // a box ticked by default whose back end the default cross-check runs on some puzzles
  // only is starred, and the star explained in words beside the boxes
  const some = (b) => b.default_on && b.default_on !== "every puzzle";
  $("backends").replaceChildren(...backends.data.backends.map((b) => el(
    "label", { class: "backend", title: b.default_on ? `by default on ${b.default_on}` : "" },
    Object.assign(el("input", {
      type: "checkbox", value: b.name, id: `backend-${b.name}`, "data-default": String(b.default),
    }), { checked: b.default }),
    ` ${b.name}${some(b) ? "*" : ""}`,
  )));
  const starred = backends.data.backends.find(some);
  if (starred) {
    $("backends").append(el("small", { class: "backend-note" },
      `* by default only on ${starred.default_on}; untick one to run exactly the ticked`));
  }
  const examples = {};
  for (const { kind, example } of kinds.data.kinds) {
    examples[kind] = example;
    $("example").append(el("option", { value: kind }, kind));
  }
  $("example").addEventListener("change", (event) => {
    if (event.target.value) $("text").value = examples[event.target.value];
  });
}

function start() {
  setShape();
  $("size").addEventListener("change", setShape);
  $("job-prev").addEventListener("click", () => turnPage(-1));
  $("job-next").addEventListener("click", () => turnPage(1));
  $("box").addEventListener("change", buildEntry);
  $("entry").addEventListener("keydown", onEntryKey);
  $("clear").addEventListener("click", buildEntry);
  $("tab-grid").addEventListener("click", () => selectTab("grid"));
  $("tab-text").addEventListener("click", () => selectTab("text"));
  $("check").addEventListener("click", check);
  $("count").addEventListener("click", count);
  $("prove").addEventListener("click", prove);
  $("workbench").addEventListener("click", workbench);
  $("job-start").addEventListener("click", startJob);
  $("job-cancel").addEventListener("click", cancelJob);
  loadListings();
}

start();
