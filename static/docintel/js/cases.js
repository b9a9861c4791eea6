// Keyboard-first case review (templates/cases/). Every action is also a plain form; the script
// adds the shortcuts named on the page (data-keys-*): move between checks (their fields are
// marked on every document side by side), open a decision's dialog, take the next case.
// Shortcuts never fire while the operator types or a dialog is open.

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

const page = $("#case");
// the keys are named by the page (the case screen, or the queue's "next case" form)
const keys = $("[data-keys-case]")?.dataset ?? {};
const checks = $$(".case-check");
const canAct = page?.classList.contains("is-active-task") ?? false;
let active = -1;

function isTyping(element) {
  return element instanceof HTMLElement &&
    (element.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(element.tagName));
}

function openDialog(id) {
  const dialog = document.getElementById(id);
  if (!dialog || dialog.open) return;
  dialog.showModal();
  (dialog.querySelector("[autofocus]") || dialog.querySelector("button"))?.focus();
}

function setActive(index) {
  if (!checks.length) return;
  active = Math.min(Math.max(index, 0), checks.length - 1);
  const check = checks[active];
  checks.forEach((c, i) => c.classList.toggle("is-active", i === active));
  const fields = new Set((check.dataset.fields || "").split(" ").filter(Boolean));
  $$(".case-field").forEach((cell) => cell.classList.toggle("is-compared", fields.has(cell.dataset.field)));
  check.focus({ preventScroll: true });
  check.scrollIntoView({ block: "nearest" });
}

$$("[data-open]").forEach((button) => button.addEventListener("click", () => openDialog(button.dataset.open)));
$$("dialog [data-close]").forEach((button) => button.addEventListener("click", () => button.closest("dialog").close()));
// Enter in a note submits; Shift+Enter is a new line.
$$("dialog textarea").forEach((area) => area.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey) {
    event.preventDefault();
    area.form.requestSubmit();
  }
}));

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if ($("dialog[open]") || isTyping(event.target)) return;
  const key = event.key;
  if (key === "?") { openDialog("case-help"); return; }
  if (key === keys.keysCase) { event.preventDefault(); $("#case-next-form")?.requestSubmit(); return; }
  if (!page) return;
  if (key === keys.keysNext) { event.preventDefault(); setActive(active + 1); return; }
  if (key === keys.keysPrevious) { event.preventDefault(); setActive(active - 1); return; }
  if (!canAct) return;
  const dialogs = { [keys.keysApprove]: "decide-approved", [keys.keysReject]: "decide-rejected", [keys.keysResubmit]: "decide-resubmission_requested" };
  if (dialogs[key]) { event.preventDefault(); openDialog(dialogs[key]); }
});

// The first failed check is where a reviewer starts.
if (page && checks.length) {
  const firstFailed = checks.findIndex((c) => c.classList.contains("check-fail"));
  if (firstFailed >= 0) setActive(firstFailed);
}
