// Following documents through the pipeline.
//
// One poller per page asks one small JSON endpoint about every document it still follows, in a
// single request per tick (a page with fifty uploads makes one request a second and a half, not
// fifty). A document leaves the set as soon as it is decided; the poller stops when the set is
// empty, slows down while the tab is hidden, and backs off when the server does not answer.

const BASE_INTERVAL_MS = 1500;
const HIDDEN_INTERVAL_MS = 6000;
const MAX_BACKOFF_MS = 15000;

export class StatusPoller {
  /**
   * @param {string} url the status endpoint (``?ids=a,b,c`` is appended)
   * @param {(doc: object) => void} onUpdate called with each document's status payload
   */
  constructor(url, onUpdate) {
    this.url = url;
    this.onUpdate = onUpdate;
    this.ids = new Set();
    this.timer = null;
    this.failures = 0;
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden && this.ids.size) this.schedule(0);
    });
  }

  watch(id) {
    this.ids.add(id);
    if (this.timer === null) this.schedule(BASE_INTERVAL_MS);
  }

  schedule(delay) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), delay);
  }

  async tick() {
    this.timer = null;
    if (!this.ids.size) return;
    try {
      const query = encodeURIComponent([...this.ids].join(","));
      const response = await fetch(`${this.url}?ids=${query}`, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const body = await response.json();
      for (const doc of body.documents) {
        if (!doc.in_flight) this.ids.delete(doc.id);
        this.onUpdate(doc);
      }
      this.failures = 0;
    } catch (error) {
      this.failures += 1;
    }
    if (!this.ids.size) return;
    const interval = document.hidden ? HIDDEN_INTERVAL_MS : BASE_INTERVAL_MS;
    this.schedule(Math.min(interval * 2 ** this.failures, MAX_BACKOFF_MS));
  }
}

/** Set a status pill's text and colour from a status payload. */
export function paintStatus(element, status, label) {
  element.textContent = label;
  element.className = `status status-${status}`;
  element.dataset.status = status;
}

/** True while focus is in a field where keys are typed, so shortcuts keep out of the way. */
export function isTyping(event) {
  const target = event.target;
  if (event.ctrlKey || event.metaKey || event.altKey) return true;
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName));
}
