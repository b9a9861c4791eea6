// Keyboard-first review (templates/review/). Every action is also a plain form that works
// without this script; the script adds the shortcuts, posts field actions in the background so
// the page never reloads mid-review, keeps the page viewer on the active field, and counts the
// lease down. Shortcuts never fire while the operator types in a field or a dialog is open.

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

const review = $("#review");
const rows = $$(".rv-row");
const canAct = review?.classList.contains("is-active-task") ?? false;
let active = Math.max(rows.findIndex((row) => row.dataset.key === review?.dataset.activeKey), 0);

function isTyping(element) {
  return element instanceof HTMLElement &&
    (element.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(element.tagName));
}

function openDialog(id) {
  const dialog = document.getElementById(id);
  if (!dialog || dialog.open) return;
  if (id === "approve-dialog") describeApproval();
  dialog.showModal();
  const focus = dialog.querySelector("[autofocus]") || dialog.querySelector("input, textarea, button[type=submit]");
  focus?.focus();
}

function alertLive(message) {
  const box = $("#live-alert");
  if (!box) return;
  box.textContent = message;
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
}

// The task moved on without this page (another operator holds it, or it is finished): stop
// offering actions that can only be refused, and point back to the queue.
function goStale(message) {
  alertLive(message);
  const box = $("#live-alert");
  const back = document.createElement("a");
  back.href = review.dataset.queueUrl;
  back.className = "btn btn-sm alert-action";
  back.textContent = "Back to the queue";
  box.append(" ", back);
  review.classList.add("is-stale");
  $$(".rv-input").forEach((input) => { input.readOnly = true; });
  lease.stop("lost");
}

// --- Fields -------------------------------------------------------------------------------------

function setActive(index, { focusRow = true } = {}) {
  if (!rows.length) return;
  active = Math.min(Math.max(index, 0), rows.length - 1);
  rows.forEach((row, i) => row.classList.toggle("is-active", i === active));
  const row = rows[active];
  if (focusRow && document.activeElement !== row) row.focus({ preventScroll: true });
  row.scrollIntoView({ block: "nearest", behavior: "smooth" });
  showPage(row.dataset.page);
  $$(".box").forEach((box) => box.classList.toggle("is-active", box.dataset.key === row.dataset.key));
  centreOn($(`.box[data-key="${row.dataset.key}"]`));
}

function centreOn(box) {
  const frame = box?.closest(".page-frame");
  if (!box || !frame) return;
  frame.scrollTo({
    left: Math.max(box.offsetLeft + box.offsetWidth / 2 - frame.clientWidth / 2, 0),
    top: Math.max(box.offsetTop + box.offsetHeight / 2 - frame.clientHeight / 2, 0),
    behavior: "smooth",
  });
}

function toggleZoom() {
  const button = $("#toggle-zoom");
  const zoomed = button?.getAttribute("aria-pressed") !== "true";
  button?.setAttribute("aria-pressed", String(zoomed));
  $$(".page-frame").forEach((frame) => frame.classList.toggle("is-zoomed", zoomed));
  centreOn($(".box.is-active"));
}

function showPage(number) {
  if (!number) return;
  $$(".page-frame").forEach((frame) => { frame.hidden = frame.dataset.page !== String(number); });
  $$("[data-page-tab]").forEach((tab) => tab.setAttribute("aria-selected", String(tab.dataset.pageTab === String(number))));
}

function isChecked(row) {
  return row.classList.contains("is-confirmed") || row.classList.contains("is-corrected");
}

function nextUnchecked(from) {
  for (let step = 1; step < rows.length; step += 1) {
    const i = (from + step) % rows.length;
    if (!isChecked(rows[i]) && !rows[i].classList.contains("is-pending")) return i;
  }
  return -1;
}

async function post(form) {
  const response = await fetch(form.action, {
    method: "POST",
    body: new FormData(form),
    headers: { Accept: "application/json" },
    credentials: "same-origin",
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.error?.message || `The server answered ${response.status}. Reload the page.`);
    error.code = data.error?.code || "";
    throw error;
  }
  return data;
}

function applyResult(row, data) {
  row.classList.remove("is-confirmed", "is-corrected", "band-high", "band-medium", "band-low", "band-none");
  row.classList.add(`is-${data.review}`, "band-operator");
  const pill = $(".rv-pill", row);
  pill.dataset.state = data.review;
  pill.textContent = data.review === "corrected" ? "✎ Corrected" : "✓ Confirmed";
  const input = $(".rv-input", row);
  input.value = data.value ?? "";
  input.dataset.original = input.value;
  input.classList.remove("is-dirty");
  $(".conf-text", row).textContent = "operator";
  let was = $(".rv-was", row);
  if (data.review === "corrected") {
    if (!was) {
      was = document.createElement("span");
      was.className = "rv-was";
      was.title = "What the engine read";
      $(".rv-meta", row).append(was);
    }
    const struck = document.createElement("s");
    struck.textContent = data.engine_value ?? "nothing";
    was.replaceChildren("engine read ", struck);
  } else {
    was?.remove();
  }
  $(".conf-bar > span", row).style.width = "100%";
  const count = $("#checked-count");
  if (count) count.textContent = String(rows.filter(isChecked).length);
  if (data.lease_left_s != null) lease.reset(data.lease_left_s);
  if (data.maker_approval_withdrawn) {
    alertLive("The maker's approval was withdrawn because a value changed: approving now makes you the maker.");
  }
}

async function act(row, kind) {
  if (!canAct || review.classList.contains("is-stale") || row.classList.contains("is-busy")) return;
  const input = $(".rv-input", row);
  // An untouched value saved with Enter is a confirmation, not a correction.
  const changed = input.value.trim() !== (input.dataset.original ?? "").trim();
  const form = kind === "correct" && changed ? $('form[data-kind="correct"]', row) : $('form[data-kind="confirm"]', row);
  const index = rows.indexOf(row);
  // Move on at once, before the server answers: an operator typing ahead must land on the next
  // field, not act twice on this one. A refusal brings them back here.
  row.classList.add("is-busy", "is-pending");
  const next = nextUnchecked(index);
  if (next !== -1) setActive(next);
  try {
    applyResult(row, await post(form));
    if (nextUnchecked(index) === -1) $("#approve-button")?.classList.add("is-ready");
  } catch (error) {
    setActive(index);
    if (["not_lease_holder", "invalid_task_state"].includes(error.code)) goStale(error.message);
    else alertLive(error.message);
  } finally {
    row.classList.remove("is-busy", "is-pending");
  }
}

function edit(row) {
  const input = $(".rv-input", row);
  if (!input || input.readOnly) return;
  input.focus();
  // The caret goes to the end: most corrections complete or fix the end of a value (a name the
  // MRZ truncated); Ctrl+A replaces the whole value.
  input.setSelectionRange(input.value.length, input.value.length);
}

function undoEdit(input) {
  input.value = input.dataset.original ?? "";
  input.classList.remove("is-dirty");
  const row = input.closest(".rv-row");
  input.blur();
  row?.focus({ preventScroll: true });
}

// --- Crops --------------------------------------------------------------------------------------

// Each field's crop is drawn from its page image, which the viewer loads anyway: one decrypted
// image per page instead of one request per field, and the crops appear with the page.
function drawCrop(container, image) {
  const [x0, y0, x1, y1] = container.dataset.crop.split(",").map(Number);
  const sw = (x1 - x0) * image.naturalWidth;
  const sh = (y1 - y0) * image.naturalHeight;
  const canvas = $("canvas", container);
  if (!canvas || sw <= 0 || sh <= 0) return;
  const scale = Math.min(container.clientWidth / sw, container.clientHeight / sh);
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.max(Math.round(sw * scale * ratio), 1);
  canvas.height = Math.max(Math.round(sh * scale * ratio), 1);
  canvas.style.width = `${sw * scale}px`;
  canvas.style.height = `${sh * scale}px`;
  const context = canvas.getContext("2d");
  context.imageSmoothingQuality = "high";
  context.drawImage(image, x0 * image.naturalWidth, y0 * image.naturalHeight, sw, sh, 0, 0, canvas.width, canvas.height);
  container.classList.add("is-drawn");
}

function drawCrops() {
  $$(".page-frame").forEach((frame) => {
    const image = $("img", frame);
    const draw = () => $$(`.rv-crop[data-page="${frame.dataset.page}"]`).forEach((crop) => drawCrop(crop, image));
    if (image.complete && image.naturalWidth) draw();
    else image.addEventListener("load", draw, { once: true });
  });
}

// --- Approval summary ---------------------------------------------------------------------------

function describeApproval() {
  const warn = $("#approve-warn");
  if (!warn) return;
  const flagged = rows.filter((row) => row.classList.contains("is-flagged") && !isChecked(row));
  const names = flagged.map((row) => $(".rv-name", row).textContent.trim());
  warn.hidden = names.length === 0;
  warn.textContent = names.length
    ? `${names.length} flagged field${names.length > 1 ? "s" : ""} not checked yet: ${names.join(", ")}.`
    : "";
}

// --- Lease --------------------------------------------------------------------------------------

const lease = {
  deadline: null,
  timer: null,
  reset(secondsLeft) {
    this.deadline = performance.now() + secondsLeft * 1000;
    if (!this.timer) this.timer = setInterval(() => this.tick(), 1000);
    this.tick();
  },
  stop(text) {
    clearInterval(this.timer);
    this.timer = null;
    this.deadline = null;
    const element = $("#lease-left");
    if (element) element.textContent = text;
    $("#lease")?.classList.add("is-low");
  },
  tick() {
    const element = $("#lease-left");
    if (!element || this.deadline == null) return;
    const left = Math.round((this.deadline - performance.now()) / 1000);
    if (left <= 0) {
      element.textContent = "expired";
      $("#lease")?.classList.add("is-low");
      clearInterval(this.timer);
      this.timer = null;
      alertLive("Your lease ran out: another operator may take this task now. Your next action renews it if nobody has.");
      return;
    }
    const minutes = Math.floor(left / 60);
    element.textContent = `${minutes}:${String(left % 60).padStart(2, "0")} left`;
    $("#lease")?.classList.toggle("is-low", left < 60);
  },
};

// --- Keyboard -----------------------------------------------------------------------------------

function submitForm(id) {
  const form = document.getElementById(id);
  if (form && !form.dataset.sent) {
    form.dataset.sent = "1";
    form.requestSubmit();
  }
}

function onKey(event) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  if ($("dialog[open]")) return; // dialogs handle their own keys
  const target = event.target;
  if (target instanceof HTMLElement && target.classList.contains("rv-input")) {
    if (event.key === "Enter") {
      event.preventDefault();
      act(target.closest(".rv-row"), "correct");
    } else if (event.key === "Escape") {
      event.preventDefault();
      undoEdit(target);
    }
    return;
  }
  if (isTyping(target)) return;
  if (target instanceof HTMLButtonElement && event.key === "Enter") return; // a focused button's own action
  const key = event.key;
  const handled = (() => {
    if (key === "?") return openDialog("help-dialog"), true;
    if (key === "n" && $("#next-form")) return submitForm("next-form"), true;
    if (key === "b" && $("#toggle-boxes")) return $("#toggle-boxes").click(), true;
    if (key === "z" && $("#toggle-zoom")) return toggleZoom(), true;
    if (!canAct || !rows.length || review.classList.contains("is-stale")) return false;
    switch (key) {
      case "j": case "ArrowDown": setActive(active + 1); return true;
      case "k": case "ArrowUp": setActive(active - 1); return true;
      case "Enter": act(rows[active], "confirm"); return true;
      case "e": edit(rows[active]); return true;
      case "a": openDialog("approve-dialog"); return true;
      case "r": openDialog("reject-dialog"); return true;
      case "x": openDialog("escalate-dialog"); return true;
      case "u": submitForm("release-form"); return true;
      default:
        if (/^[1-9]$/.test(key) && Number(key) <= rows.length) { setActive(Number(key) - 1); return true; }
        return false;
    }
  })();
  if (handled) event.preventDefault();
}

function onDialogKey(event) {
  const dialog = event.currentTarget;
  const form = $("form", dialog);
  const inText = event.target instanceof HTMLTextAreaElement;
  if (dialog.id === "reject-dialog" && !inText && /^[1-9]$/.test(event.key)) {
    const radio = $(`input[data-digit="${event.key}"]`, dialog);
    if (radio) {
      radio.checked = true;
      radio.focus();
      event.preventDefault();
    }
    return;
  }
  const submitsHere = event.key === "Enter" && !event.shiftKey && !(event.target instanceof HTMLButtonElement);
  if (submitsHere && form && form.method !== "dialog") {
    event.preventDefault();
    if (form.reportValidity()) form.requestSubmit();
  }
}

// --- Wiring -------------------------------------------------------------------------------------

document.addEventListener("keydown", onKey);
$$("dialog").forEach((dialog) => {
  dialog.addEventListener("keydown", onDialogKey);
  $$("[data-close]", dialog).forEach((button) => button.addEventListener("click", () => dialog.close()));
  $$("form", dialog).forEach((form) => form.addEventListener("submit", () => {
    $$("button[type=submit]", form).forEach((button) => { button.disabled = true; });
  }));
});
$$("[data-open]").forEach((button) => button.addEventListener("click", () => openDialog(button.dataset.open)));

rows.forEach((row, index) => {
  row.addEventListener("click", (event) => {
    if (!(event.target instanceof HTMLElement) || !event.target.closest("button, input, a")) setActive(index, { focusRow: !isTyping(document.activeElement) });
  });
  const input = $(".rv-input", row);
  input?.addEventListener("focus", () => { if (active !== index) setActive(index, { focusRow: false }); });
  input?.addEventListener("input", () => input.classList.toggle("is-dirty", input.value !== (input.dataset.original ?? "")));
  $$("form[data-kind]", row).forEach((form) => form.addEventListener("submit", (event) => {
    event.preventDefault();
    act(row, form.dataset.kind);
  }));
});
$$(".box").forEach((box) => box.addEventListener("click", () => {
  const index = rows.findIndex((row) => row.dataset.key === box.dataset.key);
  if (index >= 0) setActive(index);
}));
$$("[data-field-link]").forEach((link) => link.addEventListener("click", (event) => {
  const index = rows.findIndex((row) => row.dataset.name === link.dataset.fieldLink);
  if (index >= 0) { event.preventDefault(); setActive(index); }
}));
$$("[data-page-tab]").forEach((tab) => tab.addEventListener("click", () => showPage(tab.dataset.pageTab)));
$("#toggle-zoom")?.addEventListener("click", toggleZoom);
$("#toggle-boxes")?.addEventListener("click", () => $$(".page-canvas").forEach((canvas) => canvas.classList.toggle("boxes-hidden")));
$("#id_document_type")?.addEventListener("change", (event) => event.target.form.submit());

drawCrops();
if (canAct && rows.length) setActive(active);
if (review?.dataset.leaseLeft) lease.reset(Number(review.dataset.leaseLeft));
