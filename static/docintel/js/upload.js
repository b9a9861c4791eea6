// The upload page: drop or pick many files; each is sent on its own request (a few at a time)
// with its own progress bar, and its row then follows the document until it is decided.
//
// The form keeps working without this module (it posts all files at once and the server answers
// with a page); with it, the form is "enhanced": the raw file input and the submit button hide and
// files go up as soon as they are chosen. A zip's row becomes the heading of its members' rows.

import { StatusPoller, isTyping, paintStatus } from "./status.js";

const CONCURRENT_UPLOADS = 3;

const form = document.getElementById("upload-form");
if (form) enhance(form);

function enhance(form) {
  const input = form.querySelector("input[type=file]");
  const zone = document.getElementById("dropzone");
  const typeSelect = form.querySelector("select[name=document_type]");
  const csrfToken = form.querySelector("input[name=csrfmiddlewaretoken]").value;
  const queueCard = document.getElementById("upload-queue");
  const list = document.getElementById("upload-list");
  const summary = document.getElementById("queue-summary");
  const maxBytes = Number(form.dataset.maxBytes);
  const uploadUrl = form.dataset.uploadUrl;

  const rowsByDocument = new Map(); // document id -> rows showing it (a duplicate may appear twice)
  const documents = new Map(); // document id -> latest status payload
  const waiting = []; // {file, row} not sent yet
  let sending = 0;
  let refusedCount = 0;
  const poller = new StatusPoller(form.dataset.statusUrl, showDocument);

  form.classList.add("enhanced");
  zone.tabIndex = 0;
  zone.setAttribute("role", "button");
  zone.setAttribute("aria-label", "Drop files here or choose files to upload");

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    addFiles(input.files);
    input.value = "";
  });
  input.addEventListener("change", () => {
    addFiles(input.files);
    input.value = "";
  });
  zone.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      input.click();
    }
  });
  for (const type of ["dragenter", "dragover"]) {
    zone.addEventListener(type, (event) => {
      event.preventDefault();
      zone.classList.add("is-over");
    });
  }
  for (const type of ["dragleave", "dragend"]) zone.addEventListener(type, () => zone.classList.remove("is-over"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("is-over");
    addFiles(event.dataTransfer.files);
  });
  // A file dropped beside the zone must not make the browser navigate away to show it.
  window.addEventListener("dragover", (event) => event.preventDefault());
  window.addEventListener("drop", (event) => event.preventDefault());
  document.addEventListener("keydown", (event) => {
    if (!isTyping(event) && event.key.toLowerCase() === "u") {
      event.preventDefault();
      input.click();
    }
  });

  function addFiles(fileList) {
    const files = Array.from(fileList || []);
    if (!files.length) return;
    queueCard.hidden = false;
    for (const file of files) {
      const row = addRow(file.name, { detail: formatSize(file.size) });
      if (file.size > maxBytes) {
        refuse(row, `the file is larger than the ${form.dataset.maxSizeLabel} limit`);
        continue;
      }
      waiting.push({ file, row });
    }
    pump();
    updateSummary();
  }

  function pump() {
    while (sending < CONCURRENT_UPLOADS && waiting.length) {
      const job = waiting.shift();
      sending += 1;
      send(job).finally(() => {
        sending -= 1;
        pump();
        updateSummary();
      });
    }
  }

  function send({ file, row }) {
    return new Promise((resolve) => {
      const request = new XMLHttpRequest();
      request.open("POST", uploadUrl);
      request.setRequestHeader("X-CSRFToken", csrfToken);
      request.setRequestHeader("Accept", "application/json");
      request.upload.addEventListener("progress", (event) => {
        if (event.lengthComputable) setProgress(row, event.loaded / event.total);
      });
      request.upload.addEventListener("load", () => {
        setProgress(row, 1);
        setPill(row, "uploading", "Checking…");
      });
      request.addEventListener("load", () => {
        let body = null;
        try {
          body = JSON.parse(request.responseText);
        } catch (error) {
          body = null;
        }
        answer(row, request.status, body);
        resolve();
      });
      request.addEventListener("error", () => {
        refuse(row, "the upload did not reach the server (network error); try again");
        resolve();
      });
      const data = new FormData();
      data.append("file", file, file.name);
      if (typeSelect && typeSelect.value) data.append("document_type", typeSelect.value);
      setPill(row, "uploading", "Uploading");
      request.send(data);
    });
  }

  function answer(row, httpStatus, body) {
    if (!body) {
      refuse(row, httpStatus === 413 ? "the file is too large for the server" : `the server answered ${httpStatus}`);
      return;
    }
    if (body.error) {
      refuse(row, body.error.message, body.error.code);
      return;
    }
    const single = body.documents.length === 1 && !body.refused.length && body.documents[0].file === body.file;
    if (single) {
      follow(row, body.documents[0]);
      return;
    }
    // A zip: its row sums up, and every member gets a row of its own beneath it.
    setProgress(row, 1);
    row.classList.add("is-done");
    setPill(row, "unpacked", "Unpacked");
    setDetail(
      row,
      `${count(body.documents.length, "document")}${body.refused.length ? `, ${count(body.refused.length, "file")} refused` : ""}`,
    );
    let anchor = row;
    for (const doc of body.documents) {
      anchor = addRow(doc.file, { member: true, after: anchor });
      setProgress(anchor, 1);
      follow(anchor, doc);
    }
    for (const refusal of body.refused) {
      anchor = addRow(refusal.file, { member: true, after: anchor });
      refuse(anchor, refusal.message, refusal.code);
    }
  }

  function follow(row, doc) {
    row.dataset.documentId = doc.id;
    setProgress(row, 1);
    if (!rowsByDocument.has(doc.id)) rowsByDocument.set(doc.id, []);
    rowsByDocument.get(doc.id).push(row);
    const open = row.querySelector(".open");
    const link = document.createElement("a");
    link.href = doc.url;
    link.textContent = "Open";
    open.replaceChildren(link);
    if (doc.duplicate) {
      row.classList.add("is-duplicate");
      row.dataset.duplicate = "true";
      const when = new Date(doc.uploaded_at).toLocaleString();
      row.dataset.note = doc.reprocessed
        ? `Already uploaded as ${doc.existing_file} (${when}); it had failed, so it is processed again`
        : `Already uploaded as ${doc.existing_file} (${when}); not stored again`;
    }
    showDocument(doc);
    if (doc.in_flight) poller.watch(doc.id);
  }

  function showDocument(doc) {
    documents.set(doc.id, doc);
    for (const row of rowsByDocument.get(doc.id) || []) {
      setPill(row, doc.status, doc.status_label);
      const parts = [];
      if (row.dataset.note) parts.push(row.dataset.note);
      if (doc.error) parts.push(doc.error.message);
      else if (doc.document_type) parts.push(doc.document_type_label);
      if (parts.length) setDetail(row, parts.join(" · "));
      row.classList.toggle("is-done", !doc.in_flight);
      row.classList.toggle("is-refused", doc.status === "failed");
    }
    updateSummary();
  }

  function refuse(row, message, code) {
    refusedCount += 1;
    row.classList.add("is-refused");
    row.dataset.refusal = code || "refused";
    setProgress(row, 1);
    setPill(row, "refused", "Refused");
    setDetail(row, message);
  }

  function updateSummary() {
    const all = [...documents.values()];
    const decided = all.filter((doc) => !doc.in_flight).length;
    const parts = [];
    if (all.length) parts.push(`${decided} of ${count(all.length, "document")} decided`);
    if (waiting.length || sending) parts.push(`${waiting.length + sending} uploading`);
    if (refusedCount) parts.push(`${refusedCount} refused`);
    summary.textContent = parts.join(" · ");
  }

  function addRow(name, { detail = "", member = false, after = null } = {}) {
    const row = document.createElement("li");
    row.className = member ? "upload-item is-member" : "upload-item";
    row.dataset.file = name;
    const nameCell = document.createElement("div");
    nameCell.className = "name";
    const title = document.createElement("strong");
    title.textContent = name;
    title.title = name;
    const message = document.createElement("span");
    message.className = "message";
    message.textContent = detail;
    nameCell.append(title, message);
    const progress = document.createElement("div");
    progress.className = "progress";
    progress.append(document.createElement("span"));
    const statusCell = document.createElement("div");
    const pill = document.createElement("span");
    statusCell.append(pill);
    const open = document.createElement("div");
    open.className = "open";
    row.append(nameCell, progress, statusCell, open);
    paintStatus(pill, "waiting", "Waiting");
    if (after) after.after(row);
    else list.append(row);
    return row;
  }
}

function setProgress(row, fraction) {
  row.querySelector(".progress > span").style.width = `${Math.round(fraction * 100)}%`;
}

function setPill(row, status, label) {
  paintStatus(row.querySelector(".status"), status, label);
}

function setDetail(row, text) {
  row.querySelector(".message").textContent = text;
}

function count(n, noun) {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function formatSize(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
