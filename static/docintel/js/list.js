// The documents list: filters apply as soon as they change, rows still in the pipeline update
// in place, and the keyboard moves through rows (J/K or arrows, Enter opens, / searches, U uploads).

import { StatusPoller, isTyping, paintStatus } from "./status.js";

const filters = document.getElementById("filters");
const table = document.getElementById("documents");

if (filters) {
  for (const select of filters.querySelectorAll("select")) {
    select.addEventListener("change", () => filters.requestSubmit());
  }
}

if (filters) {
  const rows = table ? Array.from(table.querySelectorAll("tbody tr")) : [];
  let active = -1;

  const poller = new StatusPoller(filters.dataset.statusUrl, (doc) => {
    const row = rows.find((candidate) => candidate.dataset.statusId === doc.id);
    if (!row) return;
    paintStatus(row.querySelector(".status"), doc.status, doc.status_label);
    if (doc.document_type) row.querySelector("[data-role=type]").textContent = doc.document_type_label;
  });
  for (const row of rows) if (row.dataset.statusId) poller.watch(row.dataset.statusId);

  const activate = (index) => {
    if (!rows.length) return;
    active = Math.max(0, Math.min(rows.length - 1, index));
    rows.forEach((row, i) => row.classList.toggle("is-active", i === active));
    rows[active].scrollIntoView({ block: "nearest" });
  };

  document.addEventListener("keydown", (event) => {
    if (event.key === "/" && !isTyping(event)) {
      event.preventDefault();
      filters.querySelector("input[name=q]").focus();
      return;
    }
    if (isTyping(event)) return;
    const key = event.key;
    if (key === "j" || key === "ArrowDown") activate(active + 1);
    else if (key === "k" || key === "ArrowUp") activate(active - 1);
    else if (key === "Enter" && active >= 0) window.location.href = rows[active].dataset.href;
    else if (key.toLowerCase() === "u") window.location.href = document.querySelector(".page-head .btn").href;
    else return;
    event.preventDefault();
  });
}
