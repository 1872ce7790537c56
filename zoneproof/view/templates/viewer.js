"use strict";
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const games = Array.from(document.querySelectorAll(".game"));
  let active = games[0];

  function box(element, origin) {
    const r = element.getBoundingClientRect();
    return { x: r.left - origin.left + r.width / 2, y: r.top - origin.top + r.height / 2, w: r.width / 2, h: r.height / 2 };
  }

  // Where the line from the centre of `b` towards `a` leaves the box `b`.
  function edge(b, a) {
    const dx = a.x - b.x, dy = a.y - b.y;
    const t = Math.min(dx ? b.w / Math.abs(dx) : Infinity, dy ? b.h / Math.abs(dy) : Infinity, 1);
    return { x: b.x + dx * t, y: b.y + dy * t };
  }

  // An arrow from the place each moved card left (its ghost) to the card.
  function drawArrows(state) {
    const svg = state.querySelector("svg.arrows");
    const origin = state.getBoundingClientRect();
    svg.replaceChildren();
    const defs = document.createElementNS(SVG, "defs");
    const marker = document.createElementNS(SVG, "marker");
    const id = "arrowhead-" + Math.random().toString(36).slice(2);
    marker.setAttribute("id", id);
    marker.setAttribute("viewBox", "0 0 10 10");
    marker.setAttribute("refX", "9");
    marker.setAttribute("refY", "5");
    marker.setAttribute("markerWidth", "7");
    marker.setAttribute("markerHeight", "7");
    marker.setAttribute("orient", "auto-start-reverse");
    const head = document.createElementNS(SVG, "path");
    head.setAttribute("d", "M 0 0 L 10 5 L 0 10 z");
    marker.appendChild(head);
    defs.appendChild(marker);
    svg.appendChild(defs);
    state.querySelectorAll(".chip[data-move]").forEach((chip) => {
      const ghost = state.querySelector(`.ghost[data-move="${chip.dataset.move}"]`);
      if (!ghost) return;
      const from = box(ghost, origin);
      const to = box(chip, origin);
      const a = edge(from, to);
      const b = edge(to, from);
      const bend = Math.min(80, Math.hypot(b.x - a.x, b.y - a.y) / 4);
      const path = document.createElementNS(SVG, "path");
      path.setAttribute("class", "move");
      path.setAttribute("data-move", chip.dataset.move);
      path.setAttribute("d", `M ${a.x} ${a.y} Q ${(a.x + b.x) / 2 + bend} ${(a.y + b.y) / 2 - bend} ${b.x} ${b.y}`);
      path.setAttribute("marker-end", `url(#${id})`);
      svg.appendChild(path);
    });
  }

  function setup(game) {
    const slider = game.querySelector(".slider");
    const select = game.querySelector(".view-as");
    const position = game.querySelector(".position");
    const last = Number(slider.max);

    function show() {
      const step = Number(slider.value);
      game.querySelectorAll(".live").forEach((live) => {
        live.querySelectorAll(".state").forEach((s) => { s.hidden = Number(s.dataset.step) !== step; });
        live.querySelectorAll(".steps > li").forEach((li) => {
          const current = Number(li.dataset.step) === step;
          li.classList.toggle("current", current);
          if (current && li.parentElement.scrollHeight > li.parentElement.clientHeight) {
            li.parentElement.scrollTop = li.offsetTop - li.parentElement.offsetTop - 8;
          }
        });
        const state = live.querySelector(`.state[data-step="${step}"]`);
        if (state) drawArrows(state);
      });
      position.textContent = step === 0 ? `start (${last} step${last === 1 ? "" : "s"})` : `step ${step} of ${last}`;
      game.dataset.step = String(step);
    }

    // Only the chosen viewer's boards are put into the page; the others stay in their templates.
    function render() {
      game.querySelectorAll(".run").forEach((run) => {
        const template = run.querySelector(`template[data-view="${select.value}"]`);
        const live = run.querySelector(".live");
        live.replaceChildren(template.content.cloneNode(true));
        live.querySelectorAll(".steps > li").forEach((li) => {
          li.addEventListener("click", () => go(Number(li.dataset.step)));
        });
      });
      game.dataset.view = select.value;
      show();
    }

    function go(step) {
      slider.value = String(Math.max(0, Math.min(last, step)));
      active = game;
      show();
    }

    game.go = go;
    game.redraw = show;
    slider.addEventListener("input", show);
    select.addEventListener("change", render);
    game.querySelector(".prev").addEventListener("click", () => go(Number(slider.value) - 1));
    game.querySelector(".next").addEventListener("click", () => go(Number(slider.value) + 1));
    game.addEventListener("pointerdown", () => { active = game; });
    game.addEventListener("focusin", () => { active = game; });
    render();
  }

  games.forEach(setup);

  document.addEventListener("keydown", (event) => {
    if (!active || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target.matches && target.matches("input, select, textarea")) return; // the slider and the selector handle their own keys
    const step = Number(active.querySelector(".slider").value);
    const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: Number(active.dataset.last) };
    if (event.key in moves) {
      event.preventDefault();
      active.go(moves[event.key]);
    }
  });

  window.addEventListener("resize", () => games.forEach((game) => game.redraw()));
})();
