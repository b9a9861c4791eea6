// A document's page: the field table and the boxes over the page image point at each other.
//
// Hovering or selecting a row lights its box (turning to the box's page first), clicking a box
// selects its row. Keys: J/K or arrows move through the fields, [ and ] turn pages, B hides the
// boxes to read what is under them, Escape clears the selection. While the document is still in
// the pipeline the page follows its status and reloads once it is decided.

import { StatusPoller, isTyping, paintStatus } from "./status.js";

const root = document.getElementById("document");
if (root) {
  followUntilDecided(root);
  linkFieldsAndBoxes();
}

function followUntilDecided(root) {
  if (root.dataset.inFlight !== "true") return;
  const pill = document.getElementById("status");
  const poller = new StatusPoller(root.dataset.statusUrl, (doc) => {
    paintStatus(pill, doc.status, doc.status_label);
    if (!doc.in_flight) window.location.reload();
  });
  poller.watch(root.dataset.documentId);
}

function linkFieldsAndBoxes() {
  const rows = Array.from(document.querySelectorAll("#fields tbody tr"));
  const frames = Array.from(document.querySelectorAll(".page-frame"));
  const tabs = Array.from(document.querySelectorAll(".page-tabs button"));
  const viewer = document.querySelector(".viewer");
  let active = -1;

  const currentPage = () => {
    const shown = frames.find((frame) => !frame.hidden);
    return shown ? Number(shown.dataset.page) : 1;
  };

  const showPage = (number) => {
    if (!frames.some((frame) => Number(frame.dataset.page) === number)) return;
    for (const frame of frames) frame.hidden = Number(frame.dataset.page) !== number;
    for (const tab of tabs) tab.setAttribute("aria-selected", String(Number(tab.dataset.page) === number));
  };

  const boxFor = (key) => document.querySelector(`.box[data-key="${key}"]`);

  const highlight = (key, on) => {
    const box = boxFor(key);
    if (box) box.classList.toggle("is-active", on);
  };

  const select = (index, { scrollTable = true } = {}) => {
    if (!rows.length) return;
    if (active >= 0) {
      rows[active].classList.remove("is-active");
      highlight(rows[active].dataset.key, false);
    }
    active = Math.max(0, Math.min(rows.length - 1, index));
    const row = rows[active];
    row.classList.add("is-active");
    if (scrollTable) row.scrollIntoView({ block: "nearest" });
    const box = boxFor(row.dataset.key);
    if (box) {
      showPage(Number(row.dataset.page));
      box.classList.add("is-active");
      box.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
  };

  const clear = () => {
    if (active < 0) return;
    rows[active].classList.remove("is-active");
    highlight(rows[active].dataset.key, false);
    active = -1;
  };

  rows.forEach((row, index) => {
    row.addEventListener("mouseenter", () => {
      if (row.dataset.hasBox && Number(row.dataset.page) !== currentPage()) showPage(Number(row.dataset.page));
      highlight(row.dataset.key, true);
    });
    row.addEventListener("mouseleave", () => {
      if (index !== active) highlight(row.dataset.key, false);
    });
    row.addEventListener("click", () => select(index, { scrollTable: false }));
  });

  for (const box of document.querySelectorAll(".box")) {
    box.addEventListener("click", () => select(rows.findIndex((row) => row.dataset.key === box.dataset.key)));
  }

  for (const tab of tabs) tab.addEventListener("click", () => showPage(Number(tab.dataset.page)));

  document.addEventListener("keydown", (event) => {
    if (isTyping(event)) return;
    const pages = frames.map((frame) => Number(frame.dataset.page));
    const at = pages.indexOf(currentPage());
    switch (event.key) {
      case "j":
      case "ArrowDown":
        select(active + 1);
        break;
      case "k":
      case "ArrowUp":
        select(active < 0 ? 0 : active - 1);
        break;
      case "]":
        if (at < pages.length - 1) showPage(pages[at + 1]);
        break;
      case "[":
        if (at > 0) showPage(pages[at - 1]);
        break;
      case "b":
      case "B":
        if (viewer) viewer.classList.toggle("boxes-hidden");
        break;
      case "Escape":
        clear();
        break;
      default:
        return;
    }
    event.preventDefault();
  });
}
